import EduGoServerStore
import Foundation
import Logging

/// Applies a ``SeedDescription``: creates the tenants that do not exist and adds to each what it
/// lacks, so seeding the same description twice leaves the same state.
///
/// Row ids are derived from the description's identities (``SeedID``), and passwords are
/// hashed only for accounts that do not exist yet (a second run hashes nothing).
struct Seeder {
    let passwords: PasswordHasher
    let now: Date
    /// The passwords come from a request (a `POST /__dev/tenants` body): each is hashed through
    /// the server-wide bcrypt gate (`503 hashing_busy` when it is full) and not remembered.
    /// Otherwise (the built-in seeds, a `--seed` file) each distinct password is hashed once per
    /// process, outside the gate: no request chooses them.
    var passwordsFromRequest = false

    /// Seeds every tenant of `description` (validated as a whole before this is called).
    func seed(_ description: SeedDescription, into tenants: TenantRegistry, logger: Logger) async throws {
        var existing = Set(try await tenants.tenantIDs())
        for tenant in description.tenants {
            guard let id = tenant.id else { continue }
            if existing.contains(id) {
                let outcome = try await seed(tenant, into: tenants.store(for: id), tenantID: id)
                logger.info("seeded tenant", metadata: ["tenant": .string(id.rawValue), "added": .string("\(outcome)")])
            } else {
                _ = try await tenants.createTenant(id, name: tenant.name ?? id.rawValue) { store in
                    try await seed(tenant, into: store, tenantID: id)
                }
                existing.insert(id)
                logger.info("seeded new tenant", metadata: ["tenant": .string(id.rawValue)])
            }
        }
    }

    /// Adds to `store` what `tenant` describes and it lacks, in one transaction.
    ///
    /// - Returns: How many rows of each kind were new.
    @discardableResult
    func seed(_ tenant: SeedDescription.Tenant, into store: TenantStore, tenantID: TenantID) async throws -> SeedOutcome {
        var rows = rows(for: tenant, tenantID: tenantID)
        let missing = try await store.missingAccounts(emailKeys: rows.users.map(\.emailKey))
        try await hash(&rows, emailKeys: missing, tenant: tenant)
        // An account deleted between the look-up and the write is missing its hash: hash it and
        // write again (the write re-checks everything in its own transaction).
        for _ in 0..<3 {
            let outcome = try await store.insertMissing(rows)
            guard case .needsPasswordHashes(let keys) = outcome else { return outcome }
            try await hash(&rows, emailKeys: keys, tenant: tenant)
        }
        return try await store.insertMissing(rows)
    }

    /// Fills in the password hash of the users in `emailKeys`, one hash per distinct password.
    ///
    /// The seeds the server starts with (the demo tenants, `--seed`) hash their distinct passwords
    /// side by side: bcrypt at cost 12 takes about 0.3 s a password, which a start waits for.
    /// Passwords a request chose go one at a time through the hashing gate, as a sign-up's do.
    private func hash(_ rows: inout SeedRows, emailKeys: Set<String>, tenant: SeedDescription.Tenant) async throws {
        var wanted: [String] = []
        for (index, user) in tenant.users.enumerated() where emailKeys.contains(rows.users[index].emailKey) {
            if !wanted.contains(user.password) { wanted.append(user.password) }
        }
        var hashes: [String: String] = [:]
        if passwordsFromRequest {
            for password in wanted { hashes[password] = try await passwords.hash(password) }
        } else {
            let passwords = self.passwords
            hashes = await withTaskGroup(of: HashedPassword.self) { group in
                for password in wanted {
                    group.addTask { HashedPassword(password: password, hash: await passwords.hashOnce(password)) }
                }
                return await group.reduce(into: [:]) { $0[$1.password] = $1.hash }
            }
        }
        for (index, user) in tenant.users.enumerated() where emailKeys.contains(rows.users[index].emailKey) {
            rows.users[index].passwordHash = hashes[user.password] ?? ""
        }
    }

    private struct HashedPassword: Sendable {
        var password: String
        var hash: String
    }

    /// The rows `tenant` describes, with derived ids and without password hashes.
    func rows(for tenant: SeedDescription.Tenant, tenantID: TenantID) -> SeedRows {
        let namespace = tenantID.rawValue
        var rows = SeedRows()
        var userIDs: [String: String] = [:]
        for (index, seed) in tenant.users.enumerated() {
            let created = now.addingTimeInterval(TimeInterval(index - 100) * 60)
            let emailKey = UserRecord.emailKey(seed.email)
            let id = SeedID.make(namespace, "user", emailKey)
            userIDs[emailKey] = id
            var user = UserRecord(
                id: id, email: seed.email, emailKey: "", passwordHash: "", firstName: seed.firstName,
                lastName: seed.lastName, role: seed.role, emailVerified: seed.emailVerified, version: 1,
                createdAt: created, updatedAt: created)
            user.refreshDerivedColumns()
            rows.users.append(user)
            rows.publishedPasswords[id] = seed.password
        }
        var courseIDs: [String: String] = [:]
        var lessonIDs: [String: [String: String]] = [:]
        for (index, seed) in tenant.courses.enumerated() {
            let created = now.addingTimeInterval(TimeInterval(index - 50) * 60)
            let id = SeedID.make(namespace, "course", seed.key)
            courseIDs[seed.key] = id
            rows.courses.append(CourseRecord(
                id: id, title: seed.title, description: seed.description, category: seed.category, thumbnailUrl: nil,
                published: seed.published, teacherId: userIDs[UserRecord.emailKey(seed.teacher)] ?? "", version: 1,
                createdAt: created, updatedAt: created))
            for (order, lesson) in seed.lessons.enumerated() {
                let lessonID = SeedID.make(namespace, "lesson", seed.key, lesson.key)
                lessonIDs[seed.key, default: [:]][lesson.key] = lessonID
                rows.lessons.append(LessonRecord(
                    id: lessonID, courseId: id, title: lesson.title, content: lesson.content, order: order + 1,
                    durationMinutes: lesson.durationMinutes, videoUrl: nil, version: 1, createdAt: created,
                    updatedAt: created))
            }
        }
        for enrollment in tenant.enrollments {
            guard let user = userIDs[UserRecord.emailKey(enrollment.student)], let course = courseIDs[enrollment.course]
            else { continue }
            rows.enrollments.append(EnrollmentRecord(courseId: course, userId: user, enrolledAt: now))
        }
        for progress in tenant.progress {
            guard let user = userIDs[UserRecord.emailKey(progress.student)], let course = courseIDs[progress.course],
                let lesson = lessonIDs[progress.course]?[progress.lesson]
            else { continue }
            rows.progress.append(ProgressRecord(
                userId: user, lessonId: lesson, courseId: course, completed: progress.completed,
                completedAt: progress.completed ? now : nil, watchedSeconds: progress.watchedSeconds, version: 1,
                updatedAt: now))
        }
        return rows
    }
}
