import EduGoServerStore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the EduGo server application: storage, keys, seed data, routes and middleware.
///
/// The one place that wires everything; tests call it with an in-memory configuration and drive
/// the result with `app.test(.router)` or `.live`.
///
/// ```swift
/// let app = try await buildApplication(ServerConfiguration(port: 0, storage: .inMemory))
/// try await app.runService()
/// ```
/// - Parameter configuration: What to bind, where to store, which limits and clock to use.
/// - Throws: When the data directory cannot be created or a database cannot be opened.
public func buildApplication(_ configuration: ServerConfiguration) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "edugo-server")
    logger.logLevel = configuration.logLevel

    let deps = try await makeDependencies(configuration, logger: logger)
    let router = buildRouter(deps)
    let maxConnections = DescriptorBudget.connectionCap(
        configured: configuration.connections.maxConnections, limit: DescriptorBudget.processLimit())
    if maxConnections < configuration.connections.maxConnections {
        logger.notice(
            "connections capped by the descriptor limit (ulimit -n)",
            metadata: ["max_connections": .stringConvertible(maxConnections)])
    }
    var app = Application(
        router: router,
        server: try serverBuilder(configuration),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: nil,
            availableConnectionsDelegate: .maximum(maxConnections, logger: logger)),
        onServerRunning: { channel in
            await configuration.onServerRunning?(channel.localAddress?.port ?? configuration.port)
        },
        logger: logger)
    app.addServices(
        DatabaseCloser(tenants: deps.tenants, media: deps.media),
        ChangeHubTicker(hub: deps.changeHub, heartbeat: configuration.events.heartbeat, now: deps.configuration.now))
    return app
}

/// Plain HTTP/1.1, or HTTPS (HTTP/2 by ALPN with HTTP/1.1 alongside) when the configuration has a TLS identity.
///
/// Every connection whose outbound side makes no progress for the idle timeout while it has
/// something to write is closed (``WriteProgressDeadline``), and an HTTP/1.1 connection stops
/// reading while four whole requests wait for their answers (``PipelinedReadLimit``). Over TLS
/// the handshake must complete within the idle timeout, and an HTTP/2 connection is closed one
/// grace period after the server's first GOAWAY (idle timeout, ``ServerConfiguration/ConnectionOptions/maxAge``
/// or shutdown) whatever the client does (see ``TLSConnectionDeadlines``).
func serverBuilder(_ configuration: ServerConfiguration) throws -> HTTPServerBuilder {
    let idleTimeout = configuration.connections.idleTimeout.map { TimeAmount.nanoseconds($0.nanoseconds) }
    let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [PipelinedReadLimit()], idleTimeout: idleTimeout)
    let writeTimeout = configuration.connections.idleTimeout
    guard let tls = configuration.tls else {
        return HTTPServerBuilder { responder in
            WriteProgressChannel(base: HTTP1Channel(responder: responder, configuration: http1), timeout: writeTimeout)
        }
    }
    let tlsConfiguration = tls.serverConfiguration()
    let grace = configuration.connections.http2GracefulCloseTimeout
    let limits = TLSConnectionDeadlines.Limits(handshake: configuration.connections.idleTimeout, http2Grace: grace)
    guard configuration.connections.offersHTTP2 else {
        return HTTPServerBuilder { responder in
            WriteProgressChannel(
                base: TLSDeadlineChannel(
                    base: try TLSChannel(HTTP1Channel(responder: responder, configuration: http1), tlsConfiguration: tlsConfiguration),
                    limits: limits),
                timeout: writeTimeout)
        }
    }
    var http2 = HTTP2ChannelConfiguration(
        idleTimeout: configuration.connections.idleTimeout, gracefulCloseTimeout: grace, streamConfiguration: http1)
    // Set apart: HTTP2ChannelConfiguration's initializer does not store its maxAgeTimeout argument.
    http2.maxAgeTimeout = configuration.connections.maxAge
    return HTTPServerBuilder { [http2] responder in
        WriteProgressChannel(
            base: TLSDeadlineChannel(
                base: try HTTP2UpgradeChannel(tlsConfiguration: tlsConfiguration, configuration: http2, responder: responder),
                limits: limits),
            timeout: writeTimeout)
    }
}

