import EduGoSDK
import Foundation

/// A simulated classroom: one in-process dev server, a few devices signed in as its students, and a
/// seeded sequence of operations — writes, syncs, reads, a teacher's edits, the server's own faults,
/// restarts, snapshot restores and clock moves — checked by oracles during the run and when every
/// device has synced at the end.
///
/// Every choice comes from the seed, so a failing run is replayed by running the same seed again:
///
/// ```swift
/// let report = try await EduGoSimulation.run(.init(seed: 42, devices: 4, steps: 60))
/// #expect(report.violations.isEmpty, "\(report)")   // prints the seed, the steps and what broke
/// ```
///
/// Add your app's own operations with ``Options/operations``; the oracles still run.
public enum EduGoSimulation {
    /// What one run does.
    public struct Options: Sendable {
        /// Every random choice of the run comes from it.
        public var seed: UInt64
        /// How many devices (each its own store directory and session).
        public var devices: Int
        /// How many operations are drawn.
        public var steps: Int
        /// How often each kind of operation is drawn.
        public var weights: Weights
        /// The app's own operations, drawn beside the built-in ones.
        public var operations: [Operation]

        /// - Parameters:
        ///   - seed: every random choice of the run comes from it.
        ///   - devices: how many devices take part (at least 1).
        ///   - steps: how many operations are drawn.
        ///   - weights: how often each built-in operation is drawn.
        ///   - operations: the app's own operations.
        public init(seed: UInt64, devices: Int = 4, steps: Int = 40, weights: Weights = Weights(), operations: [Operation] = []) {
            self.seed = seed
            self.devices = max(1, devices)
            self.steps = steps
            self.weights = weights
            self.operations = operations
        }
    }

    /// How often each built-in operation is drawn, relative to the others (0 leaves it out).
    public struct Weights: Sendable, Equatable {
        /// A learner's progress on a lesson, then a read that must show it.
        public var progress = 30
        /// A profile edit, then a read that must show it.
        public var profile = 6
        /// An enrollment in a course the learner is not in.
        public var enroll = 4
        /// `syncNow()` on one device.
        public var syncNow = 18
        /// `syncNow()` on every device at once.
        public var syncTogether = 4
        /// A read's refresh: a pull without a drain.
        public var pull = 8
        /// `run()` for a moment, then cancelled (the live stream comes and goes).
        public var run = 3
        /// The app killed and reopened on the same store (`resumeSession()`).
        public var appKill = 3
        /// The teacher renames a course.
        public var teacherEdit = 5
        /// The teacher publishes or unpublishes a course.
        public var publish = 3
        /// A fault rule for the next few requests: lost answers, 503s, lost requests.
        public var faults = 5
        /// The fault rules removed.
        public var clearFaults = 3
        /// The server stopped and started again (its fault rules do not survive).
        public var restart = 2
        /// A snapshot of the tenant saved.
        public var snapshot = 2
        /// The last snapshot restored.
        public var restore = 2
        /// The server's clock moved past the access tokens' lifetime.
        public var clock = 2
        /// A sign-out (refused while writes wait, as the SDK promises), then a sign-in as one of
        /// the students on the same device.
        public var signOut = 2
        /// A progress write whose answer comes slowly, while another device of the learner writes
        /// the same lesson and this one pulls it (an older answer landing after a newer state),
        /// then a read that must show the newer state.
        public var overlap = 4
        /// The teacher renames, deletes or adds a lesson of a course.
        public var lessons = 4
        /// The teacher deletes a course and creates another, published, with two lessons.
        public var courseDelete = 1
        /// A student resets their password (every session of theirs ends; their devices sign in again).
        public var passwordReset = 1
        /// An admin makes a student a teacher, or a teacher again a student (their cursors were
        /// bound to the old role: their next pull syncs again from a base).
        public var roleChange = 1

        /// The standard mix.
        public init() {}

        /// The standard mix with some weights changed by a list such as `"restore=0,faults=10"`
        /// (each name as the property is spelled; unknown names and malformed pairs are reported).
        ///
        /// - Throws: ``WeightsError`` naming the first pair it cannot use.
        public init(parsing list: String) throws {
            for pair in list.split(separator: ",") {
                let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
                guard parts.count == 2, let path = Self.named[String(parts[0])], let weight = Int(parts[1]), weight >= 0 else {
                    throw WeightsError(pair: String(pair))
                }
                self[keyPath: path] = weight
            }
        }

