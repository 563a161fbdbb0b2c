import Foundation

/// Where a keyset page continues: the order key of the last row of the previous page.
///
/// Every keyset-paged list of the API is ordered by a timestamp and then an id (courses by
/// `created_at, id`, users by `created_at, id`, enrollments by `enrolled_at, course_id`), so one
/// key shape serves them all. The timestamp is kept exactly as the database stores it (GRDB's
/// `YYYY-MM-DD HH:MM:SS.SSS` text), so the next page's `(timestamp, id) < (?, ?)` seek compares
/// what the index holds and never loses a row to a rounding of fractional seconds.
///
/// On the wire it is opaque: ``token`` is the base64url (no padding) of the JSON array
/// `[timestamp, id]`. Clients pass it back unchanged as `after`.
package struct PageCursor: Sendable, Equatable {
    /// The last row's timestamp column, as stored.
    package var timestamp: String
    /// The last row's id (its second order column).
    package var id: String

    /// The longest id a cursor may carry (ids are UUIDs; this leaves room and bounds the work).
    package static let maximumIDLength = 128

    package init(timestamp: String, id: String) {
        self.timestamp = timestamp
        self.id = id
    }

    /// Reads a token the server issued as ``token``.
    ///
    /// - Returns: `nil` for anything else: not base64url, not a JSON array of two strings, a
    ///   timestamp not in the stored shape, or an empty or overlong id.
    package init?(token: String) {
        guard token.utf8.count <= 512, let data = Data(base64URLEncoded: token),
            let parts = try? JSONDecoder().decode([String].self, from: data), parts.count == 2,
            Self.isStoredTimestamp(parts[0]), !parts[1].isEmpty, parts[1].utf8.count <= Self.maximumIDLength
        else { return nil }
        self.init(timestamp: parts[0], id: parts[1])
    }

    /// The opaque form answered as `next` and accepted as `after`.
    package var token: String {
        var json: [UInt8] = []
        json.reserveCapacity(timestamp.utf8.count + id.utf8.count + 8)
        json.append(UInt8(ascii: "["))
        Self.appendJSONString(timestamp, to: &json)
        json.append(UInt8(ascii: ","))
        Self.appendJSONString(id, to: &json)
        json.append(UInt8(ascii: "]"))
        return json.base64URLEncodedString()
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, everything
    /// else as its UTF-8 (what ``init(token:)``'s `JSONDecoder` reads back).
    private static func appendJSONString(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                json += [UInt8(ascii: "\\"), byte]
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                json += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default:
                json.append(byte)
            }
        }
        json.append(UInt8(ascii: "\""))
    }

    /// `YYYY-MM-DD HH:MM:SS` with an optional fraction of 1 to 9 digits: how GRDB stores a `Date`.
    package static func isStoredTimestamp(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 19 || (21...29).contains(bytes.count) else { return false }
        let shape = Array("dddd-dd-dd dd:dd:dd".utf8)
        for (index, byte) in bytes.enumerated() {
            let expected = index < shape.count ? shape[index] : (index == 19 ? UInt8(ascii: ".") : UInt8(ascii: "d"))
            if expected == UInt8(ascii: "d") {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return false }
            } else if byte != expected {
                return false
            }
        }
        return true
    }
}
