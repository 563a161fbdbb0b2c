import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The drain keeps its resources on the wire side by side: a slow one holds a place in the window,
/// not the whole drain.
@Suite(.timeLimit(.minutes(1))) struct DrainWindowTests {
    @Test("while one resource's request hangs, the other resources are all sent through the rest of the window")
    func slowResourceHoldsOnlyItsPlace() async throws {
        // Given five resources queued, a window of two, and a server that answers the first one
        // only when told to
        let harness = try await OfflineHarness(parallelResources: 2)
        let lessons = (0..<5).map { "lesson-\($0)" }
        for lesson in lessons {
            try await harness.progress.record(courseID: OfflineHarness.courseID, lessonID: lesson, watchedSeconds: 30)
        }
        let (release, releaseSlow) = AsyncStream.makeStream(of: Void.self)
        harness.routes.on(.put, OfflineHarness.progressPath) { request in
            let lesson = try #require(JSONObject.decode(request.body)?["lesson_id"] as? String)
            if lesson == "lesson-0" {
                for await _ in release { break }
            }
            return .json(200, OfflineFixture.progress(lessonID: lesson, watched: 30, version: 1))
        }

        // When the drain runs
        let drain = Task { await harness.engine.syncNow() }

        // Then the other four are sent while the first still waits for its answer
        let deadline = ContinuousClock.now + .seconds(10)
        while harness.transport.requests(.put, OfflineHarness.progressPath).count < lessons.count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let sentWhileSlowWaits = harness.transport.requests(.put, OfflineHarness.progressPath).count
        releaseSlow.yield()
        let report = await drain.value
        #expect(sentWhileSlowWaits == lessons.count)
        #expect(report.sent == lessons.count)
    }
}
