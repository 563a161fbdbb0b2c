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

    var now: Date { configuration.now() }
    var bodyLimit: Int { configuration.maxBodySize }
}
