import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/auth/*`: register, login, refresh, logout, forgot/reset password, verify email, me.
struct AuthRoutes: RouteModule {
    let deps: Dependencies

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.post("/v1/auth/register", use: register)
        routes.post("/v1/auth/login", use: login)
        routes.post("/v1/auth/refresh", use: refresh)
        routes.post("/v1/auth/forgot-password", use: forgotPassword)
        routes.post("/v1/auth/reset-password", use: resetPassword)
        routes.post("/v1/auth/verify-email", use: verifyEmail)
        routes.post("/v1/auth/resend-verification", use: resendVerification)
        return routes
    }

    var authenticated: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.post("/v1/auth/logout", use: logout)
        routes.get("/v1/auth/me", use: me)
        return routes
    }

    /// Always `202 accepted`, for a new address and for a taken one alike (no account
    /// enumeration): a registration of an unverified address gets its own verification mail
    /// (its link sets this registration's password), an existing holder a mail saying someone
    /// tried to register with the address.
    @Sendable func register(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<AcceptedResponse> {
        let tenant = try await deps.authenticator.namedTenant(context)
        // Counted before the body is read: an address out of budget costs no parsing.
        try await deps.rateLimiter.consume(
            .address("register", tenant: tenant.tenantID, context.clientAddress),
            deps.configuration.rateLimits.registerPerAddress)
        let body = try await RequestBody.decode(
            RegisterRequest.self, from: request, allowedKeys: RegisterRequest.keys, limit: deps.authBodyLimit)
        try body.validate()
        // The same bcrypt for a new and a taken address: the timing tells nothing either.
        let hash = try await deps.passwords.hash(body.password)
        let token = SecureToken.generate()
        let now = deps.now
        let expires = now.addingTimeInterval(deps.configuration.tokens.verificationLifetime.timeInterval)
        let outcome = try await AccountWriter(deps: deps).register(
            in: tenant, email: body.email, passwordHash: hash, firstName: body.firstName, lastName: body.lastName,
            verificationTokenHash: SecureToken.hash(token), tokenExpiresAt: expires)
        switch outcome {
        case .created(let user, let otherPending):
            await deps.mailer.sendVerification(
                to: user.email, token: token, tenant: tenant.tenantID, registeredAt: now, otherPending: otherPending)
        case .exists(let holderEmail):
            await deps.mailer.sendAccountExists(to: holderEmail, tenant: tenant.tenantID)
        }
        return APIResponse(AcceptedResponse(), status: .accepted)
    }

    /// Mails a pending account again the link of each of its pending registrations (the newest
    /// few), each a fresh token setting that same registration's password; the same `202` for
    /// unknown and already verified addresses.
    @Sendable func resendVerification(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<AcceptedResponse> {
        let limits = deps.configuration.rateLimits
        let (tenant, emailKey) = try await emailRequest(
            request, context: context, scope: "resend",
            limits: (limits.resendVerificationPerAddress, limits.resendVerificationPerAccount))
        let now = deps.now
        let reissued = try await tenant.reissueVerification(
            emailKey: emailKey, now: now,
            expiresAt: now.addingTimeInterval(deps.configuration.tokens.verificationLifetime.timeInterval),
            limit: Self.resentRegistrations, policy: deps.configuration.sessionPolicy,
            makeToken: {
                let token = SecureToken.generate()
                return (token, SecureToken.hash(token))
            })
        if let (user, mails) = reissued {
            for mail in mails {
                await deps.mailer.sendVerification(
                    to: user.email, token: mail.token, tenant: tenant.tenantID, registeredAt: mail.registeredAt,
                    otherPending: mails.count - 1)
            }
        }
        return APIResponse(AcceptedResponse(), status: .accepted)
    }

    /// The most pending registrations of one address a resend mails again (the newest).
    static let resentRegistrations = 5

    /// The shared step of forgot-password and resend-verification: reads the email and reserves
    /// the attempt per address (before the body is read) and per account. The same work for
    /// unknown addresses (no account enumeration).
    /// - Returns: The tenant and the email's uniqueness key.
    private func emailRequest(
        _ request: Request, context: EduGoRequestContext, scope: String,
        limits: (perAddress: RateLimits.Rule, perAccount: RateLimits.Rule)
    ) async throws -> (TenantStore, String) {
        let tenant = try await deps.authenticator.namedTenant(context)
        // The address is counted before the body is read (an address out of budget costs no
        // parsing), the account once the body names it.
        try await deps.rateLimiter.consume(.address(scope, tenant: tenant.tenantID, context.clientAddress), limits.perAddress)
        let body = try await RequestBody.decode(
            ForgotPasswordRequest.self, from: request, allowedKeys: ForgotPasswordRequest.keys, limit: deps.authBodyLimit)
        if let error = UserValidation.email(body.email) { throw APIError.validation([error]) }
        let emailKey = UserRecord.emailKey(body.email)
        try await deps.rateLimiter.consume(.account(scope, tenant: tenant.tenantID, emailKey: emailKey), limits.perAccount)
        return (tenant, emailKey)
    }

    @Sendable func login(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<TokenPairResponse> {
        let tenant = try await deps.authenticator.namedTenant(context)
        let limits = deps.configuration.rateLimits
        // Every attempt counts against the address before its body is read: an address out of
        // budget costs no parsing, and a body that is refused still counts.
        try await deps.rateLimiter.consume(
            .address("login-attempt", tenant: tenant.tenantID, context.clientAddress), limits.loginAttemptsPerAddress)
        let body = try await RequestBody.decode(
            LoginRequest.self, from: request, allowedKeys: LoginRequest.keys, limit: deps.authBodyLimit)
        // Validated before any key is built: a key never grows with what a client sends.
        if let error = UserValidation.email(body.email) { throw APIError.validation([error]) }
        let emailKey = UserRecord.emailKey(body.email)
        let accountKey = RateLimitKey.account("login", tenant: tenant.tenantID, emailKey: emailKey)
        let addressKey = RateLimitKey.address("login", tenant: tenant.tenantID, context.clientAddress)
        // Reserve the attempt against the account's keys and the address's failures before the
        // bcrypt, in one step: concurrent attempts cannot all pass a check before any of them is
        // counted. The failure keys are given back on a successful sign-in; the attempt keys
        // never are, since a correct password costs the same bcrypt as a wrong one.
        let reservation = try await deps.rateLimiter.reserve([
            (addressKey, limits.loginPerAddress),
            (accountKey, limits.loginPerAccount),
            (.account("login-attempt", tenant: tenant.tenantID, emailKey: emailKey), limits.loginAttemptsPerAccount),
        ])

        let user = try await tenant.user(emailKey: emailKey)
        let passwordMatches: Bool
        do {
            if let user {
                passwordMatches = try await deps.passwords.verify(body.password, hash: user.passwordHash)
            } else {
                try await deps.passwords.verifyAgainstDummy(body.password)
                passwordMatches = false
            }
        } catch {
            // No password was checked (the server is busy): not a failure of this account.
            await deps.rateLimiter.release(reservation, only: [addressKey, accountKey])
            throw error
        }
        guard let user, passwordMatches else {
            throw APIError.invalidCredentials
        }
        // An unverified account keeps its reservation: it counts as a failure, so one
        // self-registered address cannot buy unlimited bcrypt work.
        guard user.emailVerified else {
            throw APIError(
                .forbidden, code: "email_not_verified", detail: "Verify your email address before signing in.")
        }
        await deps.rateLimiter.release(reservation, only: [addressKey, accountKey], clearing: [accountKey])
        // The session is inserted only if `user.passwordHash` is still the account's (a reset
        // may have committed during the bcrypt above).
        let pair = try await SessionIssuer(deps: deps).startSession(for: user, in: tenant)
        return APIResponse(pair)
    }

    @Sendable func refresh(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<TokenPairResponse> {
        let tenant = try await deps.authenticator.namedTenant(context)
        try await deps.rateLimiter.consume(
            .address("refresh", tenant: tenant.tenantID, context.clientAddress),
            deps.configuration.rateLimits.refreshPerAddress)
        let body = try await RequestBody.decode(
            RefreshRequest.self, from: request, allowedKeys: RefreshRequest.keys, limit: deps.authBodyLimit)
        let pair = try await SessionIssuer(deps: deps).rotate(refreshToken: body.refreshToken, in: tenant)
        return APIResponse(pair)
    }

    @Sendable func logout(_ request: Request, context: EduGoRequestContext) async throws -> HTTPResponse.Status {
        let identity = try context.requireIdentity()
        try await identity.store.revokeSession(identity.sessionID, reason: "logout", now: deps.now)
        return .noContent
    }

    @Sendable func forgotPassword(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<AcceptedResponse> {
        let limits = deps.configuration.rateLimits
        let (tenant, emailKey) = try await emailRequest(
            request, context: context, scope: "forgot",
            limits: (limits.forgotPasswordPerAddress, limits.forgotPasswordPerAccount))
        // The token is stored in the transaction that finds the account.
        let token = SecureToken.generate()
        let now = deps.now
        let user = try await tenant.issueEmailToken(
            emailKey: emailKey, kind: .resetPassword, tokenHash: SecureToken.hash(token), now: now,
            expiresAt: now.addingTimeInterval(deps.configuration.tokens.resetLifetime.timeInterval),
            policy: deps.configuration.sessionPolicy, eligible: { _ in true })
        if let user {
            await deps.mailer.sendPasswordReset(to: user.email, token: token, tenant: tenant.tenantID)
        }
        return APIResponse(AcceptedResponse(), status: .accepted)
    }

    @Sendable func resetPassword(_ request: Request, context: EduGoRequestContext) async throws -> HTTPResponse.Status {
        let tenant = try await deps.authenticator.namedTenant(context)
        let body = try await RequestBody.decode(
            ResetPasswordRequest.self, from: request, allowedKeys: ResetPasswordRequest.keys, limit: deps.authBodyLimit)
        if let error = UserValidation.password(body.password) { throw APIError.validation([error]) }
        let tokenHash = SecureToken.hash(body.token)
        let now = deps.now
        guard try await tenant.isEmailTokenUsable(tokenHash, kind: .resetPassword, now: now) else {
            throw APIError.invalidEmailToken
        }
        let newHash = try await deps.passwords.hash(body.password)
        // The token is checked again in the transaction that spends it: two resets racing with
        // one token cannot both pass.
        try await tenant.resetPassword(tokenHash: tokenHash, newPasswordHash: newHash, now: now)
        return .noContent
    }

    @Sendable func verifyEmail(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<UserResponse> {
        let tenant = try await deps.authenticator.namedTenant(context)
        guard let token = request.uri.queryParameters["token"].map(String.init), !token.isEmpty else {
            throw APIError.validation(field: "token", code: "required", message: "query parameter is required")
        }
        let tokenHash = SecureToken.hash(token)
        let now = deps.now
        let user = try await tenant.verifyEmail(tokenHash: tokenHash, now: now)
        return APIResponse(UserResponse(user))
    }

    @Sendable func me(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<UserResponse> {
        let identity = try context.requireIdentity()
        return APIResponse(UserResponse(identity.user))
    }
}

extension APIError {
    static let invalidEmailToken = APIError(
        .badRequest, code: "invalid_token", detail: "The token is unknown, already used or expired.")
}
