import Foundation

/// A per-tenant fault rule of the development server (`POST /__dev/faults`).
///
/// A rule matches requests by method and path glob; each match fires with `probability` (drawn
/// from a generator seeded by `seed` when one is given) and `times` limits how often it fires
/// before it retires. A firing rule first waits (a fixed `delay_ms`, or a delay drawn uniformly
/// between `min_ms` and `max_ms`, or log-normally around `median_ms` with `sigma`), then acts.
/// The random delays and garbage bytes come from the same seeded generator, so a run repeats.
struct FaultRule: Sendable, Encodable, Equatable {
    /// What a firing rule does to the request.
    enum Action: String, Sendable, Encodable, CaseIterable {
        /// Waits (fixed or random), then handles the request normally.
        case delay
        /// Answers `status` as problem+json `injected_fault` without running the handler.
        case status
        /// Closes the connection without running the handler.
        case dropRequest = "drop_request"
        /// Runs the handler (a write commits), then closes the connection without answering.
        case dropResponse = "drop_response"
        /// Runs the handler, then sends the body in `chunks` pieces spread over `duration_ms`.
        case slowBody = "slow_body"
        /// Runs the handler, sends the head and the first `bytes` of the body, then closes the
        /// connection (the head still announces the whole length).
        case truncate
        /// Sends `bytes` random bytes instead of an HTTP answer, then closes the connection
        /// (the handler does not run).
        case garbage
    }

    var id: String
    var method: String?
    var path: String
    var action: Action
    var times: Int?
    var probability: Double
    var seed: UInt64?
    var status: Int
    var retryAfter: Int?
    /// The fixed wait before acting (0 when the wait is random).
    var delayMs: Int
    /// A uniform random wait between `minMs` and `maxMs`.
    var minMs: Int? = nil
    var maxMs: Int? = nil
    /// A log-normal random wait: its median and the standard deviation of its logarithm.
    var medianMs: Int? = nil
    var sigma: Double? = nil
    /// `slow_body`: how many pieces, over how long.
    var chunks: Int? = nil
    var durationMs: Int? = nil
    /// `truncate`: body bytes sent before the connection closes; `garbage`: random bytes sent.
    var bytes: Int? = nil
    /// How often the rule has fired.
    var fired: Int = 0
    /// `false` once a rule with `times` has fired that often.
    var active: Bool = true

    static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    static let members: Set<String> = [
        "method", "path", "action", "times", "probability", "seed", "status", "retry_after", "delay_ms",
        "min_ms", "max_ms", "median_ms", "sigma", "chunks", "duration_ms", "bytes",
    ]
    /// The longest wait a rule makes, random draws included.
    static let maximumDelayMs = 60_000
    /// Random bytes a `garbage` rule sends when `bytes` is not given.
    static let defaultGarbageBytes = 64

    var glob: PathGlob? { PathGlob(path) }

    /// Whether the rule applies to a request (before the probability draw).
    func matches(method: String, path: String, glob: PathGlob) -> Bool {
        active && (self.method == nil || self.method == method) && glob.matches(path)
    }

    /// The wait before acting, in milliseconds: `delay_ms`, or a draw from the rule's distribution
    /// (clamped to 0…``maximumDelayMs``).
    func drawDelayMs(using generator: inout some RandomNumberGenerator) -> Int {
        if let minMs, let maxMs {
            return Int.random(in: minMs...maxMs, using: &generator)
        }
        if let medianMs, let sigma {
            // Box–Muller: a standard normal draw from two uniform ones.
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &generator)
            let u2 = Double.random(in: 0..<1, using: &generator)
            let normal = (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
            let value = Double(medianMs) * Foundation.exp(sigma * normal)
            return Int(min(Double(Self.maximumDelayMs), max(0, value.rounded())))
        }
        return delayMs
    }
}