        /// The weights that differ from the standard mix, as ``init(parsing:)`` reads them
        /// (`"restore=0,faults=10"`; empty for the standard mix).
        public var changes: String {
            let standard = Weights()
            return Self.named.sorted { $0.key < $1.key }
                .filter { self[keyPath: $0.value] != standard[keyPath: $0.value] }
                .map { "\($0.key)=\(self[keyPath: $0.value])" }
                .joined(separator: ",")
        }

        static var named: [String: WritableKeyPath<Weights, Int>] {
            [
                "progress": \.progress, "profile": \.profile, "enroll": \.enroll, "syncNow": \.syncNow,
                "syncTogether": \.syncTogether, "pull": \.pull, "run": \.run, "appKill": \.appKill,
                "teacherEdit": \.teacherEdit, "publish": \.publish, "faults": \.faults, "clearFaults": \.clearFaults,
                "restart": \.restart, "snapshot": \.snapshot, "restore": \.restore, "clock": \.clock,
                "signOut": \.signOut, "overlap": \.overlap, "lessons": \.lessons, "courseDelete": \.courseDelete,
                "passwordReset": \.passwordReset, "roleChange": \.roleChange,
            ]
        }
    }

    /// A weight list ``Weights/init(parsing:)`` could not use.
    public struct WeightsError: Error, CustomStringConvertible {
        /// The pair it could not use.
        public var pair: String
        public var description: String {
            "cannot use weight \"\(pair)\": write name=number with a name of EduGoSimulation.Weights (such as restore=0)"
        }
    }

    /// One of the app's own operations: a name for the log, a weight, and what it does with a device.
    public struct Operation: Sendable {
        /// Its name in the operation log.
        public var name: String
        /// How often it is drawn, relative to the built-in ones.
        public var weight: Int
        /// What it does; a thrown error is logged, not a violation (a write may fail offline).
        public var perform: @Sendable (Device, inout SimulationRandom) async throws -> Void

        public init(name: String, weight: Int, perform: @escaping @Sendable (Device, inout SimulationRandom) async throws -> Void) {
            self.name = name
            self.weight = weight
            self.perform = perform
        }
    }

    /// A device of the run, as an app's own operation sees it.
    public struct Device: Sendable {
        /// Its number (0 up), as the log names it.
        public var number: Int
        /// Its signed-in session.
        public var session: OfflineSession
        /// The email of the user it is signed in as.
        public var email: String
    }

    /// What a run did and what it found.
    public struct Report: Sendable, CustomStringConvertible {
        /// The run's seed.
        public var seed: UInt64
        /// Its size.
        public var devices: Int
        /// How many operations were drawn.
        public var steps: Int
        /// The mix they were drawn from.
        public var weights: Weights
        /// Each operation as it ran, in order (with the checks at the end).
        public var log: [String]
        /// Every guarantee a check found broken, with the step it was found at.
        public var violations: [String]
        /// How long it took.
        public var duration: Duration

        /// How to run this seed again.
        public var replay: String {
            let changed = weights.changes
            return "EDUGO_SIM_SEED=\(seed) EDUGO_SIM_DEVICES=\(devices) EDUGO_SIM_STEPS=\(steps)"
                + (changed.isEmpty ? "" : " EDUGO_SIM_WEIGHTS=\(changed)") + " swift test --filter SimulationTests"
        }

        public var description: String {
            var lines = ["simulation seed \(seed), \(devices) devices, \(steps) steps, \(violations.count) violations (\(duration))"]
            lines += violations.map { "  violation: \($0)" }
            lines.append("  replay: \(replay)")
            lines += log.enumerated().map { "  \($0.offset): \($0.element)" }
            return lines.joined(separator: "\n")
        }
    }

    /// Runs one simulation on a fresh in-process dev server.
    ///
    /// - Parameter options: the seed, the size and the mix.
    /// - Returns: the operation log and the violations the oracles found (empty when none).
    /// - Throws: when the server cannot start or the classroom cannot be seeded; a failing
    ///   operation is logged instead.
    public static func run(_ options: Options) async throws -> Report {
        let started = ContinuousClock.now
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("edugo-sim-\(UUID().uuidString.lowercased())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EduGoTestServer.start()
        do {
            var run = try await SimulationRun(options: options, server: server, root: root)
            do {
                try await run.play()
            } catch {
                // A device's store could not be read at the end: a violation, reported with the log.
                run.violation(options.steps, "the checks at quiescence stopped: \(error)")
            }
            await server.shutdown()
            return Report(
                seed: options.seed, devices: options.devices, steps: options.steps, weights: options.weights, log: run.log,
                violations: run.violations, duration: ContinuousClock.now - started)
        } catch {
            await server.shutdown()
            throw error
        }
    }
}
