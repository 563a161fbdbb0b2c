import Foundation

/// The authenticated caller of a request: verified token, live session, current user row.
package struct Identity: Sendable {
    /// The caller's tenant.
    package let store: TenantStore
    package let user: UserRecord
    package let sessionID: String
    /// When the access token the caller presented expires (a live event stream ends then).
    package var accessTokenExpiresAt: Date = .distantFuture
    /// Whether the caller is the dev backend acting as the user (a token of
    /// `POST /__dev/tenants/{id}/users/{userId}/token`): `sessionID` then names no session.
    package var impersonated = false

    package init(store: TenantStore, user: UserRecord, sessionID: String, accessTokenExpiresAt: Date = .distantFuture) {
        self.store = store
        self.user = user
        self.sessionID = sessionID
        self.accessTokenExpiresAt = accessTokenExpiresAt
    }

    package var userID: String { user.id }
    package var role: UserRecord.Role { user.role }
    package var tenantID: TenantID { store.tenantID }
}
