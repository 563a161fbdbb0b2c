import Foundation
import ServiceLifecycle

/// The hub's clock: once a second it ends the streams whose access token expired and drops
/// reservations never claimed, and every ``heartbeat`` it asks each stream for a keep-alive
/// comment (so that proxies do not close an idle stream).
struct ChangeHubTicker: Service {
    let hub: ChangeHub
    let heartbeat: Duration
    /// The server's clock, which access tokens' expiry is measured on.
    let now: @Sendable () -> Date

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var sinceHeartbeat = Duration.zero
            while true {
                try await Task.sleep(for: .seconds(1))
                sinceHeartbeat += .seconds(1)
                let due = sinceHeartbeat >= heartbeat
                if due { sinceHeartbeat = .zero }
                hub.tick(now: now(), heartbeat: due)
            }
        }
        hub.endAll()
    }
}
