import EduGoSDK
import Foundation

/// One simulation under way: its devices, its operation log, what the devices wrote, and what the
/// checks found. ``EduGoSimulation/run(_:)`` makes one and plays it.
struct SimulationRun {
    /// The built-in operations and the app's own, as the draw names them.
    enum Kind: Equatable {
        case progress, profile, enroll, syncNow, syncTogether, pull, run, appKill
        case teacherEdit, publish, faults, clearFaults, restart, snapshot, restore, clock, signOut, overlap
        case lessons, courseDelete, passwordReset, roleChange
        case custom(Int)
    }

    /// A device: its client (kept so an app kill can open the same store anew) and its session.
    struct SimDevice: Sendable {
        var client: EduGoClient
        var session: OfflineSession
        var email: String
        /// How many things that end sessions (snapshot restores, resets of its user's password) had
        /// happened when this session signed in: a session ends by itself only after one more.
        var endingsAtSignIn = 0
        /// Whether its user signed out and the sign-in that followed failed (it signs in later).
        var signedOutByItsUser = false
    }

    let options: EduGoSimulation.Options
    let server: EduGoTestServer
    let root: URL
    let classroom: SimulationClassroom
    var devices: [SimDevice] = []
    /// Every course the run made or found, in that order (the teacher's edits pick from it; a
    /// deleted one stays, so edits also meet courses that are gone, or back after a restore).
    var courseIDs: [String]
    var random: SimulationRandom
    var log: [String] = []
    var violations: [String] = []
    /// Per user, per `course/lesson`: the largest watch time and whether a completion was
    /// recorded since the last restore (a restore undoes what came before it, by design).
    var progressWritten: [String: [String: (watched: Int, completed: Bool)]] = [:]
    /// Per user: every first name written, and the one they started with (a write still queued at
    /// a restore reaches the server after it, so a restore forgets none of them).
    var namesWritten: [String: Set<String>] = [:]
    var snapshot: EduGoTestServer.Snapshot?
    /// How many snapshots were restored so far.
    var restores = 0
    /// Per user: how often their password was reset (which ends every session of theirs).
    var passwordResets: [String: Int] = [:]
    /// Whether a fault fired on a token refresh since the clock last moved: its answer may be lost
    /// after the server rotated the token, so the device still holds the spent one.
    var refreshFaultedSinceClockMove = false
    /// How often the clock moved past the server's reuse grace window (10 s) after such a refresh:
    /// a device that then presents its spent token is taken for a thief, and its session family
    /// ends (refresh-token reuse detection, as designed).
    var spentRefreshTokensAged = 0
    /// The access log's position checked so far.
    var checkedRequests = 0
    /// Per `Idempotency-Key` since the last restore: how often the server ran its handler to a 2xx.
    var appliedKeys: [String: Int] = [:]
    /// Keys of writes that devices had sent, unanswered and not yet seen applied, when a snapshot
    /// was restored: a slowed request may run just before the restore (which takes its record
    /// back) and reach the log only after it, so its first application seen afterwards is not
    /// counted (seed 1932: such a write, sent again after the restore, looked applied twice).
    var keysInDoubt: Set<String> = []
    /// Every device's token refreshes as its network saw them (the single-flight oracle).
    let refreshes = RefreshWatch.Record()
    /// How long one step may take before the watchdog names it.
    static let stepDeadline: Duration = .seconds(30)
    /// How long a device waits for an answer: short, so a slow-answer fault (``slowAnswer``) makes
    /// it give up while the server goes on, as a loaded phone or server does to any timeout.
    static let requestTimeout: Duration = .milliseconds(500)
    /// The delay of a slow-answer fault: past ``requestTimeout``.
    static let slowAnswer: Duration = .milliseconds(700)

    init(options: EduGoSimulation.Options, server: EduGoTestServer, root: URL) async throws {
        self.options = options
        self.server = server
        self.root = root
        random = SimulationRandom(seed: options.seed)
        classroom = try await SimulationClassroom(server: server)
        courseIDs = classroom.courseIDs
        for number in 0..<options.devices {
            let email = SimulationClassroom.students[number % SimulationClassroom.students.count]
            let (client, session) = try await signIn(number, as: email, syncing: true)
            devices.append(SimDevice(client: client, session: session, email: email))
        }
        for email in SimulationClassroom.students { namesWritten[email] = ["Learner"] }
    }

    /// Signs device `number` in as `email` (and syncs it once when `syncing`) on a client that waits
    /// 30 s for each answer, then reopens its store as the device's app does, waiting
    /// `timeout` (``requestTimeout`` unless told) from then on: a sign-in or a first sync that a
    /// loaded machine makes slower than that is not what the slow-answer fault is about.
    func signIn(
        _ number: Int, as email: String, syncing: Bool, timeout: Duration = requestTimeout
    ) async throws -> (EduGoClient, OfflineSession) {
        do {
            let session = try await makeClient(number, timeout: .seconds(30))
                .signIn(email: email, password: SimulationClassroom.password)
            if syncing { await session.engine.syncNow() }
        }
        let client = makeClient(number, timeout: timeout)
        guard let session = try await client.resumeSession() else {
            throw SimulationRun.DeviceError.noSessionAfterSignIn(device: number)
        }
        return (client, session)
    }

