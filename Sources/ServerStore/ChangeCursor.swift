import Foundation

/// Where a client stands in its tenant's change feed: opaque to clients (base64url JSON).
///
/// A cursor names the tenant, user and role it was minted for, so it is refused for anyone else
/// (`400 invalid_cursor`), and it is expired (`410 cursor_expired`) when the caller's role changed
/// since: what a role may see differs wholesale, which only a base sync can put right.
package struct ChangeCursor: Sendable, Equatable, Codable {
    /// Where a base sync stands: the next entity kind to read and the last id read of it.
    package struct BasePosition: Sendable, Equatable, Codable {
        package var entity: String
        package var after: String

        package init(entity: String, after: String) {
            self.entity = entity
            self.after = after
        }
    }

    package var tenant: String
    package var user: String
    package var role: String
    /// Delta: the last change the client has. Base sync: the sequence its snapshot started at.
    package var seq: Int64
    /// Present while a base sync is under way.
    package var base: BasePosition?

    package enum CodingKeys: String, CodingKey {
        case tenant = "t", user = "u", role = "r", seq = "s", base = "b"
    }

    /// The cursor as clients see it.
    package var encoded: String {
        ((try? JSONEncoder().encode(self)) ?? Data()).base64URLEncodedString()
    }

    /// Reads a cursor a client sent; `nil` for anything this server did not mint.
    package init?(encoded text: String) {
        guard text.count <= 512, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        guard let data = Data(base64URLEncoded: text), let cursor = try? JSONDecoder().decode(Self.self, from: data),
            cursor.seq >= 0, cursor.base.map({ ChangeLog.Entity(rawValue: $0.entity) != nil }) ?? true
        else { return nil }
        self = cursor
    }

    package init(tenant: String, user: String, role: String, seq: Int64, base: BasePosition? = nil) {
        self.tenant = tenant
        self.user = user
        self.role = role
        self.seq = seq
        self.base = base
    }
}
