import EduGoServerStore
import Foundation

extension ServerConfiguration {
    /// What the store needs to know of session lifetimes, the per-user cap and pruning.
    var sessionPolicy: SessionPolicy {
        SessionPolicy(
            maxSessionAge: sessions.maxAge.timeInterval, maxSessionsPerUser: sessions.maxPerUser,
            pruneInterval: sessions.pruneInterval.timeInterval)
    }
}
