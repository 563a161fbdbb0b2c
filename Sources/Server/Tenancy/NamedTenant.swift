import EduGoServerStore
import Hummingbird

/// What a request's `X-Tenant-ID` header names, read once per request by ``TenantHeaderMiddleware``
/// into ``EduGoRequestContext/namedTenant``.
enum NamedTenant: Sendable, Equatable {
    /// No header.
    case absent
    /// A header that is not a well-formed tenant id.
    case malformed
    /// A well-formed tenant id (of a tenant that may not exist).
    case named(TenantID)

    init(_ headers: HTTPFields) {
        guard let raw = headers[.xTenantID] else {
            self = .absent
            return
        }
        self = TenantID(raw).map(Self.named) ?? .malformed
    }

    /// The tenant named, when the header is well-formed.
    var tenantID: TenantID? {
        guard case .named(let id) = self else { return nil }
        return id
    }

    /// The tenant an unauthenticated call names.
    /// - Throws: `400 validation_failed` for `X-Tenant-ID`: `required` without the header,
    ///   `invalid_format` for a malformed one.
    func required() throws -> TenantID {
        switch self {
        case .named(let id): return id
        case .absent: throw APIError.validation(field: "X-Tenant-ID", code: "required", message: "header is required")
        case .malformed:
            throw APIError.validation(
                field: "X-Tenant-ID", code: "invalid_format",
                message: "must be 2-63 characters of a-z, 0-9 and '-', starting with a letter or digit")
        }
    }

    /// Whether the header agrees with a token's tenant: absent, or naming that very tenant.
    func agrees(with tenant: TenantID) -> Bool {
        self == .absent || self == .named(tenant)
    }
}
