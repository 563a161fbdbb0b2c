import Foundation
import Testing

/// Courses, lessons and enrollments made through the generated client, so that a test owns the
/// data it changes.
extension SignedInClient {
    /// Creates a course as this user (a teacher or admin).
    func createCourse(
        title: String = "Contract course", category: Components.Schemas.Category = .programming,
        published: Bool = true
    ) async throws -> Components.Schemas.Course {
        let output = try await client.createCourse(
            body: .json(.init(title: title, description: "Made by a contract test.", category: category, published: published)))
        return try output.created.body.json
    }

    /// Adds a lesson to a course this user may change.
    func createLesson(in courseID: String, title: String = "Contract lesson") async throws -> Components.Schemas.Lesson {
        let output = try await client.createLesson(
            path: .init(id: courseID), body: .json(.init(title: title, content: "Lesson text.", durationMinutes: 10)))
        return try output.created.body.json
    }

    /// Enrolls this user in a published course.
    @discardableResult
    func enroll(in courseID: String) async throws -> Components.Schemas.Enrollment {
        try await client.enroll(path: .init(id: courseID)).created.body.json
    }

    /// Records first progress on a lesson of a course this user is enrolled in.
    func startProgress(in courseID: String, lessonID: String) async throws -> Components.Schemas.LessonProgress {
        let output = try await client.putProgress(
            path: .init(id: courseID), body: .json(.init(lessonId: lessonID, watchedSeconds: 30)))
        return try output.ok.body.json
    }
}

/// A unique address for accounts a test registers or creates.
func uniqueEmail(_ prefix: String = "contract") -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
}
