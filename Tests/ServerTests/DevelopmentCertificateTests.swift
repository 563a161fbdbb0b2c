import Crypto
import Foundation
import Testing
import X509

@testable import EduGoServer

/// `--tls-dev`: the certificate the server makes and keeps for itself, its pin and its rotation.
@Suite(.timeLimit(.minutes(3))) struct DevelopmentCertificateTests {
    func withDirectory<Value>(_ body: (URL) throws -> Value) throws -> Value {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory.appendingPathComponent("tls"))
    }

    func certificate(in directory: URL) throws -> Certificate {
        try Certificate(pemEncoded: String(contentsOf: directory.appendingPathComponent("dev-cert.pem"), encoding: .utf8))
    }

    @Test("the first start makes a P-256 certificate for localhost, 127.0.0.1 and ::1, valid a year, every file 0600")
    func firstStartMakesCertificate() throws {
        try withDirectory { directory in
            let now = Date()
            let identity = try TLSIdentity.development(in: directory, now: now)
            let certificate = try certificate(in: directory)
            #expect(P256.Signing.PublicKey(certificate.publicKey) != nil)
            let names = try #require(try certificate.extensions.subjectAlternativeNames)
            #expect(Array(names) == SelfSignedCertificate.developmentNames)
            let days = certificate.notValidAfter.timeIntervalSince(now) / 86400
            #expect((364...366).contains(days))
            #expect(identity.pin == (try PublicKeyPin.of(certificate.publicKey)))
            #expect(identity.pin.hasPrefix("sha256/") && Data(base64Encoded: String(identity.pin.dropFirst(7)))?.count == 32)
            #expect(identity.certificateFile == directory.appendingPathComponent("dev-cert.pem"))
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(file)")
            }
            #expect(identity.previousPin == nil)
            #expect(identity.backupPin != nil && identity.backupPin != identity.pin)
        }
    }

    @Test("the pin survives restarts, and a renewal when fewer than 30 days remain keeps the key")
    func pinSurvivesRestartsAndRenewal() throws {
        try withDirectory { directory in
            let now = Date()
            let first = try TLSIdentity.development(in: directory, now: now)
            let serial = try certificate(in: directory).serialNumber
            let again = try TLSIdentity.development(in: directory, now: now.addingTimeInterval(86400))
            #expect(again.pin == first.pin)
            #expect(again.backupPin == first.backupPin)
            #expect(try certificate(in: directory).serialNumber == serial)  // not reissued

            let late = now.addingTimeInterval(340 * 86400)
            let renewed = try TLSIdentity.development(in: directory, now: late)
            #expect(renewed.pin == first.pin)
            #expect(try certificate(in: directory).serialNumber != serial)
            #expect(try certificate(in: directory).notValidAfter > late.addingTimeInterval(364 * 86400))
        }
    }

    @Test("--tls-rotate promotes the backup key, makes a new backup and keeps the retired pin for one rotation")
    func rotation() throws {
        try withDirectory { directory in
            let first = try TLSIdentity.development(in: directory)
            let second = try TLSIdentity.development(in: directory, rotate: true)
            #expect(second.pin == first.backupPin)
            #expect(second.previousPin == first.pin)
            let restarted = try TLSIdentity.development(in: directory)
            #expect(restarted.pin == second.pin)
            #expect(restarted.previousPin == first.pin)
            let third = try TLSIdentity.development(in: directory, rotate: true)
            #expect(third.pin == second.backupPin)
            #expect(third.previousPin == second.pin)
        }
    }

    @Test("a kept key that cannot be parsed stops the start instead of being replaced (that would change the pin)")
    func corruptKeyRefuses() throws {
        try withDirectory { directory in
            _ = try TLSIdentity.development(in: directory)
            let key = directory.appendingPathComponent("dev-key.pem")
            try Data("garbage".utf8).write(to: key)
            #expect(throws: TLSIdentityError.self) { try TLSIdentity.development(in: directory) }
        }
    }

    @Test("--tls-cert and --tls-key: a key of another certificate is refused by name")
    func mismatchedFilesRefused() throws {
        try withDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let pem = try SelfSignedCertificate.make(
                key: P256.Signing.PrivateKey(), notValidBefore: Date(), notValidAfter: Date().addingTimeInterval(86400))
            let certificateFile = directory.appendingPathComponent("cert.pem")
            let keyFile = directory.appendingPathComponent("key.pem")
            try Data(pem.utf8).write(to: certificateFile)
            try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: keyFile)
            #expect(throws: TLSIdentityError.keyMismatch(certificate: certificateFile.path, key: keyFile.path)) {
                try TLSIdentity.load(certificateFile: certificateFile, keyFile: keyFile)
            }
            #expect(throws: TLSIdentityError.self) {
                try TLSIdentity.load(certificateFile: keyFile, keyFile: keyFile)
            }
        }
    }
}
