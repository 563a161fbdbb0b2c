import EduGoSDK
import Foundation
import HTTPTypes

/// The operations a simulation draws, each with the checks that hold right after it.
extension SimulationRun {
    mutating func perform(_ kind: Kind, step: Int) async {
        let number = Int.random(in: 0..<devices.count, using: &random)
        await signInAgainIfSignedOut(number, step: step)
        let device = devices[number]
        let engine = device.session.engine
        switch kind {
        case .progress:
            await recordProgress(on: number, step: step)
        case .overlap:
            await overlap(on: number, step: step)
        case .signOut:
            await signOutAndIn(number, step: step)
        case .profile:
            let name = "Name \(step)"
            note(step, "device \(number) sets its first name to \(name)")
            do {
                _ = try await device.session.profile.update(firstName: name)
                namesWritten[device.email, default: []].insert(name)
                let shown = try await device.session.profile.me()?.value.firstName
                if shown != name { violation(step, "device \(number) wrote first name \(name) and reads \(shown ?? "nothing")") }
            } catch {
                note(step, "  failed: \(error)")
            }
        case .enroll:
            let enrolled = (try? await device.session.enrollment.enrolledCourseIDs().value) ?? []
            let listed = (try? await device.session.courses.list().value.map(\.id)) ?? []
            guard let course = listed.filter({ !enrolled.contains($0) }).sorted().randomElement(using: &random) else {
                return note(step, "device \(number) has no course to enroll in")
            }
            note(step, "device \(number) enrolls in \(course)")
            do { try await device.session.enrollment.enroll(courseID: course) } catch { note(step, "  failed: \(error)") }
        case .syncNow:
            let report = await engine.syncNow()
            note(step, "device \(number) syncs: \(Self.describe(report))")
        case .syncTogether:
            note(step, "every device syncs at once")
            await withTaskGroup(of: Void.self) { group in
                for device in devices { group.addTask { _ = await device.session.engine.syncNow() } }
            }
        case .pull:
            let course = courseIDs.randomElement(using: &random) ?? ""
            do {
                let reason = try await engine.refresh(.progress(courseID: course))
                note(step, "device \(number) refreshes progress of \(course): \(reason.map { "stale, \($0)" } ?? "fresh")")
            } catch {
                note(step, "device \(number) refreshes progress of \(course): failed, \(error)")
            }
        case .run:
            let milliseconds = Int.random(in: 20...300, using: &random)
            note(step, "device \(number) runs its sync loop for \(milliseconds) ms")
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await engine.run() }
                try? await Task.sleep(for: .milliseconds(milliseconds))
                group.cancelAll()
            }
        case .appKill:
            note(step, "device \(number)'s app is killed and reopened on the same store")
            let client = makeClient(number)
            do {
                if let session = try await client.resumeSession() {
                    devices[number] = SimDevice(client: client, session: session, email: device.email, endingsAtSignIn: device.endingsAtSignIn)
                } else if device.session.engine.status.error == .signedOut {
                    // Signed out, and its sign-in failed (a fault): it reopens signed out, as it should.
                    note(step, "  it reopens signed out")
                } else {
                    violation(step, "device \(number) reopened without its session, and its status never said signed out")
                }
            } catch {
                violation(step, "device \(number) could not reopen its store: \(error)")
            }
        case .teacherEdit:
            let course = courseIDs.randomElement(using: &random) ?? ""
            let title = "Course \(course.prefix(4)) rev \(step)"
            let status = (try? await classroom.teacherSends(.Courses.update(course), ["title": title]).statusCode) ?? 0
            note(step, "the teacher renames \(course) to \(title): \(status)")
        case .publish:
            let course = courseIDs.randomElement(using: &random) ?? ""
            let published = random.chance(0.6)
            let status = (try? await classroom.teacherSends(.Courses.update(course), ["published": published]).statusCode) ?? 0
            note(step, "the teacher sets \(course) published \(published): \(status)")
        case .lessons:
            await editLessons(step: step)
        case .courseDelete:
            await replaceCourse(step: step)
        case .passwordReset:
            await resetPassword(step: step)
        case .roleChange:
            await changeRole(step: step)
        case .faults:
            await armFault(step: step)
        case .clearFaults:
            note(step, "fault rules removed")
            try? await server.removeFaults(tenantID: classroom.tenantID)
        case .restart:
            note(step, "the server stops and starts again")
            await server.stop()
            do {
                try await server.restart()
            } catch {
                violation(step, "the server did not come back: \(error)")
            }
            checkedRequests = 0
        case .snapshot:
            do {
                if let old = snapshot { try? await server.deleteSnapshot(old) }
                snapshot = try await server.snapshot(tenantID: classroom.tenantID)
                note(step, "a snapshot of the tenant is saved")
            } catch {
                note(step, "a snapshot failed: \(error)")
            }
        case .restore:
            guard let snapshot else { return note(step, "no snapshot to restore") }
            var sent: Set<String> = []
            for device in devices {
                let waiting = (try? await device.session.engine.outbox.pending()) ?? []
                sent.formUnion(waiting.filter { $0.attempts > 0 }.map(\.idempotencyKey))
            }
            do {
                try await server.restore(snapshot)
                note(step, "the snapshot is restored")
                restores += 1
                progressWritten = [:]
                keysInDoubt = sent.subtracting(appliedKeys.keys)
                appliedKeys = [:]
            } catch {
                note(step, "the restore failed: \(error)")
            }
        case .clock:
            note(step, "the server's clock moves 16 minutes on (access tokens expire)")
            try? await server.advanceClock(by: .seconds(960))
            if refreshFaultedSinceClockMove {
                spentRefreshTokensAged += 1
                refreshFaultedSinceClockMove = false
            }
        case .custom(let index):
            let operation = options.operations[index]
            note(step, "device \(number): \(operation.name)")
            do {
                try await operation.perform(EduGoSimulation.Device(number: number, session: device.session, email: device.email), &random)
            } catch {
                note(step, "  failed: \(error)")
            }
        }
    }

    /// A learner's progress on a lesson of a course the device knows it is enrolled in, then a
    /// read that must show it (at least the watch time recorded, and that a write is pending).
    /// Returns what it recorded, `nil` when it recorded nothing.
    @discardableResult
    mutating func recordProgress(on number: Int, step: Int) async -> (course: String, lesson: String, watched: Int)? {
        let session = devices[number].session
        guard let course = ((try? await session.enrollment.enrolledCourseIDs().value) ?? []).sorted().randomElement(using: &random),
            let lesson = ((try? await session.courses.lessons(courseID: course).value.map(\.id)) ?? []).sorted().randomElement(using: &random)
        else {
            note(step, "device \(number) knows no lesson of a course it is in")
            return nil
        }
        return await recordProgress(on: number, course: course, lesson: lesson, step: step)
    }

    /// ``recordProgress(on:step:)`` on a given lesson.
    @discardableResult
    mutating func recordProgress(on number: Int, course: String, lesson: String, step: Int) async -> (course: String, lesson: String, watched: Int)? {
        let session = devices[number].session
        let email = devices[number].email
        let watched = Int.random(in: 1...3_600, using: &random)
        let completed: Bool? = random.chance(0.1) ? true : nil
        note(step, "device \(number) records \(watched) s on \(course)/\(lesson)\(completed == true ? ", completed" : "")")
        do {
            _ = try await session.progress.record(courseID: course, lessonID: lesson, watchedSeconds: watched, completed: completed)
        } catch {
            note(step, "  failed: \(error)")
            return nil
        }
        let key = "\(course)/\(lesson)"
        let before = progressWritten[email]?[key]
        progressWritten[email, default: [:]][key] = (max(before?.watched ?? 0, watched), (before?.completed ?? false) || completed == true)
        guard let read = try? await session.progress.lessons(courseID: course) else {
            violation(step, "device \(number) could not read the progress it just recorded")
            return (course, lesson, watched)
        }
        let shown = read.value.first { $0.lessonId == lesson }
        if (shown?.watchedSeconds ?? -1) < watched || (completed == true && shown?.completed != true) {
            violation(step, "device \(number) recorded \(watched) s on \(key) and reads \(shown.map { "\($0.watchedSeconds) s" } ?? "nothing")")
        }
        if !read.hasPendingWrites {
            violation(step, "device \(number) reads its unsent write on \(key) with hasPendingWrites false")
        }
        return (course, lesson, watched)
    }

    /// A fault rule on the tenant for the next few matching requests: an answer lost after the
    /// write committed, a `503`, a request lost before it ran, an answer slower than the devices
    /// wait (``requestTimeout``), so a device gives up on a write the server still applies, an
    /// answer cut short after the write committed, or garbage instead of an answer.
    mutating func armFault(step: Int) async {
        let times = Int.random(in: 1...6, using: &random)
        let seed = random.next()
        let fault: EduGoTestServer.Fault
        let path: String
        switch Int.random(in: 0..<6, using: &random) {
        case 0: (fault, path) = (.dropResponse, "/v1/**")
        case 1: (fault, path) = (.status(503, retryAfter: 1), "/v1/**")
        case 2: (fault, path) = (.delay(Self.slowAnswer), "/v1/**")
        case 3: (fault, path) = (.truncate(afterBytes: Int.random(in: 0...40, using: &random)), "/v1/**")
        case 4: (fault, path) = (.garbage(), "/v1/**")
        default: (fault, path) = (.dropRequest, "/v1/**")
        }
        note(step, "fault \(fault) on \(path) for the next \(times) requests")
        _ = try? await server.inject(fault, path: path, times: times, probability: 0.5, seed: seed, tenantID: classroom.tenantID)
    }

    /// An older answer landing after a newer state: device `number`'s write is answered slowly
    /// (the server commits it, then sends its answer over 300 ms), and meanwhile another device
    /// of the learner writes the same lesson and syncs, and device `number` pulls that newer
    /// version. The late answer must not replace it (the pull's cursor is already past it): the
    /// device must show at least what the other device wrote, and it must converge at the end.
    mutating func overlap(on number: Int, step: Int) async {
        let email = devices[number].email
        guard let sibling = devices.indices.filter({ $0 != number && devices[$0].email == email }).randomElement(using: &random) else {
            return note(step, "device \(number) has no other device of \(email) to race with")
        }
        guard let (course, lesson, _) = await recordProgress(on: number, step: step) else { return }
        note(step, "device \(number) pushes, its answer slowed, while device \(sibling) writes the same lesson and device \(number) pulls")
        _ = try? await server.inject(
            .slowBody(chunks: 2, over: .milliseconds(300)), method: .put, path: "/v1/courses/*/progress", times: 1,
            tenantID: classroom.tenantID)
        let engine = devices[number].session.engine
        async let pushed = engine.syncNow()
        try? await Task.sleep(for: .milliseconds(30))
        let other = await recordProgress(on: sibling, course: course, lesson: lesson, step: step)
        let sent = await devices[sibling].session.engine.syncNow().sent
        // Sent means some write of the other device's: its write of this lesson reached the server
        // only if none of it waits any more (a fault may have cut that one off).
        let waiting = (try? await devices[sibling].session.engine.outbox.pending().contains { $0.resource == .progress(course: course, lesson: lesson) }) ?? true
        let pulled: Bool
        do {
            pulled = try await engine.refresh(.progress(courseID: course)) == nil
        } catch {
            pulled = false
        }
        note(step, "device \(sibling) sent \(sent); device \(number) pulled \(pulled ? "to the end" : "short") and pushed \(await pushed.sent)")
        guard let other, sent > 0, !waiting, pulled else { return }
        let session = devices[number].session
        let shown = (try? await session.progress.lessons(courseID: course))?.value.first { $0.lessonId == lesson }
        guard (shown?.watchedSeconds ?? -1) < other.watched else { return }
        // The server may have refused either write (the course was unpublished, say): a device shows it.
        let key = "\(course)/\(lesson)"
        var shownRefused = false
        for device in [number, sibling] where (try? await refusedKeys(devices[device].session))?.contains(key) == true {
            shownRefused = true
        }
        let listed = (try? await session.courses.list().value.contains { $0.id == course }) ?? true
        if shownRefused || !listed {
            note(step, "  device \(number) reads \(shown.map { "\($0.watchedSeconds) s" } ?? "nothing"): \(shownRefused ? "a write was refused" : "the course is gone")")
        } else {
            violation(step, "device \(number) pulled \(other.watched) s on \(key) (written on device \(sibling)) and reads \(shown.map { "\($0.watchedSeconds) s v\($0.version)" } ?? "nothing")")
        }
    }
}
