import Crypto
import Foundation

/// Base64url (RFC 4648 §5) without padding, written here so the tests do not lean on the server's.
enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ string: String) -> Data? {
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}

/// A JWS in compact serialization, taken apart (and put back together) by hand.
struct CompactJWT {
    var headerSegment: String
    var payloadSegment: String
    var signatureSegment: String

    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw HelperFailure(description: "not a compact JWS: \(token)") }
        (headerSegment, payloadSegment, signatureSegment) = (parts[0], parts[1], parts[2])
    }

    init(header: [String: Any], payload: [String: Any], signature: Data = Data()) throws {
        headerSegment = try Self.segment(header)
        payloadSegment = try Self.segment(payload)
        signatureSegment = Base64URL.encode(signature)
    }

    var header: [String: Any] { get throws { try Self.object(headerSegment) } }
    var payload: [String: Any] { get throws { try Self.object(payloadSegment) } }
    var signature: Data? { Base64URL.decode(signatureSegment) }

    /// What the signature covers: `header.payload`.
    var signingInput: Data { Data("\(headerSegment).\(payloadSegment)".utf8) }

    var compact: String { "\(headerSegment).\(payloadSegment).\(signatureSegment)" }

    /// Signs with an ES256 key (raw r‖s, as JWS wants).
    mutating func sign(with key: P256.Signing.PrivateKey) throws {
        signatureSegment = Base64URL.encode(try key.signature(for: signingInput).rawRepresentation)
    }

    /// Signs with HMAC-SHA256 under `secret`.
    mutating func sign(hmacSecret secret: Data) {
        let mac = HMAC<SHA256>.authenticationCode(for: signingInput, using: SymmetricKey(data: secret))
        signatureSegment = Base64URL.encode(Data(mac))
    }

    static func segment(_ object: [String: Any]) throws -> String {
        Base64URL.encode(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    private static func object(_ segment: String) throws -> [String: Any] {
        guard let data = Base64URL.decode(segment),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw HelperFailure(description: "segment is not a JSON object: \(segment)") }
        return object
    }
}

/// One key of `GET /.well-known/jwks.json`.
struct JWKBody: Decodable {
    var kty: String
    var crv: String
    var alg: String
    var use: String
    var kid: String
    var x: String
    var y: String

    /// The P-256 public key, built straight from the JWK coordinates.
    func publicKey() throws -> P256.Signing.PublicKey {
        guard let x = Base64URL.decode(x), let y = Base64URL.decode(y), x.count == 32, y.count == 32 else {
            throw HelperFailure(description: "JWK coordinates are not 32-byte base64url values")
        }
        return try P256.Signing.PublicKey(rawRepresentation: x + y)
    }
}

struct JWKSBody: Decodable {
    var keys: [JWKBody]
}
