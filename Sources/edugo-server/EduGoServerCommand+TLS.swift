import ArgumentParser
import EduGoServer
import Foundation

/// The TLS flags: certificate files, or the development certificate.
extension EduGoServerCommand {
    /// `--tls-cert` and `--tls-key` (or their environment variables): both or neither.
    func tlsFiles(environment: [String: String]) throws -> (certificate: URL, key: URL)? {
        let certificate = (tlsCertificate ?? environment["EDUGO_TLS_CERT"]).flatMap { $0.isEmpty ? nil : $0 }
        let key = (tlsKey ?? environment["EDUGO_TLS_KEY"]).flatMap { $0.isEmpty ? nil : $0 }
        switch (certificate, key) {
        case (nil, nil): return nil
        case (let certificate?, let key?):
            return (URL(fileURLWithPath: certificate), URL(fileURLWithPath: key))
        default: throw ValidationError("--tls-cert and --tls-key go together: give both, or neither.")
        }
    }

    /// The TLS identity the flags ask for: files, the development certificate, or none.
    func loadTLS(
        files: (certificate: URL, key: URL)?, development: Bool, devMode: Bool, dataDirectory: URL
    ) throws -> TLSIdentity? {
        guard !tlsRotate || development else { throw ValidationError("--tls-rotate rotates the --tls-dev certificate: add --tls-dev.") }
        if let files {
            guard !development else { throw ValidationError("--tls-dev makes its own certificate: drop it, or drop --tls-cert/--tls-key.") }
            return try TLSIdentity.load(certificateFile: files.certificate, keyFile: files.key)
        }
        guard development else { return nil }
        guard devMode else {
            throw ValidationError("--tls-dev is for dev mode only (a self-signed certificate); outside it use --tls-cert and --tls-key.")
        }
        return try TLSIdentity.development(in: dataDirectory.appendingPathComponent("tls", isDirectory: true), rotate: tlsRotate)
    }
}
