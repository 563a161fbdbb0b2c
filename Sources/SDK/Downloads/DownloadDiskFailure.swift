import Foundation

/// A failure to write the partial file or its record: the disk's fault, not the network's.
struct DownloadDiskFailure: Error {
    var underlying: any Error

    /// Runs `body`, marking what it throws as a disk failure (a ``DownloadError`` passes unchanged).
    static func marking<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DownloadError {
            throw error
        } catch {
            throw DownloadDiskFailure(underlying: error)
        }
    }
}
