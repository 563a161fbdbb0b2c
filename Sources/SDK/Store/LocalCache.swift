import Foundation
import GRDB

/// Writes server answers into the local entity cache, keyed by outbox resource names:
/// `progress/<course>/<lesson>`, `profile`, `enrollment/<course>`.
enum LocalCache {
    static func apply(_ db: Database, resource: String, operation: OutboxItem.Operation, json: Data?, at now: Date) throws {
        let parts = resource.split(separator: "/").map(String.init)
        switch parts.first {
        case "progress" where parts.count == 3:
            guard let json, let progress = try? JSONCoding.decoder.decode(LessonProgress.self, from: json) else { return }
            try CachedEntity.make(
                progress, kind: .progress, id: "\(parts[1])/\(parts[2])", parentID: parts[1], sortKey: parts[2],
                version: progress.version, at: now
            ).save(db)
        case "profile":
            guard let json, let user = try? JSONCoding.decoder.decode(User.self, from: json) else { return }
            try CachedEntity.make(user, kind: .profile, id: "me", version: user.version, at: now).save(db)
        case "enrollment" where parts.count == 2:
            if operation == .delete {
                _ = try CachedEntity.deleteOne(db, key: ["kind": CachedEntity.Kind.enrollment.rawValue, "id": parts[1]])
            } else if let json, let enrollment = try? JSONCoding.decoder.decode(Enrollment.self, from: json) {
                try CachedEntity.make(enrollment, kind: .enrollment, id: parts[1], version: nil, at: now).save(db)
            }
        default:
            return
        }
    }
}