extension FaultRule {
    /// Reads and validates a rule from a request body's members.
    ///
    /// - Throws: `400 validation_failed` naming every bad field (unknown members, a bad glob, an
    ///   unknown action or method, a probability outside 0…1, numbers out of range).
    static func parse(_ object: [String: JSONValue], id: String) throws -> FaultRule {
        var reader = JSONObjectReader(object, known: members)
        let method = reader.oneOf("method", methods)
        let path = reader.string("path", required: true, length: 1...512)
        if let path, PathGlob(path) == nil {
            reader.add(.init(
                field: "path", code: "invalid_format",
                message: "must be an absolute path glob: '*' matches one segment, a final '**' the rest"))
        }
        let action = reader.oneOf("action", required: true, Action.allCases.map(\.rawValue)).flatMap(Action.init)
        let times = reader.int("times", range: 1...1_000_000)
        let probability = readNumber("probability", range: 0...1, object, into: &reader)
        let seed = reader.int("seed", range: 0...Int.max).map { UInt64($0) }
        let status = reader.int("status", range: 400...599)
        let retryAfter = reader.int("retry_after", range: 0...86_400)
        let delayMs = reader.int("delay_ms", range: 0...maximumDelayMs)
        let minMs = reader.int("min_ms", range: 0...maximumDelayMs)
        let maxMs = reader.int("max_ms", range: 0...maximumDelayMs)
        let medianMs = reader.int("median_ms", range: 1...maximumDelayMs)
        let sigma = readNumber("sigma", range: 0...4, object, into: &reader)
        let chunks = reader.int("chunks", range: 1...10_000)
        let durationMs = reader.int("duration_ms", range: 0...maximumDelayMs)
        let bytes = reader.int("bytes", range: (action == .garbage ? 1 : 0)...(action == .garbage ? 65_536 : 1 << 40))
        checkWait(object, minMs: minMs, maxMs: maxMs, action: action, into: &reader)
        checkActionMembers(object, action: action, into: &reader)
        try reader.throwIfInvalid()
        guard let path, let action else { throw APIError.internalError }
        return FaultRule(
            id: id, method: method, path: path, action: action, times: times, probability: probability ?? 1,
            seed: seed, status: status ?? 503, retryAfter: retryAfter, delayMs: delayMs ?? 0,
            minMs: minMs, maxMs: maxMs, medianMs: medianMs, sigma: sigma, chunks: chunks, durationMs: durationMs,
            bytes: action == .garbage ? bytes ?? defaultGarbageBytes : bytes)
    }

    /// One wait at most: `delay_ms`, or `min_ms` with `max_ms`, or `median_ms` with `sigma`, each
    /// pair complete; the `delay` action needs one of them.
    private static func checkWait(
        _ object: [String: JSONValue], minMs: Int?, maxMs: Int?, action: Action?, into reader: inout JSONObjectReader
    ) {
        for (member, partner) in [("min_ms", "max_ms"), ("max_ms", "min_ms"), ("median_ms", "sigma"), ("sigma", "median_ms")]
        where object[member] != nil && object[partner] == nil {
            reader.add(.init(field: partner, code: "required", message: "is required with \(member)"))
        }
        if let minMs, let maxMs, minMs > maxMs {
            reader.add(.init(field: "max_ms", code: "out_of_range", message: "must not be less than min_ms"))
        }
        let forms = [object["delay_ms"] != nil, object["min_ms"] != nil, object["median_ms"] != nil].filter { $0 }.count
        if forms > 1 {
            reader.add(.init(
                field: "delay_ms", code: "invalid_value",
                message: "give one wait: delay_ms, or min_ms and max_ms, or median_ms and sigma"))
        }
        if action == .delay, forms == 0 {
            reader.add(.init(
                field: "delay_ms", code: "required",
                message: "is required for the delay action (or min_ms and max_ms, or median_ms and sigma)"))
        }
    }

    /// `chunks` and `duration_ms` belong to `slow_body` (and are required there), `bytes` to
    /// `truncate` (required) and `garbage`.
    private static func checkActionMembers(_ object: [String: JSONValue], action: Action?, into reader: inout JSONObjectReader) {
        guard let action else { return }
        let owners: [(member: String, actions: [Action], required: Bool)] = [
            ("chunks", [.slowBody], true), ("duration_ms", [.slowBody], true), ("bytes", [.truncate, .garbage], action == .truncate),
        ]
        for owner in owners {
            let present = object[owner.member] != nil
            if present, !owner.actions.contains(action) {
                let names = owner.actions.map(\.rawValue).joined(separator: " and ")
                reader.add(.init(field: owner.member, code: "not_allowed", message: "only applies to the \(names) action"))
            } else if !present, owner.actions.contains(action), owner.required {
                reader.add(.init(field: owner.member, code: "required", message: "is required for the \(action.rawValue) action"))
            }
        }
    }

    private static func readNumber(
        _ key: String, range: ClosedRange<Double>, _ object: [String: JSONValue], into reader: inout JSONObjectReader
    ) -> Double? {
        let value: Double
        switch object[key] {
        case nil: return nil
        case .integer(let integer)?: value = Double(integer)
        case .number(let number)?: value = number
        default:
            reader.add(.init(field: key, code: "invalid_type", message: "must be a number"))
            return nil
        }
        guard range.contains(value) else {
            reader.add(.init(
                field: key, code: "out_of_range", message: "must be between \(Int(range.lowerBound)) and \(Int(range.upperBound))"))
            return nil
        }
        return value
    }
}
