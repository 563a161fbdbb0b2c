import EduGoServerStore
import Foundation
import Hummingbird

/// The tenant a request names, for logs and metrics only (never for access decisions): its
/// `X-Tenant-ID`, else the `tid` claim of its bearer token, when well-formed (taken from the
/// verified-token cache when the token is there, else decoded without verification).
enum ClaimedTenant {
    static func of(_ request: Request, named: NamedTenant, verified: VerifiedTokenCache? = nil) -> String? {
        if let tenant = named.tenantID {
            return tenant.rawValue
        }
        guard let header = request.headers[.authorization], header.utf8.count < 4096 else { return nil }
        guard let token = BearerToken.from(header) else { return nil }
        if let claims = verified?.claims(for: String(token)) { return claims.tid }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Data(base64URLEncoded: String(segments[1])),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let tid = object["tid"] as? String, let tenant = TenantID(tid)
        else { return nil }
        return tenant.rawValue
    }
}
