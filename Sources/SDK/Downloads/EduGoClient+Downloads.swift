import Foundation

extension EduGoClient {
    /// The lesson downloads of `session`'s user, under this client's data directory: the session's
    /// one ``Downloads``.
    ///
    /// The first call for a session makes it with the settings given; later calls return the same
    /// instance and do not change its settings (change the budget with ``Downloads/setBudget(_:)``).
    /// Its records live in the session's ``OfflineStore``.
    ///
    /// Pinned files live under the client's data directory; cached ones (`pinned: false`) under the
    /// system's caches directory on Apple platforms (see ``DownloadLocations``). A download whose
    /// connection is lost waits for this client's ``monitor`` to report the server reachable again
    /// and continues by itself (see ``Downloads``).
    ///
    /// - Parameters:
    ///   - budget: Bytes the files may take; cached (not pinned) ones are evicted beyond it.
    ///   - maxConcurrent: Downloads at a time.
    ///   - transport: Streams the files; when `nil`, on Linux the connections of this client's
    ///     ``api`` (an ``AsyncHTTPClientMediaTransport`` over them), on Apple platforms
    ///     ``APIConfiguration/makeDefaultMediaTransport()`` of its configuration: either way media
    ///     downloads honour its certificate pinning.
    ///   - resumeLimit: Lost connections in a row without a byte received that a download waits
    ///     through before it fails; 0 fails at the first one, as a ``Downloads`` without a monitor does.
    /// - Throws: A file-system or database error when the first call cannot create the folders or
    ///   import an older SDK's `manifest.json`.
    public func downloads(
        for session: OfflineSession, budget: Int64 = 2 << 30, maxConcurrent: Int = 2,
        transport: (any MediaTransport)? = nil, resumeLimit: Int = 10
    ) throws -> Downloads {
        try session.downloadsOwner.withLock { owned in
            if let owned { return owned }
            let locations = DownloadLocations(
                dataDirectory: dataDirectory, tenantID: session.store.tenantID, userID: session.store.userID)
            let made = try Downloads(
                store: session.store, directory: locations.directory, cacheDirectory: locations.cacheDirectory,
                baseURL: api.configuration.baseURL, session: api.session,
                transport: transport ?? defaultMediaTransport(), budget: budget,
                maxConcurrent: maxConcurrent, now: environment.now, monitor: monitor, resumeLimit: resumeLimit)
            owned = made
            return made
        }
    }

    /// The media transport of this client's downloads: its API connections on Linux.
    private func defaultMediaTransport() -> any MediaTransport {
        #if canImport(AsyncHTTPClient)
        do {
            return AsyncHTTPClientMediaTransport(clients: try api.streaming.clients())
        } catch let error as NetworkError {
            return RefusingMediaTransport(error: error)
        } catch {
            return RefusingMediaTransport(error: .securityError("pinning configuration: \(error)"))
        }
        #else
        return api.configuration.makeDefaultMediaTransport()
        #endif
    }
}
