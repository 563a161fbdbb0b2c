import Foundation
import OpenAPIRuntime

/// One pass through every operation of the spec with the generated client, each answered with
/// its success status and decoded: a fresh dev tenant, a newcomer's sign-up and password reset,
/// user administration, a teacher's course and lesson, a learner's enrollment and progress, and
/// the clean-up.
struct ContractTour {
    let api: ContractHarness

    func run() async throws {
        let anonymous = api.anonymous
        _ = try await anonymous.getHealth().ok.body.json
        _ = try await anonymous.getJwks().ok.body.json
        _ = try await String(collecting: anonymous.getOpenApiDocument().ok.body.yaml, upTo: 4 << 20)
        _ = try await String(collecting: anonymous.getMetrics().ok.body.plainText, upTo: 4 << 20)

        // A tenant of our own, and a newcomer who signs up, verifies, and resets the password.
        let tenant = try await api.freshTenant()
        let tid = tenant.tenantId
        func account(_ role: Components.Schemas.Role) throws -> TestAccount {
            let seeded = try tenant.accounts.first { $0.role == role }.orThrow(TourError.missingAccount(role.rawValue))
            return TestAccount(tenant: tid, email: seeded.email, password: seeded.password)
        }
        var newcomer = TestAccount(tenant: tid, email: uniqueEmail("tour"), password: "Tour-Password-1")
        _ = try await anonymous.register(
            headers: .init(xTenantID: tid),
            body: .json(.init(email: newcomer.email, password: newcomer.password, firstName: "Tour", lastName: "Guide"))
        ).accepted.body.json
        _ = try await anonymous.resendVerification(headers: .init(xTenantID: tid), body: .json(.init(email: newcomer.email)))
            .accepted.body.json
        let verification = try await mail(.verifyEmail, to: newcomer.email, tenant: tid)
        _ = try await anonymous.verifyEmail(query: .init(token: verification), headers: .init(xTenantID: tid)).ok.body.json
        _ = try await anonymous.forgotPassword(headers: .init(xTenantID: tid), body: .json(.init(email: newcomer.email)))
            .accepted.body.json
        let reset = try await mail(.resetPassword, to: newcomer.email, tenant: tid)
        _ = try await anonymous.resetPassword(
            headers: .init(xTenantID: tid), body: .json(.init(token: reset, password: "Tour-Password-2"))
        ).noContent
        newcomer.password = "Tour-Password-2"

        let learner = try await api.signIn(newcomer)
        let refreshed = try await anonymous.refreshTokens(
            headers: .init(xTenantID: tid), body: .json(.init(refreshToken: learner.tokens.refreshToken))
        ).ok.body.json
        let student = api.client(token: refreshed.accessToken)
        let learnerID = try await student.getMe().ok.body.json.id
        let profile = try await student.getMyProfile().ok.body.json
        _ = try await student.updateMyProfile(body: .json(.init(firstName: "Touring", version: profile.version))).ok.body.json

        // User administration.
        let admin = try await api.signIn(try account(.admin)).client
        _ = try await admin.listUsers(query: .init(role: .student)).ok.body.json
        _ = try await admin.searchUsers(query: .init(q: "tour")).ok.body.json
        let user = try await admin.createUser(
            body: .json(.init(email: uniqueEmail("staff"), password: "Staff-Password-1", firstName: "S", lastName: "T", role: .student))
        ).created.body.json
        let fetched = try await admin.getUser(path: .init(id: user.id)).ok.body.json
        _ = try await admin.updateUser(
            path: .init(id: user.id), body: .json(.init(lastName: "Updated", version: fetched.version))
        ).ok.body.json
        _ = try await admin.deleteUser(path: .init(id: user.id)).noContent

        // A teacher's course and lesson.
        let teacher = try await api.signIn(try account(.teacher)).client
        let course = try await teacher.createCourse(
            body: .json(.init(title: "Tour course", category: .science, published: true))
        ).created.body.json
        _ = try await teacher.listCourses().ok.body.json
        _ = try await teacher.searchCourses(query: .init(q: "tour course")).ok.body.json
        let current = try await teacher.getCourse(path: .init(id: course.id)).ok.body.json
        _ = try await teacher.updateCourse(
            path: .init(id: course.id), body: .json(.init(description: "Updated.", version: current.version))
        ).ok.body.json
        let lesson = try await teacher.createLesson(path: .init(id: course.id), body: .json(.init(title: "Tour lesson")))
            .created.body.json
        _ = try await teacher.listLessons(path: .init(id: course.id)).ok.body.json
        let lessonPath = Operations.GetLesson.Input.Path(id: course.id, lessonId: lesson.id)
        _ = try await teacher.getLesson(path: lessonPath).ok.body.json
        _ = try await teacher.updateLesson(
            path: .init(id: course.id, lessonId: lesson.id), body: .json(.init(content: "More.", version: lesson.version))
        ).ok.body.json

        // The learner enrolls, makes progress, and leaves.
        _ = try await student.enroll(path: .init(id: course.id)).created.body.json
        _ = try await student.putProgress(
            path: .init(id: course.id), body: .json(.init(lessonId: lesson.id, completed: true))
        ).ok.body.json
        _ = try await student.getProgress(path: .init(id: course.id)).ok.body.json
        _ = try await student.listMyCourses().ok.body.json
        _ = try await student.listChanges(query: .init(limit: 1000)).ok.body.json

        // The lesson's media: uploaded by the teacher, downloaded by the enrolled learner, removed.
        let mediaPath = Operations.UploadLessonMedia.Input.Path(id: course.id, lessonId: lesson.id)
        let file = Array("%PDF-1.7\n".utf8) + [UInt8](repeating: 0x20, count: 1000)
        let withMedia = try await teacher.uploadLessonMedia(
            path: mediaPath, headers: .init(ifMatch: "\"\(lesson.version + 1)\""), body: .pdf(HTTPBody(file))
        ).ok.body.json
        let downloaded = try await [UInt8](
            collecting: student.downloadLessonMedia(path: .init(id: course.id, lessonId: lesson.id)).ok.body.pdf,
            upTo: 1 << 20)
        guard downloaded == file else { throw ContractTourFailure(description: "the downloaded media differs") }
        _ = try await teacher.deleteLessonMedia(
            path: .init(id: course.id, lessonId: lesson.id), headers: .init(ifMatch: "\"\(withMedia.version)\"")
        ).ok.body.json
        _ = try await student.unenroll(path: .init(id: course.id)).noContent

        // Clean-up and sign-out.
        _ = try await teacher.deleteLesson(path: .init(id: course.id, lessonId: lesson.id)).noContent
        _ = try await teacher.deleteCourse(path: .init(id: course.id)).noContent
        // The live stream stays open until the session it was opened with is revoked: logging
        // out ends it with an `ended` event, and the whole answer can be read.
        let stream = Task { try await String(collecting: student.streamChangeEvents().ok.body.textEventStream, upTo: 1 << 16) }
        try await Task.sleep(for: .milliseconds(300))
        _ = try await student.logout().noContent
        let events = try await stream.value
        guard events.contains("event: changed"), events.contains("event: ended") else {
            throw ContractTourFailure(description: "the event stream said: \(events)")
        }

        // Dev tools: a fault rule listed and removed, the clock shown, moved and reset (last, as
        // moving the clock would expire the tour's tokens).
        let rule = try await anonymous.devCreateFault(
            headers: .init(xTenantID: tid),
            body: .json(.init(method: .get, path: "/v1/courses/*", action: .status, times: 1, status: 503, retryAfter: 1))
        ).created.body.json
        _ = try await anonymous.devListFaults(headers: .init(xTenantID: tid)).ok.body.json
        _ = try await anonymous.devDeleteFault(path: .init(id: rule.id), headers: .init(xTenantID: tid)).noContent
        _ = try await anonymous.devDeleteFaults(headers: .init(xTenantID: tid)).noContent
        // The dev console: its page, a file, and the JSON its panels read.
        _ = try await String(collecting: anonymous.devConsole().ok.body.html, upTo: 1 << 20)
        _ = try await String(collecting: anonymous.devConsoleAsset(path: .init(name: .console_css)).ok.body.textCss, upTo: 1 << 20)
        _ = try await anonymous.devListTenants().ok.body.json
        _ = try await anonymous.devListTenantUsers(path: .init(id: tid)).ok.body.json
        // Acting as the newcomer needs no session of theirs (the tour signed them out by now).
        let acting = try await anonymous.devImpersonateUser(path: .init(id: tid, userId: learnerID)).ok.body.json
        _ = try await api.client(token: acting.accessToken).getMe().ok.body.json
        // Snapshots: one saved, listed, put back (nothing changed since) and deleted.
        let snapshot = try await anonymous.devSaveSnapshot(path: .init(id: tid)).created.body.json
        _ = try await anonymous.devListSnapshots(path: .init(id: tid)).ok.body.json
        _ = try await anonymous.devRestoreSnapshot(path: .init(id: tid), body: .json(.init(snapshotId: snapshot.id))).ok.body.json
        _ = try await anonymous.devDeleteSnapshot(path: .init(id: tid, snapshot: snapshot.id)).noContent
        _ = try await anonymous.devTailRequests().ok.body.json
        _ = try await anonymous.devListJournal(path: .init(id: tid), query: .init(method: .get, path: "/v1/**")).ok.body.json
        _ = try await anonymous.devClearJournal(path: .init(id: tid)).noContent
        _ = try await anonymous.devListChanges(path: .init(id: tid), query: .init(limit: 10)).ok.body.json
        _ = try await anonymous.devListDevices(path: .init(id: tid)).ok.body.json
        _ = try await anonymous.devExplainFeed(
            path: .init(id: tid), query: .init(user: learnerID, entity: .profile, id: learnerID)).ok.body.json
        _ = try await anonymous.devGetServer().ok.body.json
        _ = try await anonymous.devGetClock().ok.body.json
        _ = try await anonymous.devAdvanceClock(body: .json(.init(advanceSeconds: 60))).ok.body.json
        _ = try await anonymous.devResetClock().ok.body.json
    }

    /// The token of the newest mail of `kind` to `email`.
    private func mail(
        _ kind: Components.Schemas.DevMail.KindPayload, to email: String, tenant: String
    ) async throws -> String {
        let mails = try await api.anonymous.devGetMailbox(query: .init(email: email), headers: .init(xTenantID: tenant))
            .ok.body.json.items
        return try mails.first { $0.kind == kind }.orThrow(TourError.missingMail(kind.rawValue)).token
    }
}

enum TourError: Error {
    case missingAccount(String)
    case missingMail(String)
}

extension Optional {
    /// The wrapped value, or `error` thrown.
    func orThrow<Failure: Error>(_ error: @autoclosure () -> Failure) throws -> Wrapped {
        guard let self else { throw error() }
        return self
    }
}

/// A tour step answered successfully but not with what was sent.
struct ContractTourFailure: Error, CustomStringConvertible {
    var description: String
}
