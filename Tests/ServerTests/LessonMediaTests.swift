import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import EduGoServer

/// `PUT/GET/HEAD/DELETE /v1/courses/{id}/lessons/{lessonId}/media`.
@Suite(.timeLimit(.minutes(3)))
struct LessonMediaTests {
    // MARK: - Upload and download

    @Test("a 64 MiB file uploaded by the teacher downloads byte for byte, with its headers")
    func largeRoundTrip() async throws {
        try await withMediaServer { client, directory in
            // Given a lesson of the teacher's course and a 64 MiB file
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
            let file = MediaFixture.pdf(64 << 20)
            let sha256 = MediaFixture.sha256(file)

            // When the teacher uploads it
            let uploaded = try await client.uploadMedia(file, course: course.id, lesson: lesson.id, as: teacher)

            // Then the lesson moved one version and names the media
            #expect(uploaded.status == .ok, "\(uploaded.text)")
            #expect(uploaded.headers[.eTag] == "\"\(lesson.version + 1)\"")
            let body = try uploaded.decode(LessonWithMediaBody.self)
            #expect(body.version == lesson.version + 1)
            #expect(body.media?.contentType == "application/pdf")
            #expect(body.media?.sizeBytes == file.count)
            #expect(body.media?.sha256 == sha256)
            expectNoInternalMembers(uploaded)
            #expect(!uploaded.text.contains("media_file"))
            // and exactly one file holds it, nothing left in the staging area
            #expect(mediaFiles(in: directory) == ["demo/\(lesson.id).\(sha256)"])

            // When an enrolled student downloads it
            let student = try await client.caller(.demoStudent)
            let downloaded = try await client.downloadMedia(course: course.id, lesson: lesson.id, as: student)

            // Then every byte is the uploaded one, with the download headers
            #expect(downloaded.status == .ok)
            #expect(downloaded.body.readableBytes == file.count)
            #expect(MediaFixture.sha256(downloaded.bytes) == sha256)  // not `==` on 64 MiB: a failure would diff them for hours
            #expect(downloaded.headers[.contentType] == "application/pdf")
            #expect(downloaded.headers[.contentLength] == String(file.count))
            #expect(downloaded.headers[.eTag] == "\"\(sha256)\"")
            #expect(downloaded.headers[.acceptRanges] == "bytes")
            #expect(downloaded.headers[.cacheControl] == "private")
            // and the lesson as the student reads it carries the media too
            let read = try await client.get("/v1/courses/\(course.id)/lessons/\(lesson.id)", as: student)
            #expect(try read.decode(LessonWithMediaBody.self).media?.sha256 == sha256)
        }
    }

    @Test("files of exactly the signature's 8 bytes, 9 bytes and 64 KiB + 1 are hashed over every byte sent")
    func signatureEdges() async throws {
        // The receiver hashes each chunk through its readable bytes (issue #46, item 4).
        try await withMediaServer { client, _ in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
            for (index, size) in [8, 9, 64 * 1024 + 1].enumerated() {
                let file = MediaFixture.pdf(size, seed: UInt64(size))
                let uploaded = try await client.uploadMedia(file, course: course.id, lesson: lesson.id, as: teacher, ifMatch: lesson.version + index)
                #expect(uploaded.status == .ok, "\(size) bytes: \(uploaded.text)")
                let media = try uploaded.decode(LessonWithMediaBody.self).media
                #expect(media?.sizeBytes == size)
                #expect(media?.sha256 == MediaFixture.sha256(file))
            }
        }
    }

    @Test("an upload without If-Match answers 428, a stale one 412; the lesson and the disk stay unchanged")
    func versionPreconditions() async throws {
        try await withMediaServer { client, directory in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
            let file = MediaFixture.pdf(4096)

            let missing = try await client.uploadMedia(file, course: course.id, lesson: lesson.id, as: teacher, ifMatch: nil)
            let stale = try await client.uploadMedia(
                file, course: course.id, lesson: lesson.id, as: teacher, ifMatch: lesson.version + 5)

            try expectProblem(missing, .preconditionRequired, "precondition_required")
            try expectConflict(stale, .preconditionFailed, current: LessonWithMediaBody.self)
            let after = try #require(try await client.lessons(of: course.id, as: teacher).first { $0.id == lesson.id })
            #expect(after.version == lesson.version)
            #expect(mediaFiles(in: directory) == [])
        }
    }

