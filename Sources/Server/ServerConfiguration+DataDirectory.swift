import Foundation

extension ServerConfiguration.Storage {
    /// Where the store keeps its files: the directory, or `nil` for in-memory storage (the
    /// store's settings name a directory, not the server's configuration).
    var dataDirectory: URL? {
        switch self {
        case .directory(let url): url
        case .inMemory: nil
        }
    }
}