    /// A device that signed in and found no session when its store was reopened.
    enum DeviceError: Error {
        case noSessionAfterSignIn(device: Int)
    }

    func makeClient(_ number: Int, directory: String? = nil, timeout: Duration = requestTimeout) -> EduGoClient {
        let configuration = APIConfiguration(
            baseURL: server.baseURL, tenantID: classroom.tenantID, timeout: timeout, retryPolicy: .none,
            readRefresh: ReadRefreshPolicy(budget: .seconds(30)))
        return EduGoClient(
            configuration: configuration,
            dataDirectory: root.appendingPathComponent(directory ?? "device-\(number)"),
            transport: RefreshWatch(
                configuration.makeDefaultTransport(), device: directory.map { "the device in \($0)" } ?? "device \(number)",
                record: refreshes),
            environment: SDKEnvironment(now: { Date() }, sleep: { try await Task.sleep(for: $0 / 50) }, jitter: { 0 }))
    }

    /// Plays every step, then checks the end state, while a watchdog names any step that runs past
    /// ``stepDeadline`` (on standard error, with the log so far, as it happens: a hung step would
    /// otherwise hold the run without a word).
    mutating func play() async throws {
        let watchdog = SimulationWatchdog(seed: options.seed, deadline: Self.stepDeadline)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await watchdog.watch() }
            for step in 0..<options.steps {
                let kind = draw()
                await watchdog.begin(step, kind: "\(kind)", log: log)
                await perform(kind, step: step)
                if let stalled = await watchdog.stalled() {
                    violation(step, "\(log.last ?? "?") took \(stalled): a stall past the watchdog's \(Self.stepDeadline)")
                }
                await checkServerLog(step: step)
                checkSingleFlight(step: step)
            }
            await watchdog.begin(options.steps, kind: "the checks at quiescence", log: log)
            try await checkQuiescence()
            checkSingleFlight(step: options.steps)
            group.cancelAll()
        }
    }

    /// One operation kind, drawn by the weights.
    mutating func draw() -> Kind {
        let weights = options.weights
        var table: [(Kind, Int)] = [
            (.progress, weights.progress), (.profile, weights.profile), (.enroll, weights.enroll), (.syncNow, weights.syncNow),
            (.syncTogether, weights.syncTogether), (.pull, weights.pull), (.run, weights.run), (.appKill, weights.appKill),
            (.teacherEdit, weights.teacherEdit), (.publish, weights.publish), (.faults, weights.faults),
            (.clearFaults, weights.clearFaults), (.restart, weights.restart), (.snapshot, weights.snapshot),
            (.restore, weights.restore), (.clock, weights.clock), (.signOut, weights.signOut), (.overlap, weights.overlap),
            (.lessons, weights.lessons), (.courseDelete, weights.courseDelete), (.passwordReset, weights.passwordReset),
            (.roleChange, weights.roleChange),
        ]
        table += options.operations.enumerated().map { (.custom($0.offset), $0.element.weight) }
        let total = table.map { max(0, $0.1) }.reduce(0, +)
        guard total > 0 else { return .syncNow }
        var pick = Int.random(in: 0..<total, using: &random)
        for (kind, weight) in table where weight > 0 {
            if pick < weight { return kind }
            pick -= weight
        }
        return .syncNow
    }

    /// How many session-ending events concern `email`'s sessions so far: every restore, the resets
    /// of their password, and every clock move past the reuse grace window after a refresh whose
    /// answer a fault may have lost (any user's: the access log does not say whose).
    func sessionEndings(of email: String) -> Int {
        restores + passwordResets[email, default: 0] + spentRefreshTokensAged
    }

    mutating func note(_ step: Int, _ line: String) {
        log.append(line)
    }

    mutating func violation(_ step: Int, _ line: String) {
        violations.append("step \(step): \(line)")
    }

    /// No device exchanged its refresh token twice at once: its requests that met an expired token
    /// joined one refresh (a second exchange spends a token the first already rotated).
    mutating func checkSingleFlight(step: Int) {
        for device in refreshes.take() {
            violation(step, "\(device) sent a token refresh while another of its refreshes waited for its answer (refresh is single-flight)")
        }
    }

    /// The requests the server logged since the last look: no answer of status 500, whatever the
    /// faults, and no write applied twice (a request whose `Idempotency-Key` the handler already
    /// ran for, answered 2xx, must get the stored answer replayed, never a second run).
    mutating func checkServerLog(step: Int) async {
        guard let requests = try? await server.loggedRequests(after: checkedRequests) else { return }
        for request in requests.reversed() {
            if request.status == 500 {
                violation(step, "the server answered 500 to \(request.method) \(request.route)")
            }
            if request.route == "/v1/auth/refresh", request.fault != nil { refreshFaultedSinceClockMove = true }
            if let key = request.idempotencyKey, request.replayed == false, (200..<300).contains(request.status),
                keysInDoubt.remove(key) == nil
            {
                appliedKeys[key, default: 0] += 1
                if appliedKeys[key] == 2 {
                    violation(step, "the server applied \(request.method) \(request.route) with Idempotency-Key \(key) twice")
                }
            }
        }
        checkedRequests = requests.map(\.sequence).max() ?? checkedRequests
    }
}
