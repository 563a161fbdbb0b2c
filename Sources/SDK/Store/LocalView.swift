import Foundation
import GRDB

/// Reads the local view of cached entities: the server's last state with pending outbox writes
/// laid over it, in order.
enum LocalView {
    static func pending(_ db: Database, resourcePrefix: String) throws -> [OutboxItem] {
        try OutboxItem
            .filter(OutboxItem.Columns.resource == resourcePrefix || OutboxItem.Columns.resource.like(like(resourcePrefix) + "/%", escape: "\\"))
            .order(OutboxItem.Columns.id)
            .fetchAll(db)
    }

    /// `server` with the bodies of `items` merged over it; `nil` when the last item deletes.
    static func overlay(_ server: Data?, _ items: [OutboxItem]) -> Data? {
        var current = server
        for item in items {
            if item.operation == .delete { current = nil; continue }
            current = JSONObject.merge(current ?? Data("{}".utf8), item.body)
        }
        return current
    }

    static func entities(_ db: Database, kind: CachedEntity.Kind, parentID: String? = nil) throws -> [CachedEntity] {
        var request = CachedEntity.filter(CachedEntity.Columns.kind == kind.rawValue)
        if let parentID { request = request.filter(CachedEntity.Columns.parentId == parentID) }
        return try request.order(CachedEntity.Columns.sortKey, CachedEntity.Columns.id).fetchAll(db)
    }

    static func entity(_ db: Database, kind: CachedEntity.Kind, id: String) throws -> CachedEntity? {
        try CachedEntity.fetchOne(db, key: ["kind": kind.rawValue, "id": id])
    }

    private static func like(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
