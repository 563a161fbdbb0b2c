extension ServerConfiguration {
    /// How long sessions live, how many one user holds, and how often ended ones are pruned.
    public struct SessionOptions: Sendable {
        /// The longest a session lives after its sign-in, however often it is refreshed (90 days by
        /// default); then the user signs in again.
        public var maxAge: Duration = .seconds(90 * 24 * 3600)
        /// The most live sessions one user holds; a sign-in beyond it ends that user's oldest session
        /// (revoke reason `session_limit`).
        public var maxPerUser = 50
        /// The least time between two prunings of a tenant's session and email-token tables, on the
        /// server's clock. A pruning runs inside a write that starts a session, rotates a refresh
        /// token or stores an email token, once this long has passed since the last one.
        public var pruneInterval: Duration = .seconds(600)

        /// The defaults.
        public init() {}
    }
}
