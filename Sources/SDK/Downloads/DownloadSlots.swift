import Foundation

/// At most `limit` downloads at a time; the others wait in order.
actor DownloadSlots {
    private let limit: Int
    private var inUse = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `work` once a slot is free.
    func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if inUse >= limit {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            inUse += 1
        }
        defer { release() }
        return try await work()
    }

    private func release() {
        if waiting.isEmpty {
            inUse -= 1
        } else {
            // The slot passes straight to the next waiter: `inUse` stays as it is.
            waiting.removeFirst().resume()
        }
    }
}
