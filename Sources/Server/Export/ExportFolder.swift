import EduGoServerStore
import Foundation

/// Reading a folder as an EduGo export: its `manifest.json`, and whether the folder holds exactly
/// what the manifest lists. An import checks a source with it, and an export its destination
/// before replacing it (only an earlier export may be replaced).
enum ExportFolder {
    /// Reads `manifest.json`, refusing a newer format before decoding the rest.
    static func readManifest(in source: URL) throws -> ExportManifest {
        let file = source.appendingPathComponent(ExportManifest.fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { throw DataTransferError.notAnExport(directory: source.path) }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw DataTransferError.unreadableManifest(reason: "it cannot be read")
        }
        guard let header = try? ExportManifest.decoder.decode(ExportManifest.Header.self, from: data) else {
            throw DataTransferError.unreadableManifest(reason: "it is not JSON with a format number")
        }
        guard header.format <= ExportManifest.currentFormat else {
            throw DataTransferError.newerFormat(found: header.format, supported: ExportManifest.currentFormat)
        }
        do {
            return try ExportManifest.decoder.decode(ExportManifest.self, from: data)
        } catch {
            throw DataTransferError.unreadableManifest(reason: "it does not decode as format \(header.format)")
        }
    }

    /// Every file in `source` must be listed in the manifest and of a kind an export holds, and
    /// the manifest must list one database per tenant and the registry.
    static func checkListing(of source: URL, against manifest: ExportManifest) throws -> [ExportEntry] {
        var entries: [ExportEntry] = []
        var listed: Set<String> = []
        for file in manifest.files {
            guard let entry = ExportEntry(path: file.path), listed.insert(file.path).inserted else {
                throw DataTransferError.foreignFile(path: file.path)
            }
            entries.append(entry)
        }
        guard listed.contains(ExportEntry.registryPath) else { throw DataTransferError.missingFile(path: ExportEntry.registryPath) }
        let databases = entries.compactMap { entry -> String? in
            if case .tenant(let id) = entry { return id.rawValue }
            return nil
        }
        for tenant in manifest.tenants where !databases.contains(tenant) {
            throw DataTransferError.missingFile(path: "tenants/\(tenant).sqlite")
        }
        for tenant in databases where !manifest.tenants.contains(tenant) {
            throw DataTransferError.foreignFile(path: "tenants/\(tenant).sqlite")
        }

        guard let walker = FileManager.default.enumerator(atPath: source.path) else {
            throw DataTransferError.io(path: source.path, reason: "cannot be listed")
        }
        while let path = walker.nextObject() as? String {
            guard path != ExportManifest.fileName else { continue }
            // attributesOfItem does not follow a symbolic link: one is foreign whatever it points at.
            let type = (try? FileManager.default.attributesOfItem(atPath: source.appendingPathComponent(path).path))?[.type]
                as? FileAttributeType
            if type == .typeDirectory, ExportEntry.isFolder(path) { continue }
            guard type == .typeRegular, listed.contains(path) else { throw DataTransferError.foreignFile(path: path) }
        }
        return entries
    }
}
