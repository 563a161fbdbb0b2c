import Crypto
import EduGoServerStore
import Foundation

/// Seals change-feed cursors for clients and opens the ones they send back.
///
/// A sealed cursor is opaque and authenticated: its ``ChangeCursor/payload`` is encrypted and
/// carries a tag made with the server's key, so a client can neither read a cursor (it would
/// reveal the tenant's change count) nor edit one (a position of its own choosing). The seal is
/// deterministic (the tag, made from the payload, is the encryption's nonce: the SIV
/// construction), so one position has one spelling, and a page's cursor and a stream's `id` for
/// the same position are the same string.
///
/// The key is derived from the server's signing key, which the data directory keeps (and an
/// export carries), so cursors outlive a restart.
struct CursorSeal: Sendable {
    private let macKey: SymmetricKey
    private let encryptionKey: SymmetricKey

    /// Bytes of the tag that starts every sealed cursor.
    static let tagLength = 16
    /// The longest sealed cursor accepted (a base sync's position holds an entity id).
    static let maxSealedLength = 1_024

    /// - Parameter secret: The server's secret the keys are derived from.
    init(secret: some DataProtocol) {
        let master = SymmetricKey(data: SHA256.hash(data: secret))
        macKey = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data("edugo.cursor.mac.v1".utf8), using: master))
        encryptionKey = SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data("edugo.cursor.enc.v1".utf8), using: master))
    }

    /// The cursor as clients see it: base64url of the tag and the encrypted payload.
    func seal(_ cursor: ChangeCursor) -> String {
        let payload = cursor.payload
        let tag = Array(HMAC<SHA256>.authenticationCode(for: payload, using: macKey)).prefix(Self.tagLength)
        var sealed = Data(tag)
        sealed.append(contentsOf: xor(Array(payload), keyedBy: Array(tag)))
        return sealed.base64URLEncodedString()
    }

    /// The cursor a client sent, when this server sealed it unchanged; `nil` for anything else
    /// (made up, edited, sealed by another server).
    func open(_ text: String) -> ChangeCursor? {
        guard text.utf8.count <= Self.maxSealedLength, let data = Data(base64URLEncoded: text),
            data.base64URLEncodedString() == text, data.count > Self.tagLength
        else { return nil }
        let bytes = Array(data)
        let tag = Array(bytes[..<Self.tagLength])
        let payload = xor(Array(bytes[Self.tagLength...]), keyedBy: tag)
        let expected = Array(HMAC<SHA256>.authenticationCode(for: payload, using: macKey)).prefix(Self.tagLength)
        // Compared in constant time: the time taken says nothing of how much of the tag matched.
        guard zip(expected, tag).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 else { return nil }
        return ChangeCursor(payload: Data(payload))
    }

    /// `bytes` XOR a keystream of HMAC-SHA256 blocks keyed by the encryption key over `tag` and a
    /// block counter (its own inverse).
    private func xor(_ bytes: [UInt8], keyedBy tag: [UInt8]) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var counter: UInt32 = 0
        while output.count < bytes.count {
            var block = Data(tag)
            block.append(contentsOf: counter.bigEndianBytes)
            let stream = HMAC<SHA256>.authenticationCode(for: block, using: encryptionKey)
            for byte in stream where output.count < bytes.count {
                output.append(bytes[output.count] ^ byte)
            }
            counter += 1
        }
        return output
    }
}
