import Foundation
import Hummingbird

/// `/__dev/clock`: shows, moves forward and resets the server's clock.
struct ClockRoutes: RouteModule {
    let deps: Dependencies
    let clock: MovableClock

    /// The largest single move: ten years.
    static let maxAdvance = 10 * 366 * 24 * 3600

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get("/__dev/clock", use: show)
        routes.post("/__dev/clock", use: advance)
        routes.delete("/__dev/clock", use: reset)
        return routes
    }

    struct ClockState: Encodable {
        var now: Date
        var offsetSeconds: Int
    }

    private var state: ClockState {
        let snapshot = clock.snapshot()
        return ClockState(now: snapshot.now, offsetSeconds: snapshot.offsetSeconds)
    }

    @Sendable func show(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        try JSONResponse.make(state)
    }

    @Sendable func advance(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let (_, object) = try await RequestBody.readObject(from: request, limit: deps.bodyLimit)
        var reader = JSONObjectReader(object, known: ["advance_seconds"])
        let seconds = reader.int("advance_seconds", required: true, range: 0...Self.maxAdvance)
        try reader.throwIfInvalid()
        clock.advance(bySeconds: seconds ?? 0)
        return try JSONResponse.make(state)
    }

    @Sendable func reset(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        clock.reset()
        return try JSONResponse.make(state)
    }
}
