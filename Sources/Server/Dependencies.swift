import EduGoServerStore
import Foundation
import Logging

/// Everything route handlers share, built once by `buildApplication(_:)`.
struct Dependencies: Sendable {
    let configuration: ServerConfiguration
    let tenants: TenantRegistry
    /// What `/health` reports of the registry database.
    let health: HealthProbe
    let tokens: TokenService
    let authenticator: Authenticator
    let passwords: PasswordHasher
    let rateLimiter: RateLimiter
    let mailer: Mailer
    let mailbox: DevMailbox?
    let idempotency: IdempotencyCoordinator
    /// Where lesson media files live.
    let media: MediaDirectory
    /// Seals the change feed's cursors and opens the ones clients send back.
    let cursors: CursorSeal
    /// The open live event streams, told of every commit.
    var changeHub = ChangeHub()
    let logger: Logger

    // MARK: Dev tools: nil outside dev mode
    /// Per-tenant fault rules.
    var faults: FaultInjector? = nil
    /// The movable clock every time-based part reads (through `configuration.now`).
    var clock: MovableClock? = nil
    /// Saved tenant snapshots.
    var snapshots: TenantSnapshots? = nil
    /// Each tenant's last requests, with their callers and the faults that fired.
    var journal: RequestJournal? = nil

    // MARK: Observability
    /// The last 500 access-log entries.
    var accessLog = AccessLogBuffer(capacity: 500)
    /// This application's metrics; `nil` when `/metrics` is not served.
    var metrics: ServerMetrics? = nil

    // MARK: Dev console

    /// When the dependencies were built (the server's start), on the monotonic clock.
    var startedAt = ContinuousClock.now

    var now: Date { configuration.now() }
    var bodyLimit: Int { configuration.maxBodySize }
    /// The body limit of the unauthenticated auth endpoints: a login or a registration is a few
    /// hundred bytes, so 8 KiB (or the general limit, if lower) leaves room and nothing more.
    var authBodyLimit: Int { min(8 << 10, configuration.maxBodySize) }
}
