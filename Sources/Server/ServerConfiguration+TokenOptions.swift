extension ServerConfiguration {
    /// The claims and lifetimes of the tokens the server issues.
    public struct TokenOptions: Sendable {
        /// `iss` claim of access tokens.
        public var issuer = "edugo-server"
        /// `aud` claim of access tokens.
        public var audience = "edugo-app"
        /// Lifetime of an access token.
        public var accessLifetime: Duration = .seconds(900)
        /// Lifetime of a refresh token (each rotation starts a new one).
        public var refreshLifetime: Duration = .seconds(30 * 24 * 3600)
        /// A rotated refresh token presented again within this window returns a fresh pair
        /// (a lost response) instead of revoking the session family.
        public var refreshReuseGraceWindow: Duration = .seconds(10)
        /// Lifetime of an email verification token.
        public var verificationLifetime: Duration = .seconds(24 * 3600)
        /// Lifetime of a password reset token.
        public var resetLifetime: Duration = .seconds(30 * 60)

        /// The defaults, with an access token lifetime of `accessLifetime`.
        public init(accessLifetime: Duration = .seconds(900)) {
            self.accessLifetime = accessLifetime
        }
    }
}
