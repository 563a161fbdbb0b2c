import EduGoServerStore
import Foundation
import Hummingbird

/// `/__dev/tenants/{id}/snapshots` and `/__dev/tenants/{id}/restore`: save a tenant's whole
/// state, list and delete the saved ones, and put one back atomically (dev mode only).
struct SnapshotRoutes: RouteModule {
    let deps: Dependencies
    let snapshots: TenantSnapshots

    var open: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.post("/__dev/tenants/{id}/snapshots", use: save)
        routes.get("/__dev/tenants/{id}/snapshots", use: list)
        routes.delete("/__dev/tenants/{id}/snapshots/{snapshot}", use: remove)
        routes.post("/__dev/tenants/{id}/restore", use: restore)
        return routes
    }

    /// A snapshot as the API shows it.
    struct SnapshotResponse: Encodable {
        var id: String
        var tenantId: String
        var createdAt: Date
        var sizeBytes: Int

        init(_ snapshot: TenantSnapshots.Snapshot) {
            id = snapshot.id
            tenantId = snapshot.tenantID.rawValue
            createdAt = snapshot.createdAt
            sizeBytes = snapshot.copy.sizeBytes
        }
    }

    struct SnapshotList: Encodable { var items: [SnapshotResponse] }

    /// `POST …/snapshots`: 201 with the new snapshot; 409 `snapshot_limit` when the tenant is full.
    @Sendable func save(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let store = try await deps.tenants.store(for: try tenant(request, context))
        let snapshot = try await snapshots.save(store)
        return try JSONResponse.make(SnapshotResponse(snapshot), status: .created)
    }

    /// `GET …/snapshots`: the tenant's snapshots, newest first.
    @Sendable func list(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let store = try await deps.tenants.store(for: try tenant(request, context))
        return try JSONResponse.make(SnapshotList(items: await snapshots.list(store.tenantID).map(SnapshotResponse.init)))
    }

    /// `DELETE …/snapshots/{snapshot}`: 204, or 404 `snapshot_not_found`.
    @Sendable func remove(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let store = try await deps.tenants.store(for: try tenant(request, context))
        let id = try request.pathParameter("snapshot", context)
        guard await snapshots.remove(id, of: store.tenantID) else { throw APIError.snapshotNotFound }
        return JSONResponse.empty()
    }

    /// `POST …/restore` with `{"snapshot_id": …}`: the tenant's data becomes the snapshot's, at once.
    ///
    /// Sessions issued after the snapshot are not in its data, so their tokens stop working; the
    /// tenant's live event streams check their session again and tell their clients to pull.
    @Sendable func restore(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let store = try await deps.tenants.store(for: try tenant(request, context))
        let (_, object) = try await RequestBody.readObject(from: request, limit: deps.bodyLimit)
        var reader = JSONObjectReader(object, known: ["snapshot_id"])
        let id = reader.string("snapshot_id", required: true, length: 1...128, storesText: false)
        try reader.throwIfInvalid()
        guard let id, let snapshot = await snapshots.snapshot(id, of: store.tenantID) else {
            throw APIError.snapshotNotFound
        }
        try await store.restoreSnapshot(snapshot.copy)
        deps.changeHub.replaced(store.tenantID)
        return try JSONResponse.make(SnapshotResponse(snapshot))
    }

    private func tenant(_ request: Request, _ context: EduGoRequestContext) throws -> TenantID {
        guard let id = TenantID(try request.pathParameter("id", context)) else { throw APIError.tenantNotFound }
        return id
    }
}
