import EduGoServer
import Foundation

/// The start-up banner.
extension EduGoServerCommand {
    /// What the server prints once it listens: where, with which TLS pins, data directory, password
    /// hashing, dev mode, and the demo logins.
    static func printBanner(
        host: String, port: Int, storage: ServerConfiguration.Storage, devMode: Bool, tls: TLSIdentity?,
        passwordHashCost: UInt8, seedDemo: Bool, seedFile: URL?
    ) {
        let displayHost = host.contains(":") ? "[\(host)]" : host
        let origin = "\(tls == nil ? "http" : "https")://\(displayHost):\(port)"
        var lines = ["EduGo server listening on \(origin)"]
        if let tls {
            if let file = tls.certificateFile { lines.append("TLS certificate: \(file.path)") }
            lines.append("TLS pin: \(tls.pin)")
            if let backup = tls.backupPin { lines.append("TLS backup pin: \(backup) (the next key; --tls-rotate switches to it)") }
            if let previous = tls.previousPin { lines.append("TLS previous pin: \(previous) (retired by the last --tls-rotate)") }
        }
        switch storage {
        case .directory(let url): lines.append("Data directory: \(url.path)")
        case .inMemory: lines.append("Data directory: none (in-memory)")
        }
        if passwordHashCost < ServerConfiguration.minimumPasswordHashCostOutsideDevMode {
            lines.append("Password hashing: bcrypt cost \(passwordHashCost) (dev mode only: fast test accounts, not for real passwords)")
        } else {
            lines.append("Password hashing: bcrypt cost \(passwordHashCost)")
        }
        if devMode {
            lines.append("Dev mode: on (/__dev/mailbox, /__dev/tenants)")
            lines.append("Dev console: \(origin)/__dev/")
        } else {
            lines.append("Dev mode: off")
        }
        if let seedFile { lines.append("Seed file: \(seedFile.path) (its accounts sign in with the passwords it lists)") }
        if seedDemo {
            lines.append("Demo logins (send X-Tenant-ID with the tenant):")
            for account in DemoAccount.seeded {
                lines.append("  \(account.tenant)\t\(account.role)\t\(account.email)\t\(account.password)")
            }
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
