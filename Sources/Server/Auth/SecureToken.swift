import Crypto
import Foundation

/// Random opaque tokens (refresh, verification, reset) and the hashes they are stored as.
enum SecureToken {
    /// 256 random bits, base64url without padding.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64URLEncodedString()
    }

    /// The SHA-256 hex digest a token is stored and looked up by.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexDigits
    }
}

extension Data {
    /// Base64url (RFC 4648 §5) without padding.
    func base64URLEncodedString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url with or without padding.
    init?(base64URLEncoded string: String) {
        var base64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
