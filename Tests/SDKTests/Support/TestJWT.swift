import Foundation
import Synchronization

/// Builds compact JWTs shaped like the server's access tokens (ES256 header with `kid`, the
/// claims `iss aud sub tid role sid iat nbf exp jti`). The signature is random bytes: the SDK
/// never checks it.
enum TestJWT {
    private static let serial = Mutex(0)

    static func make(
        sub: String = "user-1", tid: String = Fixture.tenantID, role: String = "student", exp: Date,
        issuedAt: Date? = nil
    ) -> String {
        let jti = serial.withLock { value -> Int in
            value += 1
            return value
        }
        let iat = Int((issuedAt ?? exp.addingTimeInterval(-900)).timeIntervalSince1970)
        let header: [String: Any] = ["alg": "ES256", "typ": "JWT", "kid": "test-key-1"]
        let payload: [String: Any] = [
            "iss": "https://api.edugo.test", "aud": "edugo-app", "sub": sub, "tid": tid, "role": role,
            "sid": "session-1", "iat": iat, "nbf": iat, "exp": Int(exp.timeIntervalSince1970), "jti": "jti-\(jti)",
        ]
        let signature = Data((0..<64).map { _ in UInt8.random(in: 0...255) })
        return [json(header), json(payload), signature].map(base64URL).joined(separator: ".")
    }

    /// A token whose payload is `payload`, verbatim.
    static func make(payload: Data) -> String {
        [json(["alg": "ES256", "typ": "JWT"]), payload, Data("sig".utf8)].map(base64URL).joined(separator: ".")
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func json(_ object: [String: Any]) -> Data {
        // Force-try: the objects above are always valid JSON.
        try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
