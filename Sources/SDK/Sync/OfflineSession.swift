import Foundation
import Synchronization

/// Everything offline-first for one signed-in user: their local store, the sync engine and the
/// repositories. Create it with ``EduGoClient/signIn(email:password:)`` or
/// ``EduGoClient/resumeSession()``; run ``run()`` for as long as the session is in use.
public final class OfflineSession: Sendable {
    public let store: OfflineStore
    public let engine: SyncEngine
    public let cache: ResponseCache
    public let courses: CourseRepository
    public let progress: ProgressRepository
    public let profile: ProfileRepository
    public let enrollment: EnrollmentRepository
    public let preferences: Preferences
    /// Set by ``stop()``: a running ``run()`` ends, and a later one returns at once.
    private let stopRequested = Broadcaster(false)
    /// How many ``run()`` calls are under way.
    private let runs = Broadcaster(0)

    init(client: APIClient, store: OfflineStore, monitor: ConnectivityMonitor, policy: ConflictPolicy, environment: SDKEnvironment) {
        self.store = store
        self.cache = ResponseCache(client: client, store: store, now: environment.now)
        self.engine = SyncEngine(
            client: client, store: store, monitor: monitor, cache: cache, policy: policy, environment: environment)
        self.courses = CourseRepository(store: store, engine: engine)
        self.progress = ProgressRepository(store: store, engine: engine, now: environment.now)
        self.profile = ProfileRepository(store: store, engine: engine)
        self.enrollment = EnrollmentRepository(store: store, engine: engine)
        self.preferences = Preferences(store: store)
    }

    /// Syncs in the background (drains at start, on reconnect, after writes, when retries fall
    /// due; refreshes cached collections) until the calling task is cancelled, or the session ends
    /// (another user signs in on the client, or this one signs out).
    public func run() async {
        guard stopRequested.current != true else { return }
        runs.update { $0 += 1 }
        defer { runs.update { $0 -= 1 } }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.engine.run() }
            group.addTask {
                for await stopped in self.stopRequested.subscribe() where stopped { return }
            }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// Ends the session's background work: every ``run()`` stops (a drain under way after its
    /// request in flight) and has returned when this returns; a later ``run()`` returns at once.
    func stop() async {
        stopRequested.update { $0 = true }
        for await count in runs.subscribe() where count == 0 { return }
    }
}

/// Refusals of ``EduGoClient/signOut(discardingPendingChanges:)``.
public enum SignOutError: Error, Equatable, Sendable {
    /// Work of the user's that signing out would destroy: `count` writes still waiting,
    /// `deadLetters` the server refused and `conflicts` parked for the user. Sign out with
    /// `discardingPendingChanges: true` to drop them all.
    case pendingChanges(count: Int, deadLetters: Int = 0, conflicts: Int = 0)
}

/// The SDK's front door: the network client, auth, connectivity and, once signed in, the
/// offline session of the current user.
///
/// ```swift
/// let edugo = EduGoClient(configuration: config, dataDirectory: appSupport)
/// let session = try await edugo.signIn(email: email, password: password)
/// let syncing = Task { await session.run() }   // owned by the app, cancelled on sign-out
/// try await session.progress.record(courseID: c, lessonID: l, watchedSeconds: 90)
/// ```
public final class EduGoClient: Sendable {
    public let api: APIClient
    public let auth: AuthService
    public let monitor: ConnectivityMonitor
    public let dataDirectory: URL
    let policy: ConflictPolicy
    let environment: SDKEnvironment
    private let current = Mutex<OfflineSession?>(nil)

    /// The Keychain on Apple platforms; a ``FileTokenStore`` in `dataDirectory/session/` elsewhere.
    static func defaultTokenStore(dataDirectory: URL) -> any TokenStore {
        #if canImport(Security) && !canImport(FoundationNetworking)
        KeychainTokenStore()
        #else
        FileTokenStore(directory: dataDirectory.appendingPathComponent("session", isDirectory: true))
        #endif
    }