    @Test("a file whose signature is not its declared type answers 415 and leaves nothing behind")
    func signatureMismatch() async throws {
        try await withMediaServer { client, directory in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            // A PDF declared as PNG, a PNG declared as MP4, and a type lesson media may not be
            let pdfAsPNG = try await client.uploadMedia(
                MediaFixture.pdf(200_000), course: course.id, lesson: lesson.id, as: teacher, contentType: "image/png")
            let pngAsMP4 = try await client.uploadMedia(
                MediaFixture.png(), course: course.id, lesson: lesson.id, as: teacher, contentType: "video/mp4")
            let text = try await client.uploadMedia(
                Array("hello".utf8), course: course.id, lesson: lesson.id, as: teacher, contentType: "text/plain")

            try expectProblem(pdfAsPNG, .unsupportedMediaType, "media_type_mismatch")
            try expectProblem(pngAsMP4, .unsupportedMediaType, "media_type_mismatch")
            try expectProblem(text, .unsupportedMediaType, "unsupported_media_type")
            #expect(mediaFiles(in: directory) == [])
            // while the PNG declared as PNG is taken
            let png = try await client.uploadMedia(
                MediaFixture.png(), course: course.id, lesson: lesson.id, as: teacher, contentType: "image/png")
            #expect(png.status == .ok, "\(png.text)")
        }
    }

