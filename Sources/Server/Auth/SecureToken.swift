import Crypto
import EduGoServerStore
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
