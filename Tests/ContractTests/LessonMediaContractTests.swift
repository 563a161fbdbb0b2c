import Foundation
import OpenAPIRuntime
import Testing

/// `uploadLessonMedia`, `downloadLessonMedia`, `deleteLessonMedia`, decoded by the generated client.
@Suite(.timeLimit(.minutes(3))) struct LessonMediaContractTests {
    /// A 4 KiB PDF-signed file.
    static let file = Array("%PDF-1.7\n".utf8) + (0..<4087).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test("an upload answers 200 with the lesson's media; downloads answer 200, 206, 304 and 416 as specified")
    func uploadAndDownload() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)
            let client = teacher.client
            let path = Operations.DownloadLessonMedia.Input.Path(id: course.id, lessonId: lesson.id)

            let uploaded = try await client.uploadLessonMedia(
                path: .init(id: course.id, lessonId: lesson.id), headers: .init(ifMatch: "\"\(lesson.version)\""),
                body: .pdf(HTTPBody(Self.file))
            ).ok
            let media = try #require(try uploaded.body.json.media)
            #expect(media.contentType == .applicationPdf)
            #expect(media.sizeBytes == Int64(Self.file.count))
            #expect(uploaded.headers.eTag == "\"\(lesson.version + 1)\"")

            let whole = try await client.downloadLessonMedia(path: path).ok
            #expect(try await [UInt8](collecting: whole.body.pdf, upTo: 1 << 20) == Self.file)
            #expect(whole.headers.eTag == "\"\(media.sha256)\"")
            #expect(whole.headers.contentLength == "\(Self.file.count)")

            let part = try await client.downloadLessonMedia(path: path, headers: .init(range: "bytes=-96")).partialContent
            #expect(try await [UInt8](collecting: part.body.pdf, upTo: 1 << 20) == Array(Self.file.suffix(96)))
            #expect(part.headers.contentRange == "bytes 4000-4095/4096")

            let notModified = try await client.downloadLessonMedia(
                path: path, headers: .init(ifNoneMatch: "\"\(media.sha256)\"")
            ).notModified
            #expect(notModified.headers.eTag == "\"\(media.sha256)\"")

            let unsatisfiable = try await client.downloadLessonMedia(path: path, headers: .init(range: "bytes=4096-"))
                .rangeNotSatisfiable
            #expect(unsatisfiable.headers.contentRange == "bytes */4096")
            expectProblem(try unsatisfiable.body.applicationProblemJson, status: 416, code: "range_not_satisfiable")
        }
    }

    @Test("a stale If-Match answers 412 with the lesson, a mismatched signature 415; delete answers the lesson without media")
    func refusalsAndDelete() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)
            let course = try await teacher.createCourse()
            let lesson = try await teacher.createLesson(in: course.id)
            let client = teacher.client
            let uploadPath = Operations.UploadLessonMedia.Input.Path(id: course.id, lessonId: lesson.id)

            let stale = try await client.uploadLessonMedia(
                path: uploadPath, headers: .init(ifMatch: "\"99\""), body: .pdf(HTTPBody(Self.file)))
            let conflict = try stale.preconditionFailed.body.applicationProblemJson
            expectVersionConflict(conflict, status: 412, currentVersion: lesson.version)
            #expect(conflict.current.value3 == lesson)
            let mismatch = try await client.uploadLessonMedia(
                path: uploadPath, headers: .init(ifMatch: "\"\(lesson.version)\""), body: .png(HTTPBody(Self.file)))
            expectProblem(
                try mismatch.unsupportedMediaType.body.applicationProblemJson, status: 415, code: "media_type_mismatch")

            let uploaded = try await client.uploadLessonMedia(
                path: uploadPath, headers: .init(ifMatch: "\"\(lesson.version)\""), body: .pdf(HTTPBody(Self.file))
            ).ok.body.json
            let deleted = try await client.deleteLessonMedia(path: .init(id: course.id, lessonId: lesson.id)).ok.body.json
            #expect(deleted.media == nil)
            #expect(deleted.version == uploaded.version + 1)
            let gone = try await client.downloadLessonMedia(path: .init(id: course.id, lessonId: lesson.id))
            expectProblem(try gone.notFound.body.applicationProblemJson, status: 404, code: "not_found")
        }
    }
}