    @Test("an upload beyond --max-media-size answers 413 and leaves nothing behind; the JSON body limit does not apply")
    func tooLarge() async throws {
        try await withMediaServer(maxMediaSize: 3 << 20) { client, directory in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)

            // 2 MiB is above the 1 MiB JSON limit but within the media limit
            let within = try await client.uploadMedia(MediaFixture.pdf(2 << 20), course: course.id, lesson: lesson.id, as: teacher)
            #expect(within.status == .ok, "\(within.text)")
            let files = mediaFiles(in: directory)

            let beyond = try await client.uploadMedia(
                MediaFixture.pdf((3 << 20) + 1), course: course.id, lesson: lesson.id, as: teacher, ifMatch: lesson.version + 1)

            try expectProblem(beyond, .contentTooLarge, "payload_too_large")
            #expect(mediaFiles(in: directory) == files)
        }
    }

    // MARK: - Replace and delete

    @Test("a replaced file is removed: one file per lesson, the download is the new one")
    func replaceLeavesNoOrphan() async throws {
        try await withMediaServer { client, directory in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
            let first = MediaFixture.pdf(10_000, seed: 1)
            let second = MediaFixture.pdf(20_000, seed: 2)

            try await client.expectUpload(first, course: course.id, lesson: lesson.id, as: teacher, ifMatch: lesson.version)
            let replaced = try await client.expectUpload(
                second, course: course.id, lesson: lesson.id, as: teacher, ifMatch: lesson.version + 1)

            #expect(replaced.version == lesson.version + 2)
            #expect(mediaFiles(in: directory) == ["demo/\(lesson.id).\(MediaFixture.sha256(second))"])
            let downloaded = try await client.downloadMedia(course: course.id, lesson: lesson.id, as: teacher)
            #expect(downloaded.bytes == second)
        }
    }

    @Test("DELETE removes the file and the lesson's media; the next download answers 404")
    func deleteRemovesFile() async throws {
        try await withMediaServer { client, directory in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.course(titled: SeededCourse.swift, as: teacher)
            let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
            try await client.expectUpload(MediaFixture.pdf(5000), course: course.id, lesson: lesson.id, as: teacher)

            let deleted = try await client.delete(client.mediaPath(course.id, lesson.id), as: teacher)

            #expect(deleted.status == .ok, "\(deleted.text)")
            let body = try deleted.decode(LessonWithMediaBody.self)
            #expect(body.media == nil)
            #expect(body.version == lesson.version + 2)
            #expect(!deleted.text.contains("\"media\""))
            #expect(mediaFiles(in: directory) == [])
            try expectProblem(
                try await client.downloadMedia(course: course.id, lesson: lesson.id, as: teacher), .notFound, "not_found")
            try expectProblem(try await client.delete(client.mediaPath(course.id, lesson.id), as: teacher), .notFound, "not_found")
        }
    }

    @Test("deleting a lesson or its course removes their media files")
    func lessonAndCourseDeletionRemoveFiles() async throws {
        try await withMediaServer { client, directory in
            let teacher = try await client.caller(.demoTeacher)
            let course = try await client.createCourse(as: teacher)
            let kept = try await client.createLesson(in: course.id, as: teacher, title: "A")
            let dropped = try await client.createLesson(in: course.id, as: teacher, title: "B")
            try await client.expectUpload(MediaFixture.pdf(3000, seed: 3), course: course.id, lesson: kept.id, as: teacher)
            try await client.expectUpload(MediaFixture.pdf(3000, seed: 4), course: course.id, lesson: dropped.id, as: teacher)

            #expect(try await client.delete("/v1/courses/\(course.id)/lessons/\(dropped.id)", as: teacher).status == .noContent)
            #expect(mediaFiles(in: directory).count == 1)
            #expect(try await client.delete("/v1/courses/\(course.id)", as: teacher).status == .noContent)
            #expect(mediaFiles(in: directory) == [])
        }
    }

    // MARK: - Ranges and validators

    @Test("single ranges answer 206 with Content-Range: first bytes, middle, open-ended and suffix")
    func ranges() async throws {
        try await withMediaServer { client, _ in
            let (teacher, course, lesson, file) = try await uploaded(client, size: 4096)
            func fetch(_ range: String) async throws -> TestResponse {
                try await client.downloadMedia(course: course, lesson: lesson, as: teacher, headers: [.range: range])
            }

            let first = try await fetch("bytes=0-99")
            let middle = try await fetch("bytes=1000-1999")
            let open = try await fetch("bytes=4000-")
            let suffix = try await fetch("bytes=-500")
            let pastEnd = try await fetch("bytes=4000-99999")

            #expect(first.status == .partialContent)
            #expect(first.headers[.contentRange] == "bytes 0-99/4096")
            #expect(first.headers[.contentLength] == "100")
            #expect(first.bytes == Array(file[0...99]))
            #expect(middle.headers[.contentRange] == "bytes 1000-1999/4096")
            #expect(middle.bytes == Array(file[1000...1999]))
            #expect(open.headers[.contentRange] == "bytes 4000-4095/4096")
            #expect(open.bytes == Array(file[4000...]))
            #expect(suffix.status == .partialContent)
            #expect(suffix.headers[.contentRange] == "bytes 3596-4095/4096")
            #expect(suffix.bytes == Array(file[3596...]))
            #expect(pastEnd.headers[.contentRange] == "bytes 4000-4095/4096")
        }
    }

    @Test("a range past the end answers 416 with Content-Range: bytes */size")
    func unsatisfiableRange() async throws {
        try await withMediaServer { client, _ in
            let (teacher, course, lesson, _) = try await uploaded(client, size: 4096)

            let response = try await client.downloadMedia(
                course: course, lesson: lesson, as: teacher, headers: [.range: "bytes=4096-"])

            try expectProblem(response, .rangeNotSatisfiable, "range_not_satisfiable")
            #expect(response.headers[.contentRange] == "bytes */4096")
        }
    }

    @Test("If-Range with the current ETag answers the range; a stale one answers the whole file")
    func ifRange() async throws {
        try await withMediaServer { client, _ in
            let (teacher, course, lesson, file) = try await uploaded(client, size: 4096)
            let tag = "\"\(MediaFixture.sha256(file))\""

            let current = try await client.downloadMedia(
                course: course, lesson: lesson, as: teacher, headers: [.range: "bytes=100-199", .ifRange: tag])
            let stale = try await client.downloadMedia(
                course: course, lesson: lesson, as: teacher,
                headers: [.range: "bytes=100-199", .ifRange: "\"\(MediaFixture.sha256([1, 2, 3]))\""])

            #expect(current.status == .partialContent)
            #expect(current.bytes == Array(file[100...199]))
            #expect(stale.status == .ok)
            #expect(stale.headers[.contentRange] == nil)
            #expect(stale.bytes == file)
        }
    }

    @Test("If-None-Match with the ETag answers 304 without a body; HEAD answers the headers only")
    func notModifiedAndHead() async throws {
        try await withMediaServer { client, _ in
            let (teacher, course, lesson, file) = try await uploaded(client, size: 4096)
            let tag = "\"\(MediaFixture.sha256(file))\""

            let notModified = try await client.downloadMedia(
                course: course, lesson: lesson, as: teacher, headers: [.ifNoneMatch: tag])
            let head = try await client.downloadMedia(course: course, lesson: lesson, as: teacher, method: .head)

            #expect(notModified.status == .notModified)
            #expect(notModified.headers[.eTag] == tag)
            #expect(notModified.body.readableBytes == 0)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == "4096")
            #expect(head.headers[.eTag] == tag)
            #expect(head.headers[.acceptRanges] == "bytes")
            #expect(head.body.readableBytes == 0)
        }
    }

    // MARK: - Access

    @Test("a learner downloads only an enrolled, published course's media; other tenants see 404")
    func accessRules() async throws {
        try await withMediaServer { client, _ in
            let teacher = try await client.caller(.demoTeacher)
            let student = try await client.caller(.demoStudent)
            let admin = try await client.caller(.demoAdmin)
            let acmeAdmin = try await client.caller(.acmeAdmin)
            // A published course nobody is enrolled in, and the teacher's draft
            let historia = try await client.course(titled: SeededCourse.historia, as: teacher)
            let draft = try await client.course(titled: SeededCourse.draft, as: teacher)
            let open = try #require(try await client.lessons(of: historia.id, as: teacher).first)
            let hidden = try #require(try await client.lessons(of: draft.id, as: teacher).first)
            let file = MediaFixture.pdf(2048)
            try await client.expectUpload(file, course: historia.id, lesson: open.id, as: teacher, ifMatch: open.version)
            try await client.expectUpload(file, course: draft.id, lesson: hidden.id, as: teacher, ifMatch: hidden.version)

            // Not enrolled: 403; enrolled: 200
            try expectProblem(
                try await client.downloadMedia(course: historia.id, lesson: open.id, as: student), .forbidden, "not_enrolled")
            #expect(try await client.enroll(in: historia.id, as: student).status.code < 300)
            #expect(try await client.downloadMedia(course: historia.id, lesson: open.id, as: student).bytes == file)
            // Unpublished: 404 for the student, 200 for the admin
            try expectProblem(
                try await client.downloadMedia(course: draft.id, lesson: hidden.id, as: student), .notFound, "not_found")
            #expect(try await client.downloadMedia(course: draft.id, lesson: hidden.id, as: admin).status == .ok)
            // Another tenant, even its admin: 404 for reading, uploading and deleting
            try expectProblem(
                try await client.downloadMedia(course: historia.id, lesson: open.id, as: acmeAdmin), .notFound, "not_found")
            try expectProblem(
                try await client.uploadMedia(file, course: historia.id, lesson: open.id, as: acmeAdmin, ifMatch: open.version + 1),
                .notFound, "not_found")
            try expectProblem(
                try await client.delete(client.mediaPath(historia.id, open.id), as: acmeAdmin), .notFound, "not_found")
        }
    }

    @Test("only the course's teacher or an admin uploads; another teacher and a student get 403")
    func uploadAccess() async throws {
        try await withMediaServer { client, directory in
            let owner = try await client.caller(.demoTeacher)
            let other = try await client.caller(SeededAccount.demoTeacher2)
            let student = try await client.caller(.demoStudent)
            let admin = try await client.caller(.demoAdmin)
            let course = try await client.course(titled: SeededCourse.swift, as: owner)
            let lesson = try #require(try await client.lessons(of: course.id, as: owner).first)
            let file = MediaFixture.pdf(2048)

            try expectProblem(
                try await client.uploadMedia(file, course: course.id, lesson: lesson.id, as: other, ifMatch: lesson.version),
                .forbidden, "forbidden")
            try expectProblem(
                try await client.uploadMedia(file, course: course.id, lesson: lesson.id, as: student, ifMatch: lesson.version),
                .forbidden, "forbidden")
            #expect(mediaFiles(in: directory) == [])
            try await client.expectUpload(file, course: course.id, lesson: lesson.id, as: admin, ifMatch: lesson.version)
        }
    }

    /// The teacher, course id, lesson id and contents of a freshly uploaded file of `size` bytes.
    private func uploaded(
        _ client: any TestClientProtocol, size: Int
    ) async throws -> (Caller, String, String, [UInt8]) {
        let teacher = try await client.caller(.demoTeacher)
        let course = try await client.course(titled: SeededCourse.swift, as: teacher)
        let lesson = try #require(try await client.lessons(of: course.id, as: teacher).first)
        let file = MediaFixture.pdf(size)
        try await client.expectUpload(file, course: course.id, lesson: lesson.id, as: teacher, ifMatch: lesson.version)
        return (teacher, course.id, lesson.id, file)
    }
}
