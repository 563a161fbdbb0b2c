import Foundation

/// How long sessions live, how many one user holds, and how often the tables that record them
/// are pruned (from ``ServerConfiguration``).
struct SessionPolicy: Sendable {
    /// A session ends this long after its sign-in, however often it is refreshed.
    var maxSessionAge: TimeInterval
    /// The most live sessions of one user; starting one more ends the oldest.
    var maxSessionsPerUser: Int
    /// The least time between two prunings of one tenant (``SessionPruning``).
    var pruneInterval: TimeInterval
}
