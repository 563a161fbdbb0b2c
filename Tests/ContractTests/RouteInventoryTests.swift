import Foundation
import Logging
import Testing

@testable import EduGoServer

/// The routes the server installs against the operations openapi.yaml declares, both ways.
@Suite(.timeLimit(.minutes(3))) struct RouteInventoryTests {
    /// `METHOD /path` of every route `buildRouteTable` installs for `configuration`.
    static func servedRoutes(_ configuration: ServerConfiguration) async throws -> Set<String> {
        let deps = try await makeDependencies(configuration, logger: Logger(label: "test"))
        let routes = buildRouteTable(deps).inventory.routes
        await deps.tenants.close()
        return Set(routes.map { "\($0.method) \($0.path)" })
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
        let specified = Set(try SpecDocument.load().operations.map { "\($0.method) \($0.path)" })

        let served = try await Self.servedRoutes(LiveContractServer.configuration())

        Self.expectSame(served: served, specified: specified)
    }

    @Test("outside dev mode (metrics on with a token) the server serves the operations of openapi.yaml except the x-dev-only ones")
    func productionModeOmitsDevOperations() async throws {
        let specified = Set(try SpecDocument.load().operations.filter { !$0.isDevOnly }.map { "\($0.method) \($0.path)" })
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
