import Crypto
import Foundation
import NIOSSL
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TLSIdentity {
    /// How long a development certificate is valid.
    static let developmentValidity: TimeInterval = 365 * 24 * 3600
    /// A development certificate with less than this left is issued again (same key, same pin).
    static let developmentRenewal: TimeInterval = 30 * 24 * 3600

    /// The server's own development certificate, made on first use and kept (mode 0600) in
    /// `directory` (`<data-dir>/tls/`).
    ///
    /// Two P-256 keys are kept: the current one, whose self-signed certificate (SAN `localhost`,
    /// `127.0.0.1`, `::1`, valid one year) the server presents, and a backup that
    /// `rotate` promotes. The certificate is issued again, for the same key, when less than
    /// 30 days remain, so the pin survives restarts and renewals until a rotation.
    ///
    /// - Parameters:
    ///   - directory: Where the keys, the certificate and the previous pin are kept.
    ///   - rotate: Retire the current key: the backup becomes current, a new backup is made and
    ///     the retired key's pin is kept as ``previousPin`` until the next rotation.
    ///   - now: The clock the validity is measured by.
    /// - Throws: ``TLSIdentityError`` when a kept file exists but cannot be used (it is never
    ///   replaced silently: that would change the pin), or the directory cannot be written.
    public static func development(in directory: URL, rotate: Bool = false, now: Date = Date()) throws -> TLSIdentity {
        let files = DevelopmentFiles(directory: directory)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var current = try files.loadOrCreateKey(files.key)
        var backup = try files.loadOrCreateKey(files.backupKey)
        var previousPin = try files.readText(files.previousPin)
        var certificatePEM = try files.readText(files.certificate)
        if rotate {
            previousPin = try PublicKeyPin.of(Certificate.PublicKey(current.publicKey))
            (current, backup) = (backup, P256.Signing.PrivateKey())
            certificatePEM = nil
            try files.write(previousPin ?? "", to: files.previousPin)
            try files.write(current.pemRepresentation, to: files.key)
            try files.write(backup.pemRepresentation, to: files.backupKey)
        }
        if !Self.isUsable(certificatePEM, for: current, now: now) {
            let pem = try SelfSignedCertificate.make(
                key: current, notValidBefore: now.addingTimeInterval(-300),
                notValidAfter: now.addingTimeInterval(developmentValidity))
            try files.write(pem, to: files.certificate)
            certificatePEM = pem
        }
        let chain = try NIOSSLCertificate.fromPEMBytes(Array((certificatePEM ?? "").utf8))
        let key = try NIOSSLPrivateKey(bytes: Array(current.pemRepresentation.utf8), format: .pem)
        return try TLSIdentity(
            chain: chain, privateKey: key, certificateFile: files.certificate,
            backupPin: PublicKeyPin.of(Certificate.PublicKey(backup.publicKey)), previousPin: previousPin)
    }

    /// Whether a kept certificate is for `key`, already valid and valid for 30 more days.
    private static func isUsable(_ pem: String?, for key: P256.Signing.PrivateKey, now: Date) -> Bool {
        guard let pem, let certificate = try? Certificate(pemEncoded: pem) else { return false }
        return certificate.publicKey == Certificate.PublicKey(key.publicKey)
            && certificate.notValidBefore <= now
            && certificate.notValidAfter.timeIntervalSince(now) >= developmentRenewal
    }
}

/// The files of the development certificate, each written whole (temporary file, then rename)
/// with mode 0600.
private struct DevelopmentFiles {
    let directory: URL
    var key: URL { directory.appendingPathComponent("dev-key.pem") }
    var backupKey: URL { directory.appendingPathComponent("dev-backup-key.pem") }
    var certificate: URL { directory.appendingPathComponent("dev-cert.pem") }
    var previousPin: URL { directory.appendingPathComponent("previous-pin.txt") }

    /// The key in `file`, created only when the file is missing.
    func loadOrCreateKey(_ file: URL) throws -> P256.Signing.PrivateKey {
        if let pem = try readText(file) {
            do {
                return try P256.Signing.PrivateKey(pemRepresentation: pem)
            } catch {
                throw TLSIdentityError.unreadable(path: file.path, reason: "it is not a PEM P-256 private key")
            }
        }
        let key = P256.Signing.PrivateKey()
        try write(key.pemRepresentation, to: file)
        return key
    }

    /// The file's text, or `nil` when it is missing.
    func readText(_ file: URL) throws -> String? {
        switch KeyFileState.of(file.path) {
        case .missing: return nil
        case .inaccessible(let reason): throw TLSIdentityError.unreadable(path: file.path, reason: reason)
        case .present:
            do {
                return try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw TLSIdentityError.unreadable(path: file.path, reason: "it cannot be read")
            }
        }
    }

    func write(_ text: String, to file: URL) throws {
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).tmp")
        defer { try? FileManager.default.removeItem(at: temporary) }
        try? FileManager.default.removeItem(at: temporary)
        guard FileManager.default.createFile(
            atPath: temporary.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw TLSIdentityError.unreadable(path: file.path, reason: "it cannot be written in \(directory.path)")
        }
        // rename(2) replaces the old file in one step: a reader sees the old text or the new.
        guard rename(temporary.path, file.path) == 0 else {
            throw TLSIdentityError.unreadable(path: file.path, reason: String(cString: strerror(errno)))
        }
    }
}
