import Foundation

/// Where a client stands in its tenant's change feed.
///
/// A cursor names the tenant, user and role it was minted for, so it is refused for anyone else
/// (`400 invalid_cursor`), and it is expired (`410 cursor_expired`) when the caller's role changed
/// since (what a role may see differs wholesale, which only a base sync can put right) or when it
/// belongs to another ``ChangeTimeline`` (a restore, an import or a re-created tenant replaced the
/// history it was read from).
///
/// The store works with cursors as values; the HTTP layer seals them (``payload`` encrypted and
/// authenticated with the server's key) before a client sees one, so a client can neither read
/// nor edit one. ``payload`` is the one canonical byte form of a position: equal cursors have
/// equal payloads, so their sealed forms are equal too.
package struct ChangeCursor: Sendable, Equatable {
    /// Where a base sync stands: the next entity kind to read and the last id read of it.
    package struct BasePosition: Sendable, Equatable {
        /// The entity's name (``FeedEntity/name``).
        package var entity: String
        package var after: String

        package init(entity: FeedEntity, after: String) {
            self.init(entity: entity.name, after: after)
        }

        package init(entity: String, after: String) {
            self.entity = entity
            self.after = after
        }
    }

    package var tenant: String
    package var user: String
    package var role: String
    /// The timeline's id (32 hex digits) the sequence belongs to.
    package var timeline: String
    /// Delta: the last change the client has. Base sync: the sequence its snapshot started at.
    package var seq: Int64
    /// Present while a base sync is under way.
    package var base: BasePosition?

    package init(tenant: String, user: String, role: String, timeline: String, seq: Int64, base: BasePosition? = nil) {
        self.tenant = tenant
        self.user = user
        self.role = role
        self.timeline = timeline
        self.seq = seq
        self.base = base
    }

    /// The format's number, the payload's first byte.
    private static let format: UInt8 = 1

    /// The cursor's canonical bytes: format, timeline (16 bytes), sequence (8 bytes, big-endian),
    /// then tenant, user and role (each a length byte and UTF-8), then the base position (a
    /// marker byte; when present, the entity kind's index and the last id, two length bytes and UTF-8).
    package var payload: Data {
        var bytes = Data([Self.format])
        bytes.append(contentsOf: Self.hexBytes(timeline) ?? [UInt8](repeating: 0, count: 16))
        bytes.append(contentsOf: UInt64(bitPattern: seq).bigEndianBytes)
        for text in [tenant, user, role] {
            let utf8 = Array(text.utf8.prefix(255))
            bytes.append(UInt8(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        if let base, let kind = FeedEntity.all.firstIndex(where: { $0.name == base.entity }) {
            let after = Array(base.after.utf8.prefix(Int(UInt16.max)))
            bytes.append(1)
            bytes.append(UInt8(kind))
            bytes.append(UInt8(after.count >> 8))
            bytes.append(UInt8(after.count & 0xFF))
            bytes.append(contentsOf: after)
        } else {
            bytes.append(0)
        }
        return bytes
    }

    /// Reads canonical bytes back; `nil` for anything ``payload`` would not have written.
    package init?(payload data: Data) {
        var reader = ByteReader(bytes: Array(data))
        guard reader.byte() == Self.format, let timeline = reader.take(16), let seqBytes = reader.take(8) else { return nil }
        let seq = Int64(bitPattern: seqBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        var texts: [String] = []
        for _ in 0..<3 {
            guard let count = reader.byte(), let utf8 = reader.take(Int(count)), let text = String(validating: utf8, as: UTF8.self)
            else { return nil }
            texts.append(text)
        }
        var base: BasePosition?
        switch reader.byte() {
        case 0:
            break
        case 1:
            guard let kind = reader.byte(), Int(kind) < FeedEntity.all.count, let high = reader.byte(),
                let low = reader.byte(), let utf8 = reader.take(Int(high) << 8 | Int(low)),
                let after = String(validating: utf8, as: UTF8.self)
            else { return nil }
            base = BasePosition(entity: FeedEntity.all[Int(kind)].name, after: after)
        default:
            return nil
        }
        guard reader.isAtEnd, seq >= 0 else { return nil }
        self.init(
            tenant: texts[0], user: texts[1], role: texts[2], timeline: timeline.map { Self.hex($0) }.joined(), seq: seq, base: base)
        // Canonical: a payload that does not read back to itself (an over-long text cut) is not one.
        guard payload == data else { return nil }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        guard ChangeTimeline.isWellFormed(text) else { return nil }
        let digits = Array(text.utf8).map { $0 <= 57 ? $0 - 48 : $0 - 87 }
        return stride(from: 0, to: 32, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    private struct ByteReader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func byte() -> UInt8? {
            take(1)?.first
        }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, bytes.count - index >= count else { return nil }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }
    }
}
