import EduGoServerStore
import Foundation
import Logging

/// Sends account mails. In dev mode they land in the ``DevMailbox``; otherwise the server has no
/// outgoing mail transport, so it logs that a mail was due — never its token.
struct Mailer: Sendable {
    let mailbox: DevMailbox?
    let logger: Logger
    let now: @Sendable () -> Date

    /// Mails the link of one registration. Several people may register one address: each mail
    /// names the time of its registration and activates that registration's password only, and
    /// says when other registrations of the address are pending.
    ///
    /// - Parameters:
    ///   - registeredAt: When the registration this link confirms was made.
    ///   - otherPending: How many other registrations of the address await verification.
    func sendVerification(
        to email: String, token: String, tenant: TenantID, registeredAt: Date, otherPending: Int
    ) async {
        let when = registeredAt.formatted(.iso8601)
        var body = "Verify your EduGo account, registered with this address at \(when): POST /v1/auth/verify-email?token=\(token) (X-Tenant-ID: \(tenant)). The link sets the password chosen in that registration and expires in 24 hours. If you did not register at \(when), ignore this mail."
        if otherPending > 0 {
            body += " This address has \(otherPending) other pending registration(s), each with its own mail and password: follow only the link of the registration you made; the first link followed ends the others."
        }
        await send(
            to: email, kind: .verifyEmail, token: token, tenant: tenant,
            subject: "Confirma tu correo / Confirm your email", body: body)
    }

    func sendPasswordReset(to email: String, token: String, tenant: TenantID) async {
        await send(
            to: email, kind: .resetPassword, token: token, tenant: tenant,
            subject: "Restablece tu contraseña / Reset your password",
            body: "Reset your EduGo password with this token within 30 minutes: \(token)")
    }

    /// Tells the holder of an address that someone tried to register with it (the registration
    /// itself answers exactly as for a new address, so it reveals nothing).
    func sendAccountExists(to email: String, tenant: TenantID) async {
        await send(
            to: email, kind: "account_exists", token: "", tenant: tenant,
            subject: "Ya tienes una cuenta / You already have an account",
            body: "Someone tried to register an EduGo account with your address. If it was you, sign in or reset your password; otherwise you can ignore this mail.")
    }

    private func send(
        to email: String, kind: EmailTokenRecord.Kind, token: String, tenant: TenantID, subject: String, body: String
    ) async {
        await send(to: email, kind: kind.rawValue, token: token, tenant: tenant, subject: subject, body: body)
    }

    private func send(
        to email: String, kind: String, token: String, tenant: TenantID, subject: String, body: String
    ) async {
        guard let mailbox else {
            logger.info("mail not delivered: no mail transport outside dev mode", metadata: ["kind": .string(kind)])
            return
        }
        let mail = Mail(
            id: RecordID.make(), to: email, kind: kind, subject: subject, body: body,
            token: token, createdAt: now())
        await mailbox.deliver(mail, tenant: tenant)
    }
}
