import Crypto
import EduGoServerStore
import Foundation
import JWTKit

/// The server's ES256 signing key and its key id.
///
/// Generated on first start and kept as PEM (mode 0600) under `<data-dir>/keys/`, so tokens
/// survive restarts; in-memory servers generate a fresh key per process.
struct SigningKey: Sendable {
    let privateKey: ES256PrivateKey
    let kid: String

    init(privateKey: ES256PrivateKey) throws {
        self.privateKey = privateKey
        guard let parameters = privateKey.publicKey.parameters else {
            throw JWTError.generic(identifier: "ecdsa", reason: "no public parameters")
        }
        let digest = SHA256.hash(data: Data("\(parameters.x).\(parameters.y)".utf8))
        self.kid = String(Data(digest).base64URLEncodedString().prefix(16))
    }

    /// Loads `<data-dir>/keys/es256-signing-key.pem`, creating it only when it is missing.
    ///
    /// - Throws: ``StartupError/unreadableSigningKey(path:reason:)`` when the file exists but
    ///   cannot be read or is not an ES256 key: replacing it would silently invalidate every
    ///   token it signed, so the server refuses to start and says why.
    static func loadOrCreate(storage: ServerConfiguration.Storage) throws -> SigningKey {
        guard case .directory(let root) = storage else {
            return try SigningKey(privateKey: ES256PrivateKey())
        }
        let directory = root.appendingPathComponent("keys", isDirectory: true)
        let file = directory.appendingPathComponent("es256-signing-key.pem")
        switch KeyFileState.of(file.path) {
        case .present:
            let pem: String
            do {
                pem = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw StartupError.unreadableSigningKey(path: file.path, reason: "it cannot be read: \(Self.describe(error))")
            }
            do {
                return try SigningKey(privateKey: ES256PrivateKey(pem: pem))
            } catch {
                throw StartupError.unreadableSigningKey(path: file.path, reason: "it is not a PEM ES256 private key")
            }
        case .inaccessible(let reason):
            throw StartupError.unreadableSigningKey(path: file.path, reason: reason)
        case .missing:
            break
        }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let key = ES256PrivateKey()
        let temporary = directory.appendingPathComponent(".es256-signing-key.pem.tmp")
        // Whatever happens below, no temporary key is left behind.
        defer { try? FileManager.default.removeItem(at: temporary) }
        guard FileManager.default.createFile(
            atPath: temporary.path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw StartupError.unreadableSigningKey(path: file.path, reason: "a new key cannot be written in \(directory.path)")
        }
        try FileManager.default.moveItem(at: temporary, to: file)
        return try SigningKey(privateKey: key)
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let message = strerror(Int32(underlying.code))
        {
            return String(cString: message)
        }
        return nsError.localizedDescription
    }

    /// The public half as a JWK.
    var publicJWK: PublicJWK {
        let parameters = privateKey.publicKey.parameters
        return PublicJWK(kid: kid, x: parameters?.x ?? "", y: parameters?.y ?? "")
    }
}

/// A public EC key in JWK form.
struct PublicJWK: Codable, Sendable, Equatable {
    var kty = "EC"
    var crv = "P-256"
    var alg = "ES256"
    var use = "sig"
    var kid: String
    var x: String
    var y: String
}

/// The body of `GET /.well-known/jwks.json`.
struct JWKSDocument: Codable, Sendable {
    var keys: [PublicJWK]
}
