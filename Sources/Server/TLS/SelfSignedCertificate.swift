import Crypto
import Foundation
import SwiftASN1
import X509

/// Issues self-signed server certificates (P-256, ECDSA with SHA-256): the development
/// certificate of `--tls-dev`, and test certificates that are expired or name another host.
public enum SelfSignedCertificate {
    /// The names the development certificate is valid for.
    public static let developmentNames: [SubjectAlternativeNames.Element] = [
        .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
        .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
    ]

    /// A certificate for `key`, signed by `key` itself, in PEM.
    ///
    /// - Parameters:
    ///   - key: The certificate's key (and signer).
    ///   - names: The subject alternative names clients check the host against.
    ///   - notValidBefore: Start of validity.
    ///   - notValidAfter: End of validity.
    /// - Throws: When the certificate cannot be built or serialised.
    public static func make(
        key: P256.Signing.PrivateKey, names: [SubjectAlternativeNames.Element] = developmentNames,
        notValidBefore: Date, notValidAfter: Date
    ) throws -> String {
        let privateKey = Certificate.PrivateKey(key)
        let name = try DistinguishedName {
            CommonName("EduGo development server")
            OrganizationName("EduGo (self-signed, development only)")
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(names)
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: privateKey.publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: privateKey)
        return try certificate.serializeAsPEM().pemString
    }
}
