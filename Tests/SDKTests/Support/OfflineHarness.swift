import Foundation
import Synchronization
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// Scripted answers per `METHOD /path`, for a ``StubTransport``: each route answers with its
/// outcomes in order (the last one repeats) or with a handler. A request no test scripted is
/// answered `500 unscripted_route`, which shows up as a retried item.
final class Routes: Sendable {
    typealias Handler = @Sendable (APIRequest) async throws -> APIResponse

    private enum Script {
        case outcomes([StubOutcome])
        case handler(Handler)
    }

    private let scripts = Mutex<[String: Script]>([:])

    /// Answers `method path` with `outcomes`, one per request; the last one repeats.
    func on(_ method: HTTPMethod, _ path: String, _ outcomes: StubOutcome...) {
        precondition(!outcomes.isEmpty, "a route needs at least one outcome")
        scripts.withLock { $0["\(method.rawValue) \(path)"] = .outcomes(outcomes) }
    }

    /// Answers `method path` with `outcome` unless a script for it exists already.
    func onUnlessScripted(_ method: HTTPMethod, _ path: String, _ outcome: StubOutcome) {
        scripts.withLock { scripts in
            let key = "\(method.rawValue) \(path)"
            if scripts[key] == nil { scripts[key] = .outcomes([outcome]) }
        }
    }

    /// Answers `method path` with `handler`.
    func on(_ method: HTTPMethod, _ path: String, handler: @escaping Handler) {
        scripts.withLock { $0["\(method.rawValue) \(path)"] = .handler(handler) }
    }

    func answer(_ request: APIRequest) async throws -> APIResponse {
        let key = "\(request.method.rawValue) \(request.url.path)"
        let script = scripts.withLock { scripts -> Script? in
            guard let script = scripts[key] else { return nil }
            if case .outcomes(var outcomes) = script, outcomes.count > 1 {
                let next = outcomes.removeFirst()
                scripts[key] = .outcomes(outcomes)
                return .outcomes([next])
            }
            return script
        }
        switch script {
        case .outcomes(let outcomes):
            guard let next = outcomes.first else { return .problem(500, code: "empty_script") }
            return try next.resolve()
        case .handler(let handler): return try await handler(request)
        case nil: return .problem(500, code: "unscripted_route")
        }
    }
}

/// The offline layer of one signed-in user, wired as ``OfflineSession`` wires it, over a stub
/// transport and the virtual clock.
struct OfflineHarness: Sendable {
    static let courseID = "course-1"
    static let userID = "user-1"

    let environment: TestEnvironment
    let routes: Routes
    let transport: StubTransport
    let client: APIClient
    let store: OfflineStore
    let monitor: ConnectivityMonitor
    let cache: ResponseCache
    let engine: SyncEngine
    let progress: ProgressRepository
    let profile: ProfileRepository
    let enrollment: EnrollmentRepository
    let courses: CourseRepository
    let preferences: Preferences
    /// The outbox over the same store (what ``SyncEngine/outbox`` is, without crossing the actor).
    let outbox: Outbox

    /// - Parameters:
    ///   - store: defaults to a fresh in-memory store of `demo` / `user-1`.
    init(
        store: OfflineStore? = nil, environment: TestEnvironment = TestEnvironment(), policy: ConflictPolicy = ConflictPolicy(),
        parallelResources: Int = 8, limits: ResponseCache.Limits = ResponseCache.Limits(), routes: Routes = Routes(),
        retryPolicy: RetryPolicy = .none
    ) async throws {
        let store = try store ?? OfflineStore.inMemory(tenantID: Fixture.tenantID, userID: Self.userID)
        // syncNow pulls after it drains: a test that does not script the feed has a server without
        // one (404), so the pull changes nothing in the store (an empty base sync would empty it).
        routes.onUnlessScripted(.get, "/v1/sync/changes", .response(.problem(404, code: "not_found")))
        let monitor = ConnectivityMonitor(initiallyConnected: true, environment: environment.sdk) { true }
        let transport = StubTransport { request in try await routes.answer(request) }
        // The session is the store's user's: the SDK never sends one user's writes with another's token.
        let tokens = await Fixture.store(holding: Fixture.session(expiresAt: .distantFuture, userID: store.userID))
        let client = APIClient(
            configuration: Fixture.configuration(retryPolicy: retryPolicy), transport: transport, tokenStore: tokens, environment: environment.sdk,
            observers: [monitor], logger: .silent)
        let cache = ResponseCache(client: client, store: store, limits: limits, now: environment.sdk.now)
        let engine = SyncEngine(
            client: client, store: store, monitor: monitor, cache: cache, policy: policy, environment: environment.sdk,
            parallelResources: parallelResources)
        self.environment = environment
        self.routes = routes
        self.transport = transport
        self.client = client
        self.store = store
        self.monitor = monitor
        self.cache = cache
        self.engine = engine
        self.progress = ProgressRepository(store: store, engine: engine, now: environment.sdk.now)
        self.profile = ProfileRepository(store: store, engine: engine)
        self.enrollment = EnrollmentRepository(store: store, engine: engine)
        self.courses = CourseRepository(store: store, engine: engine)
        self.preferences = Preferences(store: store)
        self.outbox = Outbox(store: store, now: environment.sdk.now)
    }

    /// The path of the course's progress endpoint.
    static var progressPath: String { "/v1/courses/\(courseID)/progress" }

