import EduGoServerStore

/// A file an export may hold, by its path relative to the export's folder (the same path it has
/// under the data directory). Any other path is foreign: an import refuses it.
enum ExportEntry: Equatable {
    /// `registry.sqlite`: which tenants exist.
    case registry
    /// `tenants/<id>.sqlite`: one tenant's database.
    case tenant(TenantID)
    /// `keys/es256-signing-key.pem`: the key that signs access tokens.
    case signingKey
    /// `media/<id>/<name>`: one lesson media file of a tenant.
    case media(TenantID, String)

    static let registryPath = "registry.sqlite"
    static let signingKeyPath = "keys/es256-signing-key.pem"

    /// The entry `path` names, or `nil` for a path an export never holds.
    init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1 where path == Self.registryPath:
            self = .registry
        case 2 where path == Self.signingKeyPath:
            self = .signingKey
        case 2 where parts[0] == "tenants" && parts[1].hasSuffix(".sqlite"):
            guard let id = TenantID(String(parts[1].dropLast(".sqlite".count))) else { return nil }
            self = .tenant(id)
        case 3 where parts[0] == "media":
            guard let id = TenantID(parts[1]), Self.isMediaName(parts[2]) else { return nil }
            self = .media(id, parts[2])
        default:
            return nil
        }
    }

    /// The path relative to the export's folder and to the data directory.
    var path: String {
        switch self {
        case .registry: Self.registryPath
        case .tenant(let id): "tenants/\(id.rawValue).sqlite"
        case .signingKey: Self.signingKeyPath
        case .media(let id, let name): "media/\(id.rawValue)/\(name)"
        }
    }

    /// Whether the file is a SQLite database, checked with `PRAGMA integrity_check` on import.
    var isDatabase: Bool {
        switch self {
        case .registry, .tenant: true
        case .signingKey, .media: false
        }
    }

    /// A media file name as the server writes them (`<lesson id>.<sha256>`): no separators, not hidden.
    static func isMediaName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
    }

    /// The folders an export holds besides files (`tenants`, `keys`, `media`, `media/<id>`).
    static func isFolder(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1: return ["tenants", "keys", "media"].contains(parts[0])
        case 2: return parts[0] == "media" && TenantID(parts[1]) != nil
        default: return false
        }
    }
}
