/// Why an export or an import stopped. The description names the file or folder and says what to do;
/// whatever the case, the export's destination or the import's data directory is as it was.
public enum DataTransferError: Error, Equatable, CustomStringConvertible {
    /// The data directory to export holds no EduGo data.
    case noData(directory: String)
    /// The export destination exists, is not empty and is not an earlier export (no `manifest.json`
    /// of an EduGo export, or files the manifest does not list).
    case destinationNotAnExport(directory: String)
    /// The folder to import has no `manifest.json`.
    case notAnExport(directory: String)
    /// `manifest.json` cannot be read or decoded.
    case unreadableManifest(reason: String)
    /// The export was written in a newer layout than this server reads.
    case newerFormat(found: Int, supported: Int)
    /// A file in the export folder is not listed in `manifest.json`, or is of a kind an export never holds.
    case foreignFile(path: String)
    /// A file `manifest.json` lists is missing.
    case missingFile(path: String)
    /// A file is damaged: its checksum, its size, or its content does not hold up.
    case corruptFile(path: String, reason: String)
    /// `manifest.json` and `registry.sqlite` disagree about the tenants.
    case tenantsMismatch(manifest: [String], registry: [String])
    /// The data directory already holds data and no replacement was asked for.
    case targetHoldsData(directory: String)
    /// The data directory holds something that is not EduGo data; it is never replaced.
    case targetHoldsForeignEntry(directory: String, entry: String)
    /// Reading or writing a file failed.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .noData(let directory):
            "\(directory) holds no EduGo data (no registry.sqlite): nothing to export."
        case .destinationNotAnExport(let directory):
            "Refusing to export to \(directory): it is neither empty nor an earlier export (a manifest.json of an "
                + "EduGo export listing everything the folder holds), and an export replaces its destination as a whole. "
                + "Choose another folder."
        case .notAnExport(let directory):
            "\(directory) is not an EduGo export: it has no manifest.json. Nothing was imported."
        case .unreadableManifest(let reason):
            "manifest.json cannot be read (\(reason)). Nothing was imported."
        case .newerFormat(let found, let supported):
            "manifest.json: the export is in format \(found), newer than this server reads (\(supported)). "
                + "Use a newer edugo-server. Nothing was imported."
        case .foreignFile(let path):
            "\(path): a foreign file, not listed in manifest.json or not a file an export holds. Nothing was imported."
        case .missingFile(let path):
            "\(path): listed in manifest.json but missing. Nothing was imported."
        case .corruptFile(let path, let reason):
            "\(path) is corrupt: \(reason). Nothing was imported."
        case .tenantsMismatch(let manifest, let registry):
            "registry.sqlite lists the tenants \(registry) but manifest.json lists \(manifest). Nothing was imported."
        case .targetHoldsData(let directory):
            "\(directory) already holds data. Add --replace to replace it as a whole (atomically), "
                + "or import into an empty data directory. Nothing was imported."
        case .targetHoldsForeignEntry(let directory, let entry):
            "Refusing to replace \(directory): it holds \(entry), which is not EduGo data. Nothing was imported."
        case .io(let path, let reason):
            "\(path): \(reason)."
        }
    }
}
