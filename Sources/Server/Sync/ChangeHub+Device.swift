import Foundation

extension ChangeHub {
    /// An open stream as the dev console's Devices panel shows it.
    struct Device: Sendable {
        /// The change sequence a device stands at, and how the server learnt it.
        struct Position: Sendable {
            enum Source: String, Sendable {
                /// The `Last-Event-ID` the stream resumed with.
                case lastEventID = "last_event_id"
                /// The cursor a pull of the stream's session answered.
                case pull
            }

            var seq: Int64
            /// The timeline `seq` belongs to: after a restore or an import it names a history that
            /// no longer exists, and the position says nothing.
            var timeline: String
            var source: Source
            var at: Date
        }

        var stream: Int
        var userID: String
        var sessionID: String
        var openedAt: Date
        /// `nil` before the device said or pulled anything.
        var position: Position?
    }
}
