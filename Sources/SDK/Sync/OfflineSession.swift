import EduGoGuarded
import Foundation

/// Everything offline-first for one signed-in user: their local store, the sync engine and the
/// repositories. Create it with ``EduGoClient/signIn(email:password:)`` or
/// ``EduGoClient/resumeSession()``; run ``run()`` for as long as the session is in use.
public final class OfflineSession: Sendable {
    /// The user's local database, which the repositories read and write; it is deleted on sign-out.
    public let store: OfflineStore
    /// Sends the queued writes and refreshes cached data: follow ``SyncEngine/statusUpdates()`` for a
    /// sync indicator, call ``SyncEngine/syncNow()`` for pull-to-refresh.
    public let engine: SyncEngine
    /// The user's cache of `GET` answers, for calls the repositories do not cover; kept in ``store``,
    /// so it goes with the user's data on sign-out.
    public let cache: ResponseCache
    /// The course catalogue and lessons, answered from the device and refreshed in the background.
    public let courses: CourseRepository
    /// The learner's lesson progress: recorded on the device at once, sent when the server is reachable.
    public let progress: ProgressRepository
    /// The signed-in user's profile, readable and editable offline.
    public let profile: ProfileRepository
    /// The courses the learner is enrolled in; enrolling and leaving work offline.
    public let enrollment: EnrollmentRepository
    /// This user's app settings (theme, language…), kept on the device and never sent to the server.
    public let preferences: Preferences
    /// Set by ``stop()``: a running ``run()`` ends, and a later one returns at once.
    private let stopRequested = Broadcaster(false)
    /// How many ``run()`` calls are under way.
    private let runs = Broadcaster(0)
    /// The session's one ``Downloads``, made by the first ``EduGoClient/downloads(for:budget:maxConcurrent:transport:resumeLimit:)``.
    let downloadsOwner = Guarded<Downloads?>(nil)

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
    /// The network client, for calls the repositories do not cover; it carries the signed-in user's
    /// tokens and tells ``monitor`` how each request went.
    public let api: APIClient
    /// Account calls outside a session (register, verify email, reset a password) and the
    /// ``AuthService/sessionEvents`` stream; sign in and out with ``signIn(email:password:)`` and
    /// ``signOut(discardingPendingChanges:)`` so the offline session follows.
    public let auth: AuthService
    /// Whether the server can be reached, shared by every session of this client; call
    /// ``ConnectivityMonitor/probeNow()`` when the app returns to the foreground.
    public let monitor: ConnectivityMonitor
    /// The folder given at creation: each user's local store and downloaded lessons live under it.
    public let dataDirectory: URL
    let policy: ConflictPolicy
    let environment: SDKEnvironment
    /// The open session, changed one step at a time.
    private let slot = SessionSlot()

    /// The Keychain on Apple platforms; a ``FileTokenStore`` in `dataDirectory/session/` elsewhere.
    static func defaultTokenStore(dataDirectory: URL) -> any TokenStore {
        #if canImport(Security) && !canImport(FoundationNetworking)
        KeychainTokenStore()
        #else
        FileTokenStore(directory: dataDirectory.appendingPathComponent("session", isDirectory: true))
        #endif
    }

    /// Creates the client; nothing is fetched and no store is opened until a user signs in or a
    /// session is resumed.
    ///
    /// - Parameters:
    ///   - configuration: the server, tenant and network settings.
    ///   - dataDirectory: where local stores live (one per tenant and user).
    ///   - tokenStore: where the session's tokens live: by default the Keychain on Apple platforms
    ///     (``KeychainTokenStore``), a ``FileTokenStore`` under `dataDirectory` elsewhere.
    ///   - transport: how requests and connectivity probes are sent; by default
    ///     ``APIConfiguration/makeDefaultTransport()``, which checks the configuration's pins.
    ///   - environment: the clock, sleep and jitter (tests pass fast ones).
    ///   - conflictPolicy: how each kind of resource settles a conflicting write.
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
    /// ended when this returns: one user's sync never runs beside another's. Sign-ins, resumes and
    /// sign-outs of one client happen one at a time, in the order they were called: two
    /// concurrent sign-ins end with the last one's session open and the other's stopped.
    ///
    /// - Returns: the user's session, with their profile stored; run its ``OfflineSession/run()``.
    /// - Throws: ``NetworkError/unauthorized(code:)`` with `invalid_credentials` for a wrong email or
    ///   password, another ``NetworkError`` when the call fails, or the store's error when the
    ///   user's local store cannot be opened.
    public func signIn(email: String, password: String) async throws -> OfflineSession {
        try await slot.change { current -> (open: OfflineSession?, value: Result<OfflineSession, any Error>) in
            let user: User
            do {
                user = try await self.auth.login(email: email, password: password)
            } catch {
                return (current, .failure(error))
            }
            let session: OfflineSession
            do {
                session = try await self.switchSession(from: current, to: user.id)
            } catch {
                return (nil, .failure(error))  // the previous session was stopped; the new store did not open
            }
            do {
                try await session.store.saveProfile(user, at: self.environment.now())
            } catch {
                return (session, .failure(error))
            }
            return (session, .success(session))
        }.get()
    }

