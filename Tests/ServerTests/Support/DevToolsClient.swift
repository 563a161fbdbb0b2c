import Foundation
import Hummingbird
import HummingbirdTesting

@testable import EduGoServer

// Helpers for the fault-rule and clock suites.

struct FaultRuleBody: Decodable, Equatable {
    var id: String
    var method: String?
    var path: String
    var action: String
    var times: Int?
    var probability: Double
    var seed: UInt64?
    var status: Int
    var retryAfter: Int?
    var delayMs: Int
    var fired: Int
    var active: Bool
}

struct FaultRuleList: Decodable {
    var items: [FaultRuleBody]
}

struct ClockBody: Decodable {
    var now: String
    var offsetSeconds: Int
}

extension TestClientProtocol {
    /// `POST /__dev/faults` for `tenant`; throws unless it answered 201.
    @discardableResult
    func injectFault(_ members: [String: Any], tenant: String = "demo") async throws -> FaultRuleBody {
        let response = try await send(.post, "/__dev/faults", tenant: tenant, json: ResourceJSON.body(members))
        guard response.status == .created else {
            throw HelperFailure(description: "POST /__dev/faults answered \(response.status): \(response.text)")
        }
        return try response.decode(FaultRuleBody.self)
    }

    func faultRules(tenant: String = "demo") async throws -> [FaultRuleBody] {
        try await send(.get, "/__dev/faults", tenant: tenant).decode(FaultRuleList.self).items
    }

    func moveClock(by seconds: Int) async throws -> ClockBody {
        try await send(.post, "/__dev/clock", json: ResourceJSON.body(["advance_seconds": seconds])).decode(ClockBody.self)
    }
}
