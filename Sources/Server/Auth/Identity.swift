import Foundation

/// The authenticated caller of a request: verified token, live session, current user row.
struct Identity: Sendable {
    /// The caller's tenant.
    let store: TenantStore
    let user: UserRecord
    let sessionID: String
    /// When the access token the caller presented expires (a live event stream ends then).
    var accessTokenExpiresAt: Date = .distantFuture

    var userID: String { user.id }
    var role: UserRecord.Role { user.role }
    var tenantID: TenantID { store.tenantID }
}
