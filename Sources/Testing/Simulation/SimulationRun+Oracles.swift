import EduGoSDK
import Foundation

/// What a device holds of everything its user may see, in a form two devices compare by.
struct DeviceView: Equatable {
    var courses: [String]
    var lessons: [String]
    var enrolled: [String]
    var progress: [String]
    var profile: String

    init(_ session: OfflineSession) async throws {
        let list = try await session.courses.list().value.sorted { $0.id < $1.id }
        courses = list.map { "\($0.id) \($0.title) published \($0.published) v\($0.version)" }
        var lessons: [String] = []
        for course in list {
            lessons += try await session.courses.lessons(courseID: course.id).value.map { "\(course.id)/\($0.id) v\($0.version)" }
        }
        self.lessons = lessons
        enrolled = try await session.enrollment.enrolledCourseIDs().value.sorted()
        var progress: [String] = []
        for course in enrolled {
            progress += try await session.progress.lessons(courseID: course).value
                .map { "\(course)/\($0.lessonId) \($0.watchedSeconds) s completed \($0.completed) v\($0.version)" }
        }
        self.progress = progress.sorted()
        profile = try await session.profile.me().map { "\($0.value.firstName) \($0.value.lastName) v\($0.value.version)" } ?? "none"
    }

    /// The lines of `other` that differ from this view's, for the report.
    func differences(from other: DeviceView) -> [String] {
        func diff(_ name: String, _ mine: [String], _ theirs: [String]) -> [String] {
            let missing = Set(theirs).subtracting(mine).sorted().map { "\(name) lacks \($0)" }
            let extra = Set(mine).subtracting(theirs).sorted().map { "\(name) has \($0)" }
            return missing + extra
        }
        return diff("courses", courses, other.courses) + diff("lessons", lessons, other.lessons)
            + diff("enrollments", enrolled, other.enrolled) + diff("progress", progress, other.progress)
            + (profile == other.profile ? [] : ["profile \(profile) instead of \(other.profile)"])
    }
}

/// The checks at the end: with the faults gone and every device drained and pulled, each device
/// equals a fresh device of its user (convergence), every write is on the server or shown as
/// refused (nothing lost), and no student holds a draft (visibility).
extension SimulationRun {
    mutating func checkQuiescence() async throws {
        let step = options.steps
        try await server.removeFaults(tenantID: classroom.tenantID)
        note(step, "quiescence: faults removed, every device drains and pulls")
        for number in devices.indices { await signInAgainIfSignedOut(number, step: step) }
        // Slow answers went with the faults: each app reopens its store on a client that waits 30 s
        // (with the run's 500 ms, a loaded machine could leave a last pull timed out).
        for (number, device) in devices.enumerated() {
            let client = makeClient(number, timeout: .seconds(30))
            guard let session = try await client.resumeSession() else {
                violation(step, "device \(number) reopened without its session, and its status never said signed out")
                continue
            }
            devices[number] = SimDevice(client: client, session: session, email: device.email, endingsAtSignIn: device.endingsAtSignIn)
        }
        for number in devices.indices {
            var drained = false
            for _ in 0..<30 where !drained {
                await syncSignedIn(number, step: step)
                drained = try await devices[number].session.engine.outbox.pending().isEmpty
            }
            if !drained {
                violation(step, "device \(number) never drained: \(devices[number].session.engine.status.error.map { "\($0)" } ?? "no error")")
            }
        }
        for number in devices.indices { await syncSignedIn(number, step: step) }
        await checkServerLog(step: step)

        let drafts = Set(try await classroom.courses().filter { !$0.published }.map(\.id))
        for email in Set(devices.map(\.email)).sorted() {
            let fresh = try await freshView(of: email)
            if !Set(fresh.courses.map { String($0.prefix { $0 != " " }) }).isDisjoint(with: drafts) {
                violation(step, "a fresh device of \(email) holds a draft course")
            }
            var refused: Set<String> = []
            for (number, device) in devices.enumerated() where device.email == email {
                let view = try await DeviceView(device.session)
                if !Set(view.courses.map { String($0.prefix { $0 != " " }) }).isDisjoint(with: drafts) {
                    violation(step, "device \(number) (\(email)) holds a draft course")
                }
                if view != fresh {
                    let error = device.session.engine.status.error.map { " (its sync's error: \($0))" } ?? ""
                    violation(step, "device \(number) (\(email)) differs from a fresh device\(error): \(view.differences(from: fresh).joined(separator: "; "))"
                        + "; its outbox: \(try await outboxSummary(device.session))")
                }
                refused.formUnion(try await refusedKeys(device.session))
            }
            checkNothingLost(email: email, server: fresh, refused: refused, step: step)
            if let names = namesWritten[email], !names.isEmpty, !names.contains(where: { fresh.profile.hasPrefix("\($0) ") }) {
                violation(step, "\(email)'s first name on the server (\(fresh.profile)) is none of those written: \(names.sorted())")
            }
        }
    }

