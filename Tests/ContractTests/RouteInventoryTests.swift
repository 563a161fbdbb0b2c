import Foundation
import Hummingbird
import Logging
import Testing

@testable import EduGoServer

/// The routes the server installs against the operations openapi.yaml declares, both ways.
@Suite(.timeLimit(.minutes(3))) struct RouteInventoryTests {
    /// `METHOD /path` of every route `buildRoutes` installs for `configuration` (before the 405
    /// responders), as the router spells its paths.
    static func servedRoutes(_ configuration: ServerConfiguration) async throws -> Set<String> {
        let deps = try await makeDependencies(configuration, logger: Logger(label: "test"))
        let routes = buildRoutes(deps).routes
        await deps.tenants.close()
        return Set(routes.map { "\($0.method.rawValue) \($0.path.description)" })
    }

    /// `METHOD /path` of each operation, its path as the router spells it (`/__dev/` is `/__dev`).
    static func routed(_ operations: [SpecDocument.Operation]) -> Set<String> {
        Set(operations.map { "\($0.method) \(RouterPath($0.path).description)" })
    }

    /// Fails listing the routes served but not specified, and those specified but not served.
    static func expectSame(
        served: Set<String>, specified: Set<String>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let undocumented = served.subtracting(specified).sorted()
        let unserved = specified.subtracting(served).sorted()
        #expect(
            undocumented.isEmpty, "served but not in openapi.yaml: \(undocumented.joined(separator: ", "))",
            sourceLocation: sourceLocation)
        #expect(
            unserved.isEmpty, "in openapi.yaml but not served: \(unserved.joined(separator: ", "))",
            sourceLocation: sourceLocation)
    }

    @Test("in dev mode the server serves exactly the operations of openapi.yaml")
    func devModeServesTheSpec() async throws {
        let specified = Self.routed(try SpecDocument.load().operations)

        let served = try await Self.servedRoutes(LiveContractServer.configuration())

        Self.expectSame(served: served, specified: specified)
    }

    @Test("outside dev mode (metrics on with a token) the server serves the operations of openapi.yaml except the x-dev-only ones")
    func productionModeOmitsDevOperations() async throws {
        let specified = Self.routed(try SpecDocument.load().operations.filter { !$0.isDevOnly })
        var configuration = LiveContractServer.configuration()
        configuration.devMode = false
        configuration.passwordHashCost = ServerConfiguration.minimumPasswordHashCostOutsideDevMode
        // Outside dev mode `/metrics` exists only with a token.
        configuration.metricsEnabled = true
        configuration.metricsToken = "inventory"

        let served = try await Self.servedRoutes(configuration)

        Self.expectSame(served: served, specified: specified)
    }
}
