import Foundation

/// How long sessions live, how many one user holds, and how often the tables that record them
/// are pruned (the server passes them from its configuration).
package struct SessionPolicy: Sendable {
    /// A session ends this long after its sign-in, however often it is refreshed.
    package var maxSessionAge: TimeInterval
    /// The most live sessions of one user; starting one more ends the oldest.
    package var maxSessionsPerUser: Int
    /// The least time between two prunings of one tenant (``SessionPruning``).
    package var pruneInterval: TimeInterval

    package init(maxSessionAge: TimeInterval, maxSessionsPerUser: Int, pruneInterval: TimeInterval) {
        self.maxSessionAge = maxSessionAge
        self.maxSessionsPerUser = maxSessionsPerUser
        self.pruneInterval = pruneInterval
    }
}
