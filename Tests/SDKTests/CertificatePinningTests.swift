import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// The pinning configuration as a value, and how a pinning failure is classified.
@Suite(.timeLimit(.minutes(2))) struct CertificatePinningTests {
    static let digest = Data(repeating: 7, count: 32)
    static let pin = "sha256/" + digest.base64EncodedString()

    @Test("a pin is sha256/ and the base64 of 32 bytes; anything else is refused by name")
    func pinsParse() throws {
        #expect(CertificatePinning.Pin(Self.pin)?.sha256 == Self.digest)
        #expect(CertificatePinning.Pin(Self.pin)?.description == Self.pin)
        #expect(CertificatePinning.Pin("sha1/" + Self.digest.base64EncodedString()) == nil)
        #expect(CertificatePinning.Pin("sha256/" + Data(count: 20).base64EncodedString()) == nil)
        #expect(CertificatePinning.Pin("sha256/not base64!") == nil)
        #expect(throws: CertificatePinningError.invalidPin("sha256/xyz")) {
            try CertificatePinning(pins: ["api.example": ["sha256/xyz"]])
        }
        #expect(throws: CertificatePinningError.noPins(host: "api.example")) {
            try CertificatePinning(pins: ["api.example": []])
        }
    }

    @Test("hosts compare case-insensitively, IPv6 with or without brackets; other hosts have no pins")
    func hostsNormalise() throws {
        let pinning = try CertificatePinning(pins: ["API.Example": [Self.pin], "[::1]": [Self.pin]])
        #expect(pinning.pins(for: "api.example")?.count == 1)
        #expect(pinning.pins(for: "::1")?.count == 1)
        #expect(pinning.pins(for: "[::1]")?.count == 1)
        #expect(pinning.pins(for: "other.example") == nil)
        #expect(pinning.isEnabled)
        #expect(!CertificatePinning.disabled.isEnabled)
    }

    @Test("trust roots are read from PEM certificates; a PEM without one is refused")
    func trustRootsFromPEM() throws {
        #expect(throws: CertificatePinningError.noCertificates) {
            try CertificatePinning.trustRoots(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        }
    }

    @Test("a pinning failure is never retried, keeps the session and is not offline")
    func pinningFailureIsNotOffline() {
        let error = NetworkError.pinningFailed(host: "api.example")
        #expect(!error.isRetryable)
        #expect(error.keepsSession)
        #expect(StaleReason(error) == nil)
        let request = APIRequest(endpoint: .health, url: URL(fileURLWithPath: "/"), timeout: .seconds(1))
        let decision = RetryPolicy.aggressive.decide(
            attempt: 1, request: request, outcome: .transportError(error), jitter: 0, now: Date())
        #expect(decision == .doNotRetry)
        #expect(!NetworkError.untrustedCertificate(host: "api.example").isRetryable)
    }

    @Test("a pinning failure has its own message in English and Spanish, naming no secret")
    func pinningFailureMessages() {
        let error = AppError(NetworkError.pinningFailed(host: "api.example"))
        let english = error.userMessage(locale: Locale(identifier: "en_US"))
        let spanish = error.userMessage(locale: Locale(identifier: "es_ES"))
        #expect(english.contains("identity"))
        #expect(spanish.contains("identidad"))
        #expect(english != AppError(NetworkError.noConnection).userMessage(locale: Locale(identifier: "en_US")))
        #expect(AppError(NetworkError.untrustedCertificate(host: "x")).userMessage(locale: Locale(identifier: "es")).contains("certificado"))
    }

    @Test("the default transport can check pins: AsyncHTTPClient on Linux, pinned or not")
    func defaultTransportFollowsPinning() throws {
        let url = try #require(URL(string: "https://api.example"))
        let plain = APIConfiguration(baseURL: url, tenantID: "t")
        #if canImport(AsyncHTTPClient)
        // Linux: AsyncHTTPClient, pinned or not (libcurl re-sends on closed connections and can deadlock on cancel).
        #expect(plain.makeDefaultTransport() is AsyncHTTPClientTransport)
        #else
        #expect(plain.makeDefaultTransport() is URLSessionTransport)
        #endif
        var pinned = plain
        pinned.pinning = try CertificatePinning(pins: ["api.example": [Self.pin]])
        #if canImport(AsyncHTTPClient)
        #expect(pinned.makeDefaultTransport() is AsyncHTTPClientTransport)
        // A configuration that cannot be applied never falls back to no pinning.
        pinned.pinning.trustRoots = [Data("not a certificate".utf8)]
        #expect(pinned.makeDefaultTransport() is RefusingTransport)
        #endif
    }
}
