import Foundation
import Testing

/// `listChanges`.
@Suite(.timeLimit(.minutes(3))) struct SyncChangesContractTests {
    /// Pulls every page from `cursor` and returns the changes with the last cursor.
    static func pullAll(
        _ caller: SignedInClient, from cursor: String? = nil
    ) async throws -> (changes: [Components.Schemas.SyncChange], cursor: String) {
        var changes: [Components.Schemas.SyncChange] = []
        var cursor = cursor
        for _ in 0..<100 {
            let page = try await caller.client.listChanges(query: .init(cursor: cursor, limit: 50)).ok.body.json
            changes += page.changes
            cursor = page.cursor
            if !page.hasMore { return (changes, page.cursor) }
        }
        throw ContractFailure.feedNeverEnded
    }

    enum ContractFailure: Error { case feedNeverEnded }

    @Test("listChanges without a cursor answers a base sync of every kind the caller sees, never cached")
    func baseSync() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let first = try await student.client.listChanges(query: .init(limit: 50)).ok
            let (changes, _) = try await Self.pullAll(student)

            #expect(first.headers.cacheControl == .noStore)
            var kinds: Set<String> = []
            for change in changes {
                switch change {
                case .course(let course): kinds.insert("course"); #expect(course.op == .upsert && course.data?.published == true)
                case .lesson(let lesson): kinds.insert("lesson"); #expect(lesson.data?.courseId == lesson.courseId)
                case .enrollment: kinds.insert("enrollment")
                case .progress(let progress): kinds.insert("progress"); #expect(progress.data?.lessonId == progress.id)
                case .profile(let profile): kinds.insert("profile"); #expect(profile.data?.email == "student1@demo.edugo.dev")
                }
            }
            #expect(kinds == ["course", "lesson", "enrollment", "progress", "profile"])
        }
    }

    @Test("listChanges after a cursor answers a deleted course as a tombstone without data")
    func deltaWithTombstone() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let student = try await api.signIn(.demoOtherStudent)
            let course = try await teacher.createCourse(title: "Contract feed course")
            let (_, cursor) = try await Self.pullAll(student)

            _ = try await teacher.client.deleteCourse(path: .init(id: course.id)).noContent
            let (changes, _) = try await Self.pullAll(student, from: cursor)

            let tombstone = changes.compactMap { change -> Components.Schemas.CourseChange? in
                if case .course(let value) = change, value.id == course.id { return value }
                return nil
            }
            #expect(tombstone.count == 1)
            #expect(tombstone.first?.op == .delete)
            #expect(tombstone.first?.data == nil)
        }
    }

    @Test("listChanges with a cursor it did not mint answers 400 invalid_cursor")
    func refusesForeignCursor() async throws {
        try await ContractHarness.with { api in
            let student = try await api.signIn(.demoStudent)

            let output = try await student.client.listChanges(query: .init(cursor: "bm90LWEtY3Vyc29y"))

            expectProblem(try output.badRequest.body.applicationProblemJson, status: 400, code: "invalid_cursor")
        }
    }
}