    /// Stores `object` as the server's last known progress of `lessonID`.
    func seedProgress(_ object: [String: Any]) async throws {
        let json = OfflineFixture.data(object)
        let lessonID = try #require(object["lesson_id"] as? String)
        _ = try await store.writer.write { [environment] db in
            try LocalCache.apply(
                db, resource: .progress(course: Self.courseID, lesson: lessonID), operation: .update, json: json, at: environment.now)
        }
    }

    /// Stores `object` as the server's last known profile.
    func seedProfile(_ object: [String: Any]) async throws {
        let json = OfflineFixture.data(object)
        _ = try await store.writer.write { [environment] db in
            try LocalCache.apply(db, resource: .profile, operation: .update, json: json, at: environment.now)
        }
    }

    /// The cached entity of `kind`/`id`, as the store holds it.
    func entity(_ kind: ResourceType, _ id: String) async throws -> CachedEntity? {
        try await store.writer.read { db in try LocalView.entity(db, kind: kind, id: id) }
    }

    /// Requests that reached the stub for `method path`.
    func requests(_ method: HTTPMethod, _ path: String) -> [APIRequest] {
        transport.requests(method, path)
    }
}

/// JSON bodies and writes shaped like the server's.
enum OfflineFixture {
    static let timestamp = "2026-11-20T09:00:00Z"

    static func data(_ object: [String: Any]) -> Data {
        // Force-try: fixtures are always valid JSON objects.
        try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func object(_ data: Data?) -> [String: Any] {
        data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
    }

    /// A `LessonProgress` as the server sends it.
    static func progress(lessonID: String = "lesson-1", watched: Int, completed: Bool = false, version: Int) -> [String: Any] {
        [
            "lesson_id": lessonID, "watched_seconds": watched, "completed": completed,
            "completed_at": completed ? timestamp as Any : NSNull(), "version": version, "updated_at": timestamp,
        ]
    }

    /// The signed-in user as the server sends it.
    static func user(firstName: String = "Ada", lastName: String = "Lovelace", version: Int = 1) -> [String: Any] {
        var user = Fixture.user(id: OfflineHarness.userID)
        user["first_name"] = firstName
        user["last_name"] = lastName
        user["version"] = version
        return user
    }

    /// An enrollment as the server sends it.
    static func enrollment(courseID: String) -> [String: Any] {
        ["course_id": courseID, "user_id": OfflineHarness.userID, "enrolled_at": timestamp]
    }

    /// `409 version_conflict` carrying the server's current state.
    static func versionConflict(current: [String: Any], version: Int) -> StubOutcome {
        .response(.problem(409, code: "version_conflict", extra: ["current_version": version, "current": current]))
    }

    /// A progress write for `lessonID` of the harness course.
    static func progressWrite(
        lessonID: String = "lesson-1", _ body: [String: Any], baseVersion: Int? = nil, baseJson: [String: Any]? = nil
    ) -> PendingWrite {
        var body = body
        body["lesson_id"] = lessonID
        return PendingWrite(
            resource: .progress(course: OfflineHarness.courseID, lesson: lessonID), operation: .update,
            endpoint: .Courses.putProgress(OfflineHarness.courseID), body: data(body), baseVersion: baseVersion,
            baseJson: baseJson.map(data))
    }

    static func enroll(_ courseID: String) -> PendingWrite {
        PendingWrite(
            resource: .enrollment(course: courseID), operation: .create, endpoint: .Courses.enroll(courseID), body: nil,
            baseVersion: nil, baseJson: nil)
    }

    static func unenroll(_ courseID: String) -> PendingWrite {
        PendingWrite(
            resource: .enrollment(course: courseID), operation: .delete, endpoint: .Courses.unenroll(courseID), body: nil,
            baseVersion: nil, baseJson: nil)
    }
}

/// Reads `sequence` until `stop` holds for the values seen so far, or `timeout` passes (real
/// time: GRDB observations and background loops deliver on their own schedule). Returns the
/// values seen.
func collect<S: AsyncSequence & Sendable>(
    _ sequence: S, timeout: Duration = .seconds(5), until stop: @escaping @Sendable ([S.Element]) -> Bool
) async -> [S.Element] where S.Element: Sendable {
    let seen = Locked<[S.Element]>([])
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            do {
                for try await value in sequence {
                    let values = seen.withLock { values -> [S.Element] in
                        values.append(value)
                        return values
                    }
                    if stop(values) { return }
                }
            } catch {
                return
            }
        }
        group.addTask { try? await Task.sleep(for: timeout) }
        await group.next()
        group.cancelAll()
    }
    return seen.value
}

/// The first value of `sequence` for which `predicate` holds, or `nil` after `timeout`.
func firstValue<S: AsyncSequence & Sendable>(
    of sequence: S, timeout: Duration = .seconds(5), where predicate: @escaping @Sendable (S.Element) -> Bool
) async -> S.Element? where S.Element: Sendable {
    await collect(sequence, timeout: timeout) { $0.last.map(predicate) ?? false }.last.flatMap { predicate($0) ? $0 : nil }
}

/// A temporary directory removed when `body` ends.
func withTemporaryDirectory<Value>(_ body: (URL) async throws -> Value) async throws -> Value {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("edugo-sdk-\(UUID().uuidString.lowercased())", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
