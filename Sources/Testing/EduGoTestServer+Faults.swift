import EduGoServer
import Foundation
import HTTPTypes

/// Fault rules: what the server does to the tenant's next matching requests.
extension EduGoTestServer {
    /// Adds a fault rule for this server's tenant.
    ///
    /// - Parameters:
    ///   - fault: What happens to a matching request.
    ///   - method: Only requests with this method; any when `nil`.
    ///   - path: A path glob: `*` matches one segment, a final `**` the rest (`/v1/courses/*/progress`).
    ///   - times: Fire for the next `times` matching requests, then retire; until removed when `nil`.
    ///   - probability: Chance that a matching request fires the rule (0…1).
    ///   - seed: Makes the probability draws, random waits and garbage bytes the same in every run.
    ///   - delay: Waited before the fault acts (for ``Fault/delay(_:)`` it is the fault itself; not
    ///     with ``Fault/randomDelay(min:max:)`` or ``Fault/logNormalDelay(median:sigma:)``, which are
    ///     the wait).
    ///   - tenantID: Another tenant of this server (a seeded `demo`); this server's fresh tenant when `nil`.
    /// - Returns: The stored rule.
    /// - Throws: ``EduGoTestServerError/unexpectedStatus(_:_:)`` for a rule the server refuses (a bad glob).
    @discardableResult
    public func inject(
        _ fault: Fault, method: HTTPRequest.Method? = nil, path: String, times: Int? = nil,
        probability: Double = 1, seed: UInt64? = nil, delay: Duration? = nil, tenantID: String? = nil
    ) async throws -> InjectedFault {
        var body: [String: DevRequest.Value] = ["path": .string(path), "probability": .double(probability)]
        body["method"] = method.map { .string($0.rawValue) }
        body["times"] = times.map { .int($0) }
        body["seed"] = seed.map { .int(Int(truncatingIfNeeded: $0)) }
        if let delay { body["delay_ms"] = .int(Self.milliseconds(delay)) }
        switch fault {
        case .delay(let duration):
            body["action"] = .string("delay")
            body["delay_ms"] = .int(Self.milliseconds(duration))
        case .status(let status, let retryAfter):
            body["action"] = .string("status")
            body["status"] = .int(status)
            body["retry_after"] = retryAfter.map { .int($0) }
        case .dropRequest:
            body["action"] = .string("drop_request")
        case .dropResponse:
            body["action"] = .string("drop_response")
        case .randomDelay(let min, let max):
            body["action"] = .string("delay")
            body["min_ms"] = .int(Self.milliseconds(min))
            body["max_ms"] = .int(Self.milliseconds(max))
        case .logNormalDelay(let median, let sigma):
            body["action"] = .string("delay")
            body["median_ms"] = .int(Self.milliseconds(median))
            body["sigma"] = .double(sigma)
        case .slowBody(let chunks, let duration):
            body["action"] = .string("slow_body")
            body["chunks"] = .int(chunks)
            body["duration_ms"] = .int(Self.milliseconds(duration))
        case .truncate(let bytes):
            body["action"] = .string("truncate")
            body["bytes"] = .int(bytes)
        case .garbage(let bytes):
            body["action"] = .string("garbage")
            body["bytes"] = .int(bytes)
        }
        return try await devRequest.send("POST", "/__dev/faults", tenant: tenantID ?? self.tenantID, body: body, expecting: 201)
    }

    /// The tenant's fault rules, with how often each fired.
    ///
    /// - Parameter tenantID: Another tenant of this server; this server's fresh tenant when `nil`.
    public func injectedFaults(tenantID: String? = nil) async throws -> [InjectedFault] {
        let list: FaultList = try await devRequest.send(
            "GET", "/__dev/faults", tenant: tenantID ?? self.tenantID, expecting: 200)
        return list.items
    }

    /// Removes every fault rule of the tenant.
    ///
    /// - Parameter tenantID: Another tenant of this server; this server's fresh tenant when `nil`.
    public func removeFaults(tenantID: String? = nil) async throws {
        try await devRequest.sendWithoutAnswer(
            "DELETE", "/__dev/faults", tenant: tenantID ?? self.tenantID, expecting: 204)
    }

    fileprivate static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
