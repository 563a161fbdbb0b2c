import Foundation

/// Sliding-window limits applied to the abuse-prone auth endpoints.
public struct RateLimits: Sendable, Equatable {
    /// A number of events allowed within a window.
    public struct Rule: Sendable, Equatable {
        /// Events allowed within `window`.
        public var limit: Int
        /// The sliding window.
        public var window: Duration

        /// Creates a rule.
        public init(limit: Int, window: Duration) {
            self.limit = limit
            self.window = window
        }
    }

    /// Failed logins per tenant + client address.
    public var loginPerAddress: Rule
    /// Failed logins per tenant + account.
    public var loginPerAccount: Rule
    /// Refresh attempts per tenant + client address.
    public var refreshPerAddress: Rule
    /// Forgot-password requests per tenant + client address.
    public var forgotPasswordPerAddress: Rule
    /// Forgot-password requests per tenant + email.
    public var forgotPasswordPerAccount: Rule

    // MARK: Hardening: limits with defaults outside the initializer

    /// Registrations per tenant + client address.
    public var registerPerAddress = Rule(limit: 10, window: .seconds(3600))
    /// Resend-verification requests per tenant + client address.
    public var resendVerificationPerAddress = Rule(limit: 10, window: .seconds(900))
    /// Resend-verification requests per tenant + email.
    public var resendVerificationPerAccount = Rule(limit: 3, window: .seconds(900))
    /// Dev tenants created (`POST /__dev/tenants`) per client address.
    public var devTenantsPerAddress = Rule(limit: 120, window: .seconds(60))
    /// Login attempts per tenant + account, whatever their outcome (each costs a bcrypt; a
    /// successful one is not given back).
    public var loginAttemptsPerAccount = Rule(limit: 30, window: .seconds(900))
    /// Login attempts per tenant + client address, whatever their outcome.
    public var loginAttemptsPerAddress = Rule(limit: 100, window: .seconds(900))

    /// Creates a set of limits.
    public init(
        loginPerAddress: Rule, loginPerAccount: Rule, refreshPerAddress: Rule,
        forgotPasswordPerAddress: Rule, forgotPasswordPerAccount: Rule
    ) {
        self.loginPerAddress = loginPerAddress
        self.loginPerAccount = loginPerAccount
        self.refreshPerAddress = refreshPerAddress
        self.forgotPasswordPerAddress = forgotPasswordPerAddress
        self.forgotPasswordPerAccount = forgotPasswordPerAccount
    }

    /// Every limit multiplied by `factor` (at least 1): for load tests and fuzzers that hammer
    /// the auth endpoints from one address.
    public func scaled(by factor: Int) -> RateLimits {
        let factor = max(1, factor)
        func scale(_ rule: Rule) -> Rule {
            let (limit, overflow) = rule.limit.multipliedReportingOverflow(by: factor)
            return Rule(limit: overflow ? Int.max : limit, window: rule.window)
        }
        var scaled = RateLimits(
            loginPerAddress: scale(loginPerAddress), loginPerAccount: scale(loginPerAccount),
            refreshPerAddress: scale(refreshPerAddress), forgotPasswordPerAddress: scale(forgotPasswordPerAddress),
            forgotPasswordPerAccount: scale(forgotPasswordPerAccount))
        scaled.registerPerAddress = scale(registerPerAddress)
        scaled.resendVerificationPerAddress = scale(resendVerificationPerAddress)
        scaled.resendVerificationPerAccount = scale(resendVerificationPerAccount)
        scaled.devTenantsPerAddress = scale(devTenantsPerAddress)
        scaled.loginAttemptsPerAccount = scale(loginAttemptsPerAccount)
        scaled.loginAttemptsPerAddress = scale(loginAttemptsPerAddress)
        return scaled
    }

    /// Production-like limits: 5 failed logins per account and 20 per address in 15 minutes
    /// (30 and 100 attempts of any outcome),
    /// 60 refreshes a minute per address, 10 forgot-password (and resend-verification) requests
    /// per address and 3 per email in 15 minutes, 10 registrations per address an hour.
    public static let standard = RateLimits(
        loginPerAddress: Rule(limit: 20, window: .seconds(900)),
        loginPerAccount: Rule(limit: 5, window: .seconds(900)),
        refreshPerAddress: Rule(limit: 60, window: .seconds(60)),
        forgotPasswordPerAddress: Rule(limit: 10, window: .seconds(900)),
        forgotPasswordPerAccount: Rule(limit: 3, window: .seconds(900))
    )
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled + attoseconds / 1_000_000_000
    }

    /// The duration as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = self.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
