import Foundation

/// Account operations: register, sign in and out, password reset, email verification, `me`.
public struct AuthService: Sendable {
    let client: APIClient

    /// Creates the account operations of `client`. A successful ``login(email:password:)`` stores
    /// its tokens in the client's ``APIClient/session``, so every later call of that client is
    /// authenticated.
    public init(client: APIClient) {
        self.client = client
    }

    struct Credentials: Encodable, Sendable { var email: String; var password: String }
    struct Registration: Encodable, Sendable { var email: String; var password: String; var firstName: String; var lastName: String }
    struct EmailOnly: Encodable, Sendable { var email: String }
    struct Reset: Encodable, Sendable { var token: String; var password: String }

    /// Session events; each call returns a new stream.
    public var sessionEvents: AsyncStream<SessionEvent> { client.sessionEvents() }

    /// Asks for an account (unverified until ``verifyEmail(token:)``).
    ///
    /// The server answers the same whether or not the email is taken (it does not reveal which
    /// addresses have accounts): the outcome arrives by mail, a verification token for a new
    /// account or a note to the holder of an existing one.
    public func register(email: String, password: String, firstName: String, lastName: String) async throws {
        try await client.perform(
            endpoint: .Auth.register,
            body: Registration(email: email, password: password, firstName: firstName, lastName: lastName))
    }

    /// Asks for a new verification mail; the answer is the same for unknown and already verified emails.
    public func resendVerification(email: String) async throws {
        try await client.perform(endpoint: .Auth.resendVerification, body: EmailOnly(email: email))
    }

    /// Confirms an email with the token from the verification mail.
    @discardableResult
    public func verifyEmail(token: String) async throws -> User {
        try await client.execute(endpoint: .Auth.verifyEmail(token: token))
    }

    /// Signs in and stores the session in the client's ``TokenStore``.
    ///
    /// - Returns: The signed-in user.
    /// - Throws: ``NetworkError/unauthorized(code:)`` with `invalid_credentials` for a wrong email
    ///   or password, another ``NetworkError`` when the call fails, or the token store's error when
    ///   the session cannot be saved.
    @discardableResult
    public func login(email: String, password: String) async throws -> User {
        let response: TokenResponse = try await client.execute(
            endpoint: .Auth.login, body: Credentials(email: email, password: password))
        try await client.session.signIn(
            response.sessionTokens(tenantID: client.configuration.tenantID, now: client.environment.now()))
        return response.user
    }

    /// Revokes the session on the server (best effort when offline) and forgets it locally.
    public func logout() async throws {
        do {
            if await client.session.isSignedIn {
                try await client.perform(endpoint: .Auth.logout)
            }
        } catch let error as NetworkError where error.keepsSession || error.statusCode == 401 {
            // Offline or already revoked: the local sign-out below still happens.
        }
        await client.session.clear(emitting: .signedOut)
    }

    /// Asks for a password-reset mail; the answer is the same whether or not the account exists.
    public func forgotPassword(email: String) async throws {
        let response = try await client.send(
            endpoint: .Auth.forgotPassword, body: JSONCoding.encoder.encode(EmailOnly(email: email)))
        guard response.isSuccess else { throw NetworkError.from(response: response, now: client.environment.now()) }
    }

    /// Sets a new password with the token from the reset mail.
    public func resetPassword(token: String, newPassword: String) async throws {
        try await client.perform(endpoint: .Auth.resetPassword, body: Reset(token: token, password: newPassword))
    }

    /// The signed-in user, from the server.
    public func me() async throws -> User {
        try await client.execute(endpoint: .Auth.me)
    }
}
