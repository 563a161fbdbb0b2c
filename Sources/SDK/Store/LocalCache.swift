import Foundation
import GRDB

/// Writes server answers into the local entity cache, by the resource they answer for.
enum LocalCache {
    /// Where `resource`'s versioned server state is cached (its entity's kind and id): what a
    /// write to it is based on. `nil` for enrollments, which have no version.
    static func versionedEntity(of resource: ResourceKey) -> (kind: CachedEntity.Kind, id: String)? {
        switch resource {
        case .progress(let course, let lesson): (ProgressResource.kind, ProgressResource.entityID(id: lesson, courseID: course))
        case .profile: (ProfileResource.kind, ProfileResource.entityID(id: "", courseID: nil))
        case .enrollment: nil
        }
    }

    /// Stores `json`, the server's state of `resource`, as its cached entity (or removes a left
    /// enrollment).
    ///
    /// - Returns: the version the server gave the resource, `nil` for an unversioned one or an
    ///   answer that is not its representation.
    @discardableResult
    static func apply(_ db: Database, resource: ResourceKey, operation: OutboxItem.Operation, json: Data?, at now: Date) throws -> Int? {
        switch resource {
        case .progress(let course, let lesson):
            guard let json, let progress = try? JSONCoding.decoder.decode(LessonProgress.self, from: json) else { return nil }
            guard progress.lessonId == lesson else { return nil }
            try ProgressResource.entity(progress, courseID: course, at: now).store(db)
            return progress.version
        case .profile:
            guard let json, let user = try? JSONCoding.decoder.decode(User.self, from: json) else { return nil }
            try ProfileResource.entity(user, courseID: nil, at: now).store(db)
            return user.version
        case .enrollment(let course):
            if operation == .delete {
                _ = try CachedEntity.deleteOne(
                    db, key: ["kind": EnrollmentResource.kind.rawValue, "id": EnrollmentResource.entityID(id: course, courseID: course)])
            } else if let json, let enrollment = try? JSONCoding.decoder.decode(Enrollment.self, from: json) {
                try EnrollmentResource.entity(enrollment, courseID: course, at: now).store(db)
            }
            return nil
        }
    }
}