/// Opens storage (seeding the demo tenants that do not exist yet), loads the signing key and builds the shared services.
func makeDependencies(_ configuration: ServerConfiguration, logger: Logger) async throws -> Dependencies {
    try StartupChecks.validate(configuration)
    // Dev tools: in dev mode every time-based part reads the movable clock.
    var configuration = configuration
    // Every part reads the clock at the store's precision, so the times a write answers with
    // are the times every later read of the same row answers with.
    let wallClock = configuration.now
    configuration.now = { wallClock().storedPrecision }
    let clock = configuration.devMode ? MovableClock(base: configuration.now) : nil
    if let clock { configuration.now = clock.now }
    let metrics = configuration.servesMetrics ? ServerMetrics() : nil
    let faults = configuration.devMode ? FaultInjector(onFire: { metrics?.recordFault($0.action) }) : nil

    let transactionObserver: (@Sendable (Duration) -> Void)? = metrics.map { metrics in
        { @Sendable duration in metrics.recordTransaction(duration) }
    }
    let signingKey = try SigningKey.loadOrCreate(storage: configuration.storage)
    let changeHub = ChangeHub(
        limits: .init(perUser: configuration.events.maxStreamsPerUser, total: configuration.events.maxStreams), metrics: metrics)
    // Made in every mode (the routes only in dev mode): a tenant deleted at start takes the
    // snapshots a dev-mode run saved of it.
    let snapshots = TenantSnapshots(
        storage: configuration.storage, limit: configuration.maxSnapshotsPerTenant, now: configuration.now)
    let tenants = try TenantRegistry(
        storage: configuration.storage,
        maxOpenTenants: DescriptorBudget.openTenantCap(
            configured: configuration.maxOpenTenants, limit: DescriptorBudget.processLimit()),
        pageCacheCapacity: configuration.pageCacheCapacity, now: configuration.now,
        transactionObserver: transactionObserver, changeHub: changeHub, snapshots: snapshots)
    let passwords = PasswordHasher(
        cost: configuration.passwordHashCost, maxConcurrent: configuration.maxConcurrentPasswordHashes,
        maxWaiting: configuration.maxWaitingPasswordHashes)
    try await StartupChecks.handleDemoTenants(configuration, tenants: tenants, passwords: passwords, logger: logger)
    try await seedTenants(configuration, into: tenants, passwords: passwords, logger: logger)
    let tokens = await TokenService(signingKey: signingKey, configuration: configuration)
    let mailbox = configuration.devMode ? DevMailbox() : nil
    var deps = Dependencies(
        configuration: configuration,
        tenants: tenants,
        health: HealthProbe { await tenants.isReachable() },
        tokens: tokens,
        authenticator: Authenticator(tokens: tokens, tenants: tenants, acceptsImpersonation: configuration.devMode),
        passwords: passwords,
        rateLimiter: RateLimiter(now: configuration.now),
        mailer: Mailer(mailbox: mailbox, logger: logger, now: configuration.now),
        mailbox: mailbox,
        idempotency: IdempotencyCoordinator(
            retention: configuration.idempotencyRetention, now: configuration.now, metrics: metrics),
        media: try MediaDirectory(dataDirectory: configuration.storage.dataDirectory),
        // Derived from the signing key, which the data directory keeps: cursors outlive a restart.
        cursors: CursorSeal(secret: Data(signingKey.privateKey.pemRepresentation.utf8)),
        logger: logger)
    deps.faults = faults
    deps.clock = clock
    if configuration.devMode {
        deps.snapshots = snapshots
        deps.journal = RequestJournal()
    }
    deps.metrics = metrics
    deps.changeHub = changeHub
    return deps
}

/// Every folder's routes the server serves with `deps` (the dev routes only in dev mode).
func routeModules(_ deps: Dependencies) -> [any RouteModule] {
    var modules: [any RouteModule] = [
        SystemRoutes(deps: deps), AuthRoutes(deps: deps), UserRoutes(deps: deps), CourseRoutes(deps: deps),
        EnrollmentRoutes(deps: deps), LessonRoutes(deps: deps), ProgressRoutes(deps: deps),
        MediaRoutes(deps: deps, directory: deps.media), SyncRoutes(deps: deps),
    ]
    if let mailbox = deps.mailbox {
        modules.append(DevRoutes(deps: deps, mailbox: mailbox))
    }
    if deps.configuration.devMode {
        modules += [
            RequestTailRoutes(deps: deps), ImpersonationRoutes(deps: deps), FeedInspectionRoutes(deps: deps),
            ServerInfoRoutes(deps: deps), ConsoleRoutes(assets: ConsoleAssets.load()),
        ] as [any RouteModule]
    }
    if let faults = deps.faults { modules.append(FaultRoutes(deps: deps, injector: faults)) }
    if let clock = deps.clock { modules.append(ClockRoutes(deps: deps, clock: clock)) }
    if let snapshots = deps.snapshots { modules.append(SnapshotRoutes(deps: deps, snapshots: snapshots)) }
    if let journal = deps.journal { modules.append(JournalRoutes(deps: deps, journal: journal)) }
    if let metrics = deps.metrics {
        modules.append(MetricsRoutes(deps: deps, metrics: metrics, token: deps.configuration.metricsToken))
    }
    return modules
}