    /// - Parameters:
    ///   - dataDirectory: where local stores live (one per tenant and user).
    ///   - tokenStore: where the session's tokens live: by default the Keychain on Apple platforms
    ///     (``KeychainTokenStore``), a ``FileTokenStore`` under `dataDirectory` elsewhere.
    public init(
        configuration: APIConfiguration, dataDirectory: URL, tokenStore: (any TokenStore)? = nil,
        transport: (any HTTPTransport)? = nil, environment: SDKEnvironment = .live,
        conflictPolicy: ConflictPolicy = ConflictPolicy()
    ) {
        // One transport for the monitor's probes and the API: the same pins, the same connections.
        let transport = transport ?? configuration.makeDefaultTransport()
        let monitor = ConnectivityMonitor(baseURL: configuration.baseURL, transport: transport, environment: environment)
        self.monitor = monitor
        self.api = APIClient(
            configuration: configuration, transport: transport,
            tokenStore: tokenStore ?? Self.defaultTokenStore(dataDirectory: dataDirectory),
            environment: environment, observers: [monitor])
        self.auth = AuthService(client: api)
        self.dataDirectory = dataDirectory
        self.policy = conflictPolicy
        self.environment = environment
    }

    /// Signs in and opens the user's offline session.
    ///
    /// When another user's session was open, its background work is stopped first, and has
    /// ended when this returns: one user's sync never runs beside another's.
    public func signIn(email: String, password: String) async throws -> OfflineSession {
        let user = try await auth.login(email: email, password: password)
        let session = try await switchSession(to: user.id)
        try await session.store.saveProfile(user, at: environment.now())
        return session
    }

    /// The offline session of the user whose tokens are stored, or `nil` when signed out. Works
    /// offline: nothing is fetched.
    public func resumeSession() async throws -> OfflineSession? {
        guard let tokens = await api.session.currentTokens() else { return nil }
        return try await switchSession(to: tokens.userID)
    }

    /// Signs out: stops the session's ``OfflineSession/run()`` and waits for it, revokes the session
    /// on the server (when reachable), forgets the tokens and deletes the user's local store.
    ///
    /// - Throws: ``SignOutError/pendingChanges(count:deadLetters:conflicts:)`` while writes are
    ///   waiting, dead letters or conflicts exist, unless `discardingPendingChanges` is true.
    public func signOut(discardingPendingChanges: Bool = false) async throws {
        if let session = try await resumeSession() {
            let (pending, deadLetters, conflicts) = try await session.store.unsyncedWork()
            if pending + deadLetters + conflicts > 0 && !discardingPendingChanges {
                throw SignOutError.pendingChanges(count: pending, deadLetters: deadLetters, conflicts: conflicts)
            }
            await session.stop()
            current.withLock { $0 = nil }
            try session.store.destroy()
            // The user's downloaded lesson files go with the store.
            Downloads.removeAll(dataDirectory: dataDirectory, tenantID: session.store.tenantID, userID: session.store.userID)
        }
        try await auth.logout()
    }

    /// The open session of `userID`; another user's open session is stopped (and awaited) first.
    private func switchSession(to userID: String) async throws -> OfflineSession {
        if let previous = current.withLock({ $0 }), previous.store.userID != userID {
            await previous.stop()
        }
        return try openSession(userID: userID)
    }

    /// The open session of `userID`, opening its store the first time (one store per user).
    private func openSession(userID: String) throws -> OfflineSession {
        try current.withLock { current in
            if let session = current, session.store.userID == userID { return session }
            let store = try OfflineStore.open(directory: dataDirectory, tenantID: api.configuration.tenantID, userID: userID)
            let session = OfflineSession(client: api, store: store, monitor: monitor, policy: policy, environment: environment)
            current = session
            return session
        }
    }
}
