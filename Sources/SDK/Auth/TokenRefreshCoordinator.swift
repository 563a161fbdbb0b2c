import Foundation

/// Owns the session tokens and refreshes them: single-flight, proactively before expiry, once
/// after a 401, bounded by a ``RefreshWindow``. Before refreshing it re-reads the ``TokenStore``,
/// so tokens another process sharing the store rotated meanwhile are adopted, not refreshed again.
///
/// A refresh that fails for lack of network keeps the session (the learner stays signed in
/// offline); a refresh the server rejects clears the tokens and emits ``SessionEvent/sessionExpired``.
public actor TokenRefreshCoordinator {
    /// Exchanges a refresh token for new tokens (a call to `POST /v1/auth/refresh`).
    public typealias Refresher = @Sendable (_ refreshToken: String) async throws -> SessionTokens

    private let store: any TokenStore
    private let key: TokenStoreKey
    private let environment: SDKEnvironment
    private let leeway: TimeInterval
    private let refresher: Refresher
    private let events: Broadcaster<SessionEvent>
    private var window: RefreshWindow
    private var tokens: SessionTokens?
    private var loaded = false
    private var inFlight: Task<SessionTokens, any Error>?
    /// Moves on every sign-in and sign-out: a refresh started under another generation belongs
    /// to a session that no longer exists, and its outcome is dropped.
    private var generation = 0
    /// Why there are no tokens when the server ended the session: callers that arrive after the
    /// rejected refresh hear `sessionExpired` too, not "not signed in".
    private var endedBy: NetworkError?

    init(
        store: any TokenStore, key: TokenStoreKey, environment: SDKEnvironment, leeway: Duration,
        window: RefreshWindow, events: Broadcaster<SessionEvent>, refresher: @escaping Refresher
    ) {
        self.store = store
        self.key = key
        self.environment = environment
        self.leeway = leeway.timeInterval
        self.window = window
        self.events = events
        self.refresher = refresher
    }

    /// The stored tokens, loaded from the ``TokenStore`` on first use.
    public func currentTokens() async -> SessionTokens? {
        if !loaded {
            let stored = try? await store.load(key)
            // Concurrent first callers all load; only the first answer counts. A later one would
            // overwrite tokens that a refresh (or sign-in) set while this load was suspended.
            if !loaded {
                tokens = stored
                loaded = true
            }
        }
        return tokens
    }

    /// Whether a session exists (it may need a refresh before use).
    public var isSignedIn: Bool {
        get async { await currentTokens() != nil }
    }

    /// Stores the tokens of a new sign-in.
    func signIn(_ new: SessionTokens) async throws {
        generation += 1
        endedBy = nil
        tokens = new
        loaded = true
        try await store.save(new, for: key)
        events.emit(.signedIn(userID: new.userID))
    }

    /// Forgets the session locally and emits `event`.
    func clear(emitting event: SessionEvent) async {
        generation += 1
        endedBy = event == .sessionExpired ? .sessionExpired : nil
        tokens = nil
        loaded = true
        try? await store.remove(key)
        events.emit(event)
    }

    /// An access token fit to send: refreshed first when it expires within the leeway.
    ///
    /// - Throws: ``NetworkError/unauthorized(code:)`` when signed out, ``NetworkError/sessionExpired``
    ///   when the server rejected the refresh, or, once the token has actually expired, the
    ///   transport error when offline or `refresh_window_exceeded` when refreshes ran out.
    public func validAccessToken() async throws -> String {
        try await validAccessToken(for: nil)
    }

    /// The refusal when the session belongs to another user than the request's.
    static let otherUser = NetworkError.unauthorized(code: "other_user")

    /// ``validAccessToken()``, refused with `other_user` unless the session is `userID`'s (when given).
    func validAccessToken(for userID: String?) async throws -> String {
        guard let current = await currentTokens() else { throw endedBy ?? NetworkError.unauthorized(code: "not_signed_in") }
        try Self.require(current, belongsTo: userID)
        let now = environment.now()
        guard now.addingTimeInterval(leeway) >= current.accessTokenExpiresAt else { return current.accessToken }
        do {
            let refreshed = try await refresh(from: current)
            try Self.require(refreshed, belongsTo: userID)
            return refreshed.accessToken
        } catch let error as NetworkError where error.keepsSession || error == Self.windowExceeded {
            // Offline, a server hiccup, or too many refreshes lately: the old token is still good
            // until it expires.
            if now < current.accessTokenExpiresAt { return current.accessToken }
            throw error
        }
    }

    /// After a 401: refresh once, unless another caller already replaced the failed token.
    public func accessTokenAfterUnauthorized(failedToken: String) async throws -> String {
        try await accessTokenAfterUnauthorized(failedToken: failedToken, for: nil)
    }

    /// ``accessTokenAfterUnauthorized(failedToken:)``, refused with `other_user` unless the
    /// session is `userID`'s (when given).
    func accessTokenAfterUnauthorized(failedToken: String, for userID: String?) async throws -> String {
        guard let current = await currentTokens() else { throw NetworkError.sessionExpired }
        try Self.require(current, belongsTo: userID)
        if current.accessToken != failedToken { return current.accessToken }
        let refreshed = try await refresh(from: current)
        try Self.require(refreshed, belongsTo: userID)
        return refreshed.accessToken
    }

    /// Refuses with `other_user` tokens that are not `userID`'s (any user's when `nil`).
    private static func require(_ tokens: SessionTokens, belongsTo userID: String?) throws {
        if let userID, tokens.userID != userID { throw otherUser }
    }

    /// The refusal when the ``RefreshWindow`` is full.
    static let windowExceeded = NetworkError.unauthorized(code: "refresh_window_exceeded")

    /// Joins the refresh in flight, or starts one. Every caller sees the same outcome.
    private func refresh(from current: SessionTokens) async throws -> SessionTokens {
        if let inFlight { return try await inFlight.value }
        guard window.admit(at: environment.now()) else { throw Self.windowExceeded }
        let refreshToken = current.refreshToken
        let started = generation
        let task = Task { try await self.exchange(refreshToken, generation: started) }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }

    /// The refusal when the session changed (sign-out, another sign-in) while a refresh ran.
    static let sessionChanged = NetworkError.unauthorized(code: "session_changed")

    /// One call to the refresher with its outcome applied, inside the shared task, so callers
    /// that joined it get the new tokens or ``NetworkError/sessionExpired`` just as the first does.
    ///
    /// The outcome is applied only if the session is still the one the refresh started from
    /// (`generation`): a late answer never restores a signed-out session, overwrites the next
    /// user's tokens, or signs the next user out.
    private func exchange(_ refreshToken: String, generation started: Int) async throws -> SessionTokens {
        // Another process on the same token store (an app extension, a second `edugo`) may have
        // refreshed since these tokens were loaded: our refresh token is spent then, and sending it
        // would look like reuse to the server. Re-read the store and adopt what it holds.
        var refreshToken = refreshToken
        if let stored = try? await store.load(key), stored.refreshToken != refreshToken {
            guard generation == started else { throw Self.sessionChanged }
            if let current = tokens, stored.userID == current.userID, stored.tenantID == current.tenantID {
                tokens = stored
                if stored.accessTokenExpiresAt > environment.now().addingTimeInterval(leeway) { return stored }
                refreshToken = stored.refreshToken
            }
        }
        let new: SessionTokens
        do {
            new = try await refresher(refreshToken)
        } catch let error as NetworkError where !error.keepsSession {
            guard generation == started else { throw Self.sessionChanged }
            await clear(emitting: .sessionExpired)
            throw NetworkError.sessionExpired
        }
        guard generation == started else { throw Self.sessionChanged }
        tokens = new
        do {
            try await store.save(new, for: key)
        } catch {
            // The token on disk is spent now: remove it rather than leave it for a relaunch.
            try? await store.remove(key)
            events.emit(.tokenStorageFailed)
        }
        guard generation == started else {
            // Signed out or in while the save was under way: put the current state back on disk.
            if let tokens { try? await store.save(tokens, for: key) } else { try? await store.remove(key) }
            throw Self.sessionChanged
        }
        events.emit(.refreshed)
        return new
    }
}

extension NetworkError {
    /// Failures that say nothing about the refresh token itself: the session is kept.
    var keepsSession: Bool {
        switch self {
        case .noConnection, .timeout, .cancelled, .rateLimited, .serverError, .securityError, .unknown, .decodingError,
            .pinningFailed, .untrustedCertificate:
            true
        default:
            false
        }
    }
}
