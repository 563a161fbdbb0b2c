import Crypto
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

    static func loadOrCreate(storage: ServerConfiguration.Storage) throws -> SigningKey {
        guard case .directory(let root) = storage else {
            return try SigningKey(privateKey: ES256PrivateKey())
        }
        let directory = root.appendingPathComponent("keys", isDirectory: true)
        let file = directory.appendingPathComponent("es256-signing-key.pem")
        if let pem = try? String(contentsOf: file, encoding: .utf8) {
            return try SigningKey(privateKey: ES256PrivateKey(pem: pem))
        }
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let key = ES256PrivateKey()
        let temporary = directory.appendingPathComponent(".es256-signing-key.pem.tmp")
        _ = FileManager.default.createFile(
            atPath: temporary.path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
        try FileManager.default.moveItem(at: temporary, to: file)
        return try SigningKey(privateKey: key)
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
