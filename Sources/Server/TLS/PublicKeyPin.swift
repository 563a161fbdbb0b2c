import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The pin of a public key as the SDK and the CLI accept it: `sha256/` and the base64 SHA-256 of
/// the key's DER SubjectPublicKeyInfo (the HPKP form, RFC 7469).
public enum PublicKeyPin {
    /// The pin of `publicKey`.
    public static func of(_ publicKey: Certificate.PublicKey) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(publicKey)
        return of(spki: serializer.serializedBytes)
    }

    /// The pin of a DER SubjectPublicKeyInfo.
    public static func of(spki: [UInt8]) -> String {
        "sha256/" + Data(SHA256.hash(data: spki)).base64EncodedString()
    }

    /// The pin of `certificate`'s public key.
    static func of(_ certificate: NIOSSLCertificate) throws -> String {
        of(spki: try certificate.extractPublicKey().toSPKIBytes())
    }
}
