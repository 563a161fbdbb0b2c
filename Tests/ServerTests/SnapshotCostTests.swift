import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// What a snapshot of a 1,000-course tenant costs to save and to restore, through HTTP on a
/// file-backed server (the figures are printed; the bound only catches a cost that grew wildly).
@Suite struct SnapshotCostTests {
    @Test("saving and restoring a 1,000-course tenant takes milliseconds")
    func thousandCourseTenant() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = ServerConfiguration.testing()
            configuration.storage = .directory(directory)
            try await withServer(configuration) { client in
                let teacher = try await client.caller(.demoTeacher)
                let admin = try await client.caller(.demoAdmin)
                let existing = try await client.coursePage(as: admin).total
                for number in 1...(1_000 - existing) {
                    _ = try await client.createCourse(as: teacher, title: "Curso de carga \(number)")
                }
                #expect(try await client.coursePage(as: admin).total == 1_000)

                let clock = ContinuousClock()
                var saves: [Duration] = []
                var restores: [Duration] = []
                var snapshots: [SnapshotBody] = []
                for _ in 0..<5 {
                    var snapshot: SnapshotBody?
                    saves.append(try await clock.measure { snapshot = try await client.saveSnapshot() })
                    snapshots.append(try #require(snapshot))
                }
                for snapshot in snapshots {
                    var status: HTTPResponse.Status?
                    restores.append(try await clock.measure { status = try await client.restore(snapshot.id).status })
                    #expect(status == .ok)
                }
                #expect(try await client.coursePage(as: admin).total == 1_000)
                let size = try #require(snapshots.first).sizeBytes
                print("snapshot of a 1,000-course tenant (\(size) bytes): save median \(median(saves)), restore median \(median(restores)); saves \(saves), restores \(restores)")
                #expect(median(restores) < .seconds(1))
                #expect(median(saves) < .seconds(1))
            }
        }
    }

    private func median(_ values: [Duration]) -> Duration {
        values.sorted()[values.count / 2]
    }
}