    /// The offline session of the user whose tokens are stored, or `nil` when signed out. Works
    /// offline: nothing is fetched. Call it at launch to pick up where the user left off.
    ///
    /// - Throws: the store's error when the user's local store cannot be opened.
    public func resumeSession() async throws -> OfflineSession? {
        try await slot.change { current -> (open: OfflineSession?, value: Result<OfflineSession?, any Error>) in
            do {
                let session = try await self.resumed(from: current)
                return (session ?? current, .success(session))
            } catch {
                return (nil, .failure(error))
            }
        }.get()
    }

    /// The session of the user whose tokens are stored, switched to from `current`; `nil` when
    /// signed out.
    private func resumed(from current: OfflineSession?) async throws -> OfflineSession? {
        guard let tokens = await api.session.currentTokens() else { return nil }
        return try await switchSession(from: current, to: tokens.userID)
    }

    /// Signs out: seals the user's local store, stops the session's ``OfflineSession/run()`` and
    /// waits for it, revokes the session on the server (when reachable), forgets the tokens and
    /// deletes the store. The open session counts even when the server already ended it (a
    /// password reset elsewhere): its waiting writes refuse the sign-out until its user signs in
    /// again and they are sent, or they are discarded.
    ///
    /// The check for waiting work and the seal are one store transaction: a write made before it
    /// makes sign-out refuse; a write attempted after it fails (the store accepts none), so no
    /// write is ever deleted without the refusal.
    ///
    /// - Throws: ``SignOutError/pendingChanges(count:deadLetters:conflicts:)`` while writes are
    ///   waiting, dead letters or conflicts exist, unless `discardingPendingChanges` is true.
    public func signOut(discardingPendingChanges: Bool = false) async throws {
        try await slot.change { current -> (open: OfflineSession?, value: Result<Void, any Error>) in
            let resumed: OfflineSession?
            do {
                resumed = try await self.resumed(from: current)
            } catch {
                return (nil, .failure(error))
            }
            // A session the server ended (its tokens are gone) is still the open store's user:
            // its waiting writes refuse the sign-out just the same.
            guard let session = resumed ?? current else { return (nil, await self.logout()) }
            do {
                let outcome = try await session.store.sealUnlessPending(
                    discarding: discardingPendingChanges, at: self.environment.now())
                if case .refused(let unsynced) = outcome {
                    return (session, .failure(SignOutError.pendingChanges(
                        count: unsynced.pending, deadLetters: unsynced.deadLetters, conflicts: unsynced.conflicts)))
                }
            } catch {
                return (session, .failure(error))
            }
            await session.stop()
            do {
                try session.store.destroy()
            } catch {
                return (nil, .failure(error))  // sealed: the next open of the store finishes the job
            }
            // The user's downloaded lesson files go with the store.
            Downloads.removeAll(dataDirectory: self.dataDirectory, tenantID: session.store.tenantID, userID: session.store.userID)
            return (nil, await self.logout())
        }.get()
    }

    /// Revokes the session on the server (when reachable) and forgets the tokens.
    private func logout() async -> Result<Void, any Error> {
        do {
            try await auth.logout()
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// The session of `userID`: `current` when it is theirs; otherwise `current` is stopped (and
    /// its run() has returned) and `userID`'s store is opened. Runs inside the slot's change.
    private func switchSession(from current: OfflineSession?, to userID: String) async throws -> OfflineSession {
        if let current {
            if current.store.userID == userID { return current }
            await current.stop()
        }
        let store = try OfflineStore.open(directory: dataDirectory, tenantID: api.configuration.tenantID, userID: userID)
        return OfflineSession(client: api, store: store, monitor: monitor, policy: policy, environment: environment)
    }
}
