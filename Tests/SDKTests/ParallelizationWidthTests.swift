import Foundation
import Synchronization
import Testing

/// Plain `swift test` runs a bounded number of tests at once (`EduGoTestDefaults`): unbounded, on
/// two cores, tests that started first ran past their time limits behind a thousand others.
@Suite struct ParallelizationWidthTests {
    static let variable = "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"
    static let argument = "--experimental-maximum-parallelization-width"
    /// The most cases of ``atMostTheWidthRunAtOnce(_:)`` seen running at the same moment.
    static let running = Mutex((now: 0, most: 0))
    static let cases = 40

    /// The width Swift Testing runs with: the one `swift test` was given, else the environment's.
    static var width: Int? {
        let arguments = CommandLine.arguments
        if let index = arguments.firstIndex(of: argument), arguments.indices.contains(index + 1) {
            return Int(arguments[index + 1])
        }
        return ProcessInfo.processInfo.environment[variable].flatMap(Int.init)
    }

    @Test("the test process has a parallelization width before Swift Testing reads its environment")
    func widthIsSet() throws {
        let width = try #require(ProcessInfo.processInfo.environment[Self.variable].flatMap(Int.init))
        #expect(width >= 1)
    }

    @Test("no more cases of one test run at the same moment than the width", arguments: 0..<cases)
    func atMostTheWidthRunAtOnce(_ index: Int) async throws {
        let width = try #require(Self.width)
        Self.running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        // Long enough for every case to have started if nothing bounded them.
        try await Task.sleep(for: .milliseconds(200))
        let most = Self.running.withLock { state in
            state.now -= 1
            return state.most
        }
        #expect(most <= width, "\(most) cases ran at once with a width of \(width)")
    }
}
