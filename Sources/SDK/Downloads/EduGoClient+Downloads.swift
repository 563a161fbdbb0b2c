import Foundation

extension EduGoClient {
    /// The lesson downloads of `session`'s user, under this client's data directory.
    ///
    /// - Parameters:
    ///   - budget: Bytes the files may take; cached (not pinned) ones are evicted beyond it.
    ///   - maxConcurrent: Downloads at a time.
    ///   - transport: Streams the files (the platform's default when `nil`).
    public func downloads(
        for session: OfflineSession, budget: Int64 = 2 << 30, maxConcurrent: Int = 2,
        transport: (any MediaTransport)? = nil
    ) throws -> Downloads {
        try Downloads(
            directory: Downloads.directory(
                dataDirectory: dataDirectory, tenantID: session.store.tenantID, userID: session.store.userID),
            baseURL: api.configuration.baseURL, session: api.session, transport: transport, budget: budget,
            maxConcurrent: maxConcurrent, now: environment.now)
    }
}
