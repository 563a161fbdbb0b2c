import Foundation
import NIOSSL

/// The certificate chain and private key a server speaks HTTPS with, and the pins clients use.
///
/// Load one from PEM files (`--tls-cert`/`--tls-key`) or let the server make and keep its own
/// development certificate (`--tls-dev`, see ``development(in:rotate:now:)``). The private key is
/// never printed or logged.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.tls = try TLSIdentity.load(certificateFile: certURL, keyFile: keyURL)
/// ```
public struct TLSIdentity: Sendable {
    /// The PEM file of the certificate chain, when there is one on disk.
    public let certificateFile: URL?
    /// `sha256/…` of the leaf certificate's public key.
    public let pin: String
    /// The pin of the next key (development certificates): `--tls-rotate` switches to it, so a
    /// client that pins it too keeps working across the rotation.
    public let backupPin: String?
    /// The pin of the key the last `--tls-rotate` retired, shown until the next rotation.
    public let previousPin: String?
    /// When the leaf certificate expires.
    public let notValidAfter: Date
    /// The certificate chain in DER, leaf first: what a client trusts for a self-signed certificate.
    public let certificateChainDER: [Data]

    let chain: [NIOSSLCertificate]
    let privateKey: NIOSSLPrivateKey

    init(
        chain: [NIOSSLCertificate], privateKey: NIOSSLPrivateKey, certificateFile: URL?,
        backupPin: String? = nil, previousPin: String? = nil
    ) throws {
        guard let leaf = chain.first else { throw TLSIdentityError.noCertificate }
        self.chain = chain
        self.privateKey = privateKey
        self.certificateFile = certificateFile
        self.pin = try PublicKeyPin.of(leaf)
        self.backupPin = backupPin
        self.previousPin = previousPin
        self.notValidAfter = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter))
        self.certificateChainDER = try chain.map { Data(try $0.toDERBytes()) }
    }

    /// Reads a PEM certificate chain (leaf first) and its PEM private key.
    ///
    /// - Parameters:
    ///   - certificateFile: The chain, leaf first.
    ///   - keyFile: The leaf's private key.
    /// - Throws: ``TLSIdentityError`` naming the file that cannot be used and why.
    public static func load(certificateFile: URL, keyFile: URL) throws -> TLSIdentity {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile.path)
        } catch {
            throw TLSIdentityError.unreadable(path: certificateFile.path, reason: "not a readable PEM certificate chain")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyFile.path, format: .pem)
        } catch {
            throw TLSIdentityError.unreadable(path: keyFile.path, reason: "not a readable PEM private key")
        }
        guard !chain.isEmpty else {
            throw TLSIdentityError.unreadable(path: certificateFile.path, reason: "it holds no certificate")
        }
        let identity = try TLSIdentity(chain: chain, privateKey: key, certificateFile: certificateFile)
        // BoringSSL refuses a context whose key does not belong to the leaf certificate.
        guard (try? NIOSSLContext(configuration: identity.serverConfiguration())) != nil else {
            throw TLSIdentityError.keyMismatch(certificate: certificateFile.path, key: keyFile.path)
        }
        return identity
    }

    /// The server side of TLS: this identity, TLS 1.2 at least (1.3 is negotiated when the
    /// client offers it).
    func serverConfiguration() -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = .tlsv12
        return configuration
    }
}

/// Why a TLS certificate or key cannot be used. The description says what to change.
public enum TLSIdentityError: Error, Equatable, CustomStringConvertible {
    /// A file exists but cannot be read or parsed.
    case unreadable(path: String, reason: String)
    /// The private key does not belong to the certificate.
    case keyMismatch(certificate: String, key: String)
    /// The chain is empty.
    case noCertificate

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "Refusing to start: the TLS file \(path) cannot be used (\(reason))."
        case .keyMismatch(let certificate, let key):
            "Refusing to start: the private key \(key) does not belong to the certificate \(certificate)."
        case .noCertificate:
            "Refusing to start: the TLS certificate chain is empty."
        }
    }
}
