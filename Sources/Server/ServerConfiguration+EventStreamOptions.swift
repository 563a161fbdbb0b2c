extension ServerConfiguration {
    /// The live streams (`GET /v1/sync/events`): their pace and how many the server holds.
    public struct EventStreamOptions: Sendable {
        /// The least time between two events of one live stream: changes committed meanwhile
        /// gather into the next event.
        public var coalescing: Duration = .milliseconds(50)
        /// How often an idle live stream gets a keep-alive comment, so that proxies keep it open.
        public var heartbeat: Duration = .seconds(15)
        /// The most live streams the server holds at once.
        public var maxStreams = 10_000
        /// The most live streams one user holds at once; one more answers 429.
        public var maxStreamsPerUser = 5

        /// The defaults.
        public init() {}
    }
}
