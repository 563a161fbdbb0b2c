import Foundation

/// `manifest.json` of an export: what the export holds and how an import verifies it.
///
/// ```json
/// {"format": 1, "server_version": "1.0.0", "created_at": "2026-11-26T07:00:00Z",
///  "tenants": ["acme", "demo"],
///  "files": [{"path": "registry.sqlite", "sha256": "…", "bytes": 24576}, …]}
/// ```
public struct ExportManifest: Codable, Sendable, Equatable {
    /// The format this server writes and the newest it reads.
    public static let currentFormat = 1
    /// The manifest's file name inside an export.
    public static let fileName = "manifest.json"

    /// One file of the export, by its path relative to the export's folder.
    public struct File: Codable, Sendable, Equatable {
        /// The path relative to the export's folder, `/`-separated (e.g. `tenants/demo.sqlite`).
        public var path: String
        /// The lowercase hex SHA-256 of the file's bytes.
        public var sha256: String
        /// The file's size in bytes.
        public var bytes: Int
    }

    /// The layout version; an import refuses a newer one.
    public var format: Int
    /// The `edugo-server` version that wrote the export.
    public var serverVersion: String
    /// When the export was written.
    public var createdAt: Date
    /// The exported tenants' ids, sorted.
    public var tenants: [String]
    /// Every file of the export except the manifest, sorted by path.
    public var files: [File]

    enum CodingKeys: String, CodingKey {
        case format
        case serverVersion = "server_version"
        case createdAt = "created_at"
        case tenants
        case files
    }

    /// Just the format, read first so that a newer layout is named as such rather than failing to decode.
    struct Header: Decodable {
        var format: Int
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
