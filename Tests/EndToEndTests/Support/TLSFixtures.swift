import Crypto
import EduGoSDK
import EduGoServer
import EduGoTesting
import Foundation
import Testing
import X509

/// A pin no server key has: what a client pinned to the wrong key holds.
func unrelatedPin() -> String {
    "sha256/" + Data(SHA256.hash(data: Data(UUID().uuidString.utf8))).base64EncodedString()
}

/// A client of `server` that trusts its certificate and pins `pins` for 127.0.0.1.
func pinnedClient(
    _ server: EduGoTestServer, pins: [String], trustRoots: [Data]? = nil, retryPolicy: RetryPolicy = .none
) throws -> APIClient {
    let tls = try #require(server.tls)
    let pinning = try CertificatePinning(pins: ["127.0.0.1": pins], trustRoots: trustRoots ?? tls.certificateChainDER)
    return APIClient(
        configuration: APIConfiguration(
            baseURL: server.baseURL, tenantID: server.tenantID, retryPolicy: retryPolicy, pinning: pinning))
}

/// A TLS identity whose certificate is made to be wrong (expired, another host's name), kept in
/// PEM files under `directory` as `--tls-cert`/`--tls-key` would read them.
func makeIdentity(
    in directory: URL, names: [SubjectAlternativeNames.Element] = SelfSignedCertificate.developmentNames,
    notValidBefore: Date = Date().addingTimeInterval(-3600), notValidAfter: Date = Date().addingTimeInterval(86400)
) throws -> TLSIdentity {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let key = P256.Signing.PrivateKey()
    let certificate = try SelfSignedCertificate.make(
        key: key, names: names, notValidBefore: notValidBefore, notValidAfter: notValidAfter)
    let certificateFile = directory.appendingPathComponent("cert.pem")
    let keyFile = directory.appendingPathComponent("key.pem")
    try Data(certificate.utf8).write(to: certificateFile)
    try Data(key.pemRepresentation.utf8).write(to: keyFile)
    return try TLSIdentity.load(certificateFile: certificateFile, keyFile: keyFile)
}

/// Signs in the server's student through `client`.
func signInStudent(_ client: APIClient, on server: EduGoTestServer) async throws {
    let student = server.account(.student)
    _ = try await AuthService(client: client).login(email: student.email, password: student.password)
}
