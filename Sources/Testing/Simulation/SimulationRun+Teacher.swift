import EduGoSDK
import Foundation

/// The teacher's operations beyond a course's title and publication: lessons renamed, deleted and
/// added, courses deleted and created.
extension SimulationRun {
    /// The teacher renames a lesson of a course (half the time), deletes one, or adds one.
    mutating func editLessons(step: Int) async {
        let course = courseIDs.randomElement(using: &random) ?? ""
        let lessons = (try? await classroom.lessons(of: course)) ?? []
        let choice = Double.random(in: 0..<1, using: &random)
        let lesson = lessons.randomElement(using: &random)
        let status: Int
        let action: String
        if let lesson, choice < 0.5 {
            action = "renames lesson \(lesson.id) of \(course)"
            status = (try? await classroom.teacherSends(.Courses.updateLesson(course, lesson.id), ["title": "Lesson rev \(step)"]).statusCode) ?? 0
        } else if let lesson, choice < 0.7 {
            action = "deletes lesson \(lesson.id) of \(course)"
            status = (try? await classroom.teacherSends(.Courses.deleteLesson(course, lesson.id)).statusCode) ?? 0
        } else {
            action = "adds a lesson to \(course)"
            status = (try? await classroom.teacherSends(.Courses.createLesson(course), ["title": "Lesson of step \(step)"]).statusCode) ?? 0
        }
        note(step, "the teacher \(action): \(status)")
    }

    /// The teacher deletes a course (its lessons, enrollments and progress go with it) and creates
    /// another, published, with two lessons, which later steps may pick.
    mutating func replaceCourse(step: Int) async {
        let course = courseIDs.randomElement(using: &random) ?? ""
        let deleted = (try? await classroom.teacherSends(.Courses.delete(course)).statusCode) ?? 0
        note(step, "the teacher deletes course \(course): \(deleted)")
        do {
            let created = try await classroom.teacherSends(
                .Courses.create, ["title": "Course of step \(step)", "category": "mathematics", "published": true])
            let id = try JSONDecoder().decode(CourseID.self, from: created.body).id
            courseIDs.append(id)
            for number in 1...2 {
                _ = try await classroom.teacherSends(.Courses.createLesson(id), ["title": "Lesson \(number) of step \(step)"])
            }
            note(step, "  and creates course \(id) with two lessons")
        } catch {
            note(step, "  creating a course failed: \(error)")
        }
    }

    /// The id of a course the server answered with.
    private struct CourseID: Decodable {
        var id: String
    }
}
