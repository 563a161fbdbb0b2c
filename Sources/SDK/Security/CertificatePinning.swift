import Crypto
import Foundation
import SwiftASN1
import X509

/// Which server keys a client accepts, on top of ordinary certificate validation.
///
/// Chain and hostname validation always happen first (against the system's roots, or against
/// ``trustRoots`` when set); a pin is an additional check, never a replacement. For each pinned
/// host the server's public key must match one of its pins: give at least two, the key in use
/// (primary) and the next one (backup), so rotating the server's key does not lock clients out.
///
/// ```swift
/// let pinning = try CertificatePinning(
///     pins: ["api.edugo.dev": ["sha256/AbC…=", "sha256/XyZ…="]])
/// let client = APIClient(
///     configuration: APIConfiguration(baseURL: url, tenantID: "demo", pinning: pinning),
///     tokenStore: store)
/// ```
///
/// A mismatch fails the request with ``NetworkError/pinningFailed(host:)`` before any request byte
/// is sent. On Linux the check runs in ``AsyncHTTPClientTransport`` (Foundation's `URLSession`
/// has no server-trust hook there); on Apple platforms in ``URLSessionTransport``'s delegate.
public struct CertificatePinning: Sendable, Equatable {
    /// The SHA-256 of a DER SubjectPublicKeyInfo, written `sha256/<base64>` (as `edugo-server`
    /// prints it and HPKP spelled it).
    public struct Pin: Hashable, Sendable, CustomStringConvertible {
        /// The 32 digest bytes.
        public let sha256: Data

        /// Parses `sha256/<base64 of 32 bytes>`; `nil` for anything else.
        public init?(_ text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("sha256/"), let digest = Data(base64Encoded: String(trimmed.dropFirst(7))),
                digest.count == 32
            else { return nil }
            self.sha256 = digest
        }

        /// The pin of a DER SubjectPublicKeyInfo.
        public init(subjectPublicKeyInfo: some DataProtocol) {
            self.sha256 = Data(SHA256.hash(data: Data(subjectPublicKeyInfo)))
        }

        /// The pin of a DER certificate's public key.
        ///
        /// - Throws: When `certificate` is not a DER X.509 certificate.
        public init(certificateDER certificate: some DataProtocol) throws {
            let parsed = try Certificate(derEncoded: Array(certificate))
            var serializer = DER.Serializer()
            try serializer.serialize(parsed.publicKey)
            self.init(subjectPublicKeyInfo: serializer.serializedBytes)
        }

        /// The pin as written in a configuration: `sha256/<base64>`.
        public var description: String { "sha256/" + sha256.base64EncodedString() }
    }

    /// Which certificates of the validated chain a pin may match.
    public enum Scope: Sendable, Equatable {
        /// The server's own (leaf) certificate.
        case leaf
        /// The leaf or any certificate above it (an intermediate or the root). On Linux the
        /// transport sees only the leaf (AsyncHTTPClient exposes no chain), so a pin of an
        /// intermediate fails closed there.
        case anyCertificateInChain
    }

    /// Pins per host name (compared case-insensitively; IPv6 without brackets).
    public var pins: [String: Set<Pin>]
    /// DER certificates that replace the system's roots when not empty (a development
    /// certificate, a private CA).
    public var trustRoots: [Data]
    /// Which certificates a pin may match.
    public var scope: Scope

    /// No pins and the system's roots: ordinary TLS.
    public static let disabled = CertificatePinning(validPins: [:])

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - pins: `sha256/…` pins per host.
    ///   - trustRoots: DER certificates that replace the system's roots (see ``trustRoots(pem:)``).
    ///   - scope: Which certificates a pin may match.
    /// - Throws: ``CertificatePinningError/invalidPin(_:)`` for a pin that is not `sha256/` and
    ///   the base64 of 32 bytes; ``CertificatePinningError/noPins(host:)`` for a host with none.
    public init(pins: [String: [String]], trustRoots: [Data] = [], scope: Scope = .leaf) throws {
        var parsed: [String: Set<Pin>] = [:]
        for (host, texts) in pins {
            guard !texts.isEmpty else { throw CertificatePinningError.noPins(host: host) }
            parsed[Self.normalized(host)] = Set(try texts.map { text in
                guard let pin = Pin(text) else { throw CertificatePinningError.invalidPin(text) }
                return pin
            })
        }
        self.init(validPins: parsed, trustRoots: trustRoots, scope: scope)
    }

    /// Creates a configuration from parsed pins.
    public init(validPins: [String: Set<Pin>], trustRoots: [Data] = [], scope: Scope = .leaf) {
        self.pins = Dictionary(uniqueKeysWithValues: validPins.map { (Self.normalized($0.key), $0.value) })
        self.trustRoots = trustRoots
        self.scope = scope
    }

    /// Whether anything differs from ordinary TLS with the system's roots.
    public var isEnabled: Bool { !pins.isEmpty || !trustRoots.isEmpty }

    /// The pins of `host`, or `nil` when it has none (then only ordinary validation applies).
    public func pins(for host: String) -> Set<Pin>? {
        pins[Self.normalized(host)]
    }

    /// The DER certificates in a PEM text (`-----BEGIN CERTIFICATE-----` blocks).
    ///
    /// - Throws: ``CertificatePinningError/noCertificates`` when there is none, or a parse error.
    public static func trustRoots(pem: String) throws -> [Data] {
        let documents = try PEMDocument.parseMultiple(pemString: pem).filter { $0.discriminator == "CERTIFICATE" }
        guard !documents.isEmpty else { throw CertificatePinningError.noCertificates }
        return try documents.map { document in
            _ = try Certificate(derEncoded: document.derBytes)  // refuse what is not a certificate now
            return Data(document.derBytes)
        }
    }

    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }
}

/// Why a ``CertificatePinning`` cannot be built.
public enum CertificatePinningError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `sha256/` followed by the base64 of 32 bytes.
    case invalidPin(String)
    /// A host was given an empty pin list.
    case noPins(host: String)
    /// A trust-root PEM holds no certificate.
    case noCertificates

    /// A sentence saying what is wrong with the configuration, for logs and command output.
    public var description: String {
        switch self {
        case .invalidPin(let text): "'\(text)' is not a pin: expected sha256/ and the base64 of a SHA-256 digest."
        case .noPins(let host): "no pins given for \(host)."
        case .noCertificates: "no PEM certificate found."
        }
    }
}