    /// `syncNow()` on device `number`; when that finds the session ended (a restore took its
    /// refresh token's rotation back, or a password reset ended it), the device signs in again and syncs once more, as its
    /// user would.
    mutating func syncSignedIn(_ number: Int, step: Int) async {
        var report = await devices[number].session.engine.syncNow()
        if devices[number].session.engine.status.error == .signedOut {
            await signInAgainIfSignedOut(number, step: step, timeout: .seconds(30))
            report = await devices[number].session.engine.syncNow()
        }
        note(step, "device \(number) syncs: \(Self.describe(report))")
    }

    /// A sync's report as the log shows it.
    static func describe(_ report: SyncReport) -> String {
        "sent \(report.sent), pulled \(report.pulled)\(report.pullError.map { ", pull failed: \($0)" } ?? "")"
    }

    /// A new device of `email`: signed in on an empty store, synced once.
    func freshView(of email: String) async throws -> DeviceView {
        let client = makeClient(0, directory: "fresh-\(UUID().uuidString.lowercased())", timeout: .seconds(30))
        let session = try await client.signIn(email: email, password: SimulationClassroom.password)
        await session.engine.syncNow()
        return try await DeviceView(session)
    }

    /// What waits in a device's outbox, for a report: each pending write, dead letter and parked
    /// conflict by its resource.
    func outboxSummary(_ session: OfflineSession) async throws -> String {
        let outbox = await session.engine.outbox
        let pending = try await outbox.pending().map { "\($0.resource)" }
        let dead = try await outbox.deadLetters().map { "\($0.resource)" }
        let parked = try await outbox.conflicts().map { "\($0.resource)" }
        return "pending \(pending), dead letters \(dead), conflicts \(parked)"
    }

    /// The `course/lesson` keys of progress writes this device shows as refused (dead letters) or
    /// parked (conflicts): those may be missing from the server (their user sees why).
    func refusedKeys(_ session: OfflineSession) async throws -> Set<String> {
        let dead = try await session.engine.outbox.deadLetters().map(\.resource)
        let parked = try await session.engine.outbox.conflicts().map(\.resource)
        return Set((dead + parked).filter { $0.type == .progress }.map { $0.ids.joined(separator: "/") })
    }

    /// Every progress write of `email` since the last restore is on the server (a watch time at
    /// least as large, a completion kept), unless one of the user's devices shows it refused, or
    /// the course or the lesson is no longer the learner's to see (deleted, unpublished).
    mutating func checkNothingLost(email: String, server: DeviceView, refused: Set<String>, step: Int) {
        for (key, written) in progressWritten[email] ?? [:] where !refused.contains(key) {
            let course = String(key.prefix { $0 != "/" })
            guard server.enrolled.contains(course), server.courses.contains(where: { $0.hasPrefix("\(course) ") }),
                server.lessons.contains(where: { $0.hasPrefix("\(key) ") })
            else { continue }
            let held = server.progress.first { $0.hasPrefix("\(key) ") }
            let watched = held.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
            if watched < written.watched || (written.completed && held?.contains("completed true") != true) {
                violation(step, "\(email) wrote \(written.watched) s\(written.completed ? " and a completion" : "") on \(key); the server holds \(held ?? "nothing")")
            }
        }
    }
}
