import EduGoSDK
import Foundation

/// Sessions coming and going: a device signed out by a restore or a password reset signs in
/// again, a user signs out and in as someone else, a password is reset.
extension SimulationRun {
    /// Signs device `number` in again, as its app would ask its user to, when its status says the
    /// session ended (a restored snapshot that predates its last token rotation, a reset of its
    /// user's password, or a spent refresh token presented past the reuse grace window after its
    /// rotation's answer was lost, ends it): its unsent writes wait in its store for exactly that.
    /// A session that ended with none of these since it signed in is noted in the log, not yet a
    /// violation: a refresh answer can also be lost without a fault, to the device's 500 ms timeout
    /// on a loaded machine, and the access log cannot tell (CONSISTENCY.md).
    mutating func signInAgainIfSignedOut(_ number: Int, step: Int, timeout: Duration = requestTimeout) async {
        let device = devices[number]
        guard device.session.engine.status.error == .signedOut else { return }
        note(step, "device \(number) was signed out and signs in again")
        if !device.signedOutByItsUser && device.endingsAtSignIn == sessionEndings(of: device.email) {
            note(step, "  no restore, password reset or faulted refresh aged past the grace window since it signed in: unexplained")
        }
        guard let error = await replaceSession(of: number, signingInAs: device.email, step: step, timeout: timeout) else { return }
        if step < options.steps {
            note(step, "  the sign-in failed (\(error)); the device stays signed out for now")
        } else {
            violation(step, "device \(number) could not sign in again with the faults gone: \(error)")
        }
    }

    /// Signs device `number` out, as its user would, and in again as one of the students (the same
    /// one or the other): refused while its writes wait, dead letters or conflicts exist (they must
    /// reach the server first, or its user must see them), so nothing written is lost by it.
    mutating func signOutAndIn(_ number: Int, step: Int) async {
        let device = devices[number]
        if random.chance(0.5) { _ = await device.session.engine.syncNow() }
        let email = SimulationClassroom.students.randomElement(using: &random) ?? device.email
        note(step, "device \(number) signs out, to sign in as \(email)")
        do {
            try await device.client.signOut()
        } catch let refusal as SignOutError {
            return note(step, "  refused: \(refusal)")
        } catch {
            // Signed out on the device; the server could not be told (the session ends there by expiry).
            note(step, "  signed out offline: \(error)")
        }
        if let error = await replaceSession(of: number, signingInAs: email, step: step, attempts: 10) {
            // The faults of the moment can refuse every try (seed 1444: ten 503s): the device stays
            // signed out, its status says so, and a later step (or quiescence) signs it in.
            note(step, "  the sign-in failed (\(error)); the device stays signed out for now")
            devices[number].email = email
            devices[number].signedOutByItsUser = true
            if device.session.engine.status.error != .signedOut {
                violation(step, "device \(number) signed out, and its session's status does not say signed out")
            }
        }
    }

    /// Signs device `number` in as `email` and makes that its session, trying up to `attempts`
    /// times (each failure but the last noted). Returns the last error when no try succeeded.
    mutating func replaceSession(
        of number: Int, signingInAs email: String, step: Int, timeout: Duration = requestTimeout, attempts: Int = 1
    ) async -> (any Error)? {
        var failure: (any Error)?
        for attempt in 1...max(1, attempts) {
            do {
                let (client, session) = try await signIn(number, as: email, syncing: false, timeout: timeout)
                devices[number] = SimDevice(client: client, session: session, email: email, endingsAtSignIn: sessionEndings(of: email))
                return nil
            } catch {
                failure = error
                if attempt < attempts { note(step, "  sign-in attempt \(attempt) failed: \(error)") }
            }
        }
        return failure
    }

    /// A student forgets their password and resets it from the mail (to the same one, so every
    /// device can sign in again): every session of theirs ends, and their devices find out at their
    /// next refresh, with their unsent writes kept for when they sign in again.
    mutating func resetPassword(step: Int) async {
        let email = SimulationClassroom.students.randomElement(using: &random) ?? ""
        note(step, "\(email) resets their password")
        let auth = AuthService(client: APIClient(configuration: APIConfiguration(
            baseURL: server.baseURL, tenantID: classroom.tenantID, timeout: .seconds(30), retryPolicy: .none)))
        do {
            try await auth.forgotPassword(email: email)
            guard let mail = try await server.mailbox(tenantID: classroom.tenantID, to: email).first(where: { $0.kind == "reset_password" }) else {
                return note(step, "  no reset mail came")
            }
            // Counted before it is sent: a reset whose answer is lost has still ended the sessions.
            passwordResets[email, default: 0] += 1
            try await auth.resetPassword(token: mail.token, newPassword: SimulationClassroom.password)
        } catch {
            note(step, "  failed: \(error)")
        }
    }

    /// An admin moves a student to the teacher role, or back (whichever they are not now). Their
    /// sessions go on; their devices' cursors are bound to the old role, so their next pull is
    /// refused (`410 role_changed`) and they sync again from a base.
    mutating func changeRole(step: Int) async {
        let email = SimulationClassroom.students.randomElement(using: &random) ?? ""
        do {
            let role = try await classroom.role(of: email) == "student" ? "teacher" : "student"
            let status = try await classroom.adminSets(role: role, of: email)
            note(step, "the admin makes \(email) a \(role): \(status)")
        } catch {
            note(step, "the admin's role change of \(email) failed: \(error)")
        }
    }
}
