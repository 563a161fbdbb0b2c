import Foundation
import Logging

/// Everything route handlers share, built once by `buildApplication(_:)`.
struct Dependencies: Sendable {
    let configuration: ServerConfiguration
    let tenants: TenantRegistry
    let tokens: TokenService
    let authenticator: Authenticator
    let passwords: PasswordHasher
    let rateLimiter: RateLimiter
    let mailer: Mailer
    let mailbox: DevMailbox?
    let idempotency: IdempotencyCoordinator
    let logger: Logger

    // MARK: Hardening (issue 13)

    /// The port the server bound, once it listens (the dev-mode Host check compares with it).
    var boundPort = BoundPort()

    var now: Date { configuration.now() }
    var bodyLimit: Int { configuration.maxBodySize }
}