/// All routes behind the hygiene middlewares (``HTTPHygiene``), and `405` with `Allow` for
/// each method a served path does not serve (``MethodNotAllowed``).
func buildRouter(_ deps: Dependencies) -> Router<EduGoRequestContext> {
    let router = buildRoutes(deps)
    MethodNotAllowed.answer(on: router)
    return router
}

/// Every route of ``routeModules(_:)`` on the group of its kind: open routes on the router,
/// authenticated ones behind ``AuthenticationMiddleware`` and then ``IdempotencyMiddleware``,
/// streaming ones behind authentication alone. The router answers HEAD for every GET (same
/// headers, no body: RFC 9110).
func buildRoutes(_ deps: Dependencies) -> Router<EduGoRequestContext> {
    let router = Router(context: EduGoRequestContext.self, options: .autoGenerateHeadEndpoints)
    HTTPHygiene(
        maxBodySize: deps.configuration.maxBodySize,
        strictTransportSecurity: deps.configuration.strictTransportSecurity,
        servesTLS: deps.configuration.tls != nil,
        trustForwardedProto: deps.configuration.trustForwardedProto,
        accessLog: deps.accessLog, metrics: deps.metrics, journal: deps.journal,
        journalBodies: deps.configuration.journalBodies,
        now: deps.configuration.now, verifiedTokens: deps.tokens.verified,
        hasOwnBodyLimit: { MediaRoutes.isMediaPath($0) }
    ).install(on: router)
    if !deps.configuration.trustedProxies.isEmpty {
        let proxies = deps.configuration.trustedProxies.compactMap { CIDRBlock($0) }
        router.add(middleware: ClientAddressMiddleware(trustedProxies: proxies))
    }
    if deps.configuration.devMode, let faults = deps.faults {
        router.add(middleware: DevModeMiddleware(
            hostGuard: DevHostGuard(allowedHosts: deps.configuration.allowedHosts, servesTLS: deps.configuration.tls != nil),
            faults: FaultMiddleware(injector: faults, tokens: deps.tokens)))
    }
    let authentication = AuthenticationMiddleware(authenticator: deps.authenticator)
    let streaming = router.group().add(middleware: authentication)
    let authenticated = router.group().add(middleware: authentication)
        .add(middleware: IdempotencyMiddleware(coordinator: deps.idempotency, bodyLimit: deps.bodyLimit))
    for module in routeModules(deps) {
        router.addRoutes(module.open)
        authenticated.addRoutes(module.authenticated)
        streaming.addRoutes(module.streaming)
    }
    return router
}

/// Seeds the demo data (``ServerConfiguration/seedDemoData``) and the seed file
/// (``ServerConfiguration/seedFile``), both validated before either writes anything.
private func seedTenants(
    _ configuration: ServerConfiguration, into tenants: TenantRegistry, passwords: PasswordHasher, logger: Logger
) async throws {
    var descriptions: [SeedDescription] = []
    if configuration.seedDemoData { descriptions.append(try BundledSeeds.demo) }
    if let file = configuration.seedFile {
        do {
            descriptions.append(try SeedDescription.load(contentsOf: file))
        } catch let invalid as SeedValidationError {
            throw StartupError.invalidSeedFile(path: file.path, problems: invalid.lines)
        } catch {
            throw StartupError.invalidSeedFile(path: file.path, problems: ["cannot be read (\(error.localizedDescription))"])
        }
    }
    let seeder = Seeder(passwords: passwords, now: configuration.now())
    for description in descriptions {
        try await seeder.seed(description, into: tenants, logger: logger)
    }
}

/// Closes every tenant database once the server has shut down gracefully.
/// Removes the temporary media directory of in-memory storage too.
struct DatabaseCloser: Service {
    let tenants: TenantRegistry
    let media: MediaDirectory

    func run() async throws {
        try? await gracefulShutdown()
        await tenants.close()
        media.removeIfTemporary()
    }
}
