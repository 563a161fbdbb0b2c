import Foundation
import Synchronization

/// Holds the server's live change stream (`GET /v1/sync/events`) for a running session and
/// pulls whenever it says something the user may see changed, or that the server's data was
/// replaced (`reset`: the pull then resets).
///
/// The stream only says *when*; the pull from the store's own cursor says *what*, so an event
/// lost with a dropped connection loses nothing: the server announces at once, on reconnecting
/// with `Last-Event-ID`, whatever was committed meanwhile.
///
/// - It connects only while the server is reachable, with the session's access token (refreshed
///   once on a 401, as every request is) and through the client's transport, so the same
///   pinning applies.
/// - After a failure or an `ended` event it reconnects with exponential backoff and jitter
///   (a server's `Retry-After` is honoured); ``isHeld`` is false meanwhile, which is when the
///   engine falls back to periodic pulls.
/// - A transport that cannot stream ends ``run(pull:)`` at once: periodic pulls only.
struct ChangeStream: Sendable {
    let client: APIClient
    let userID: String
    let monitor: ConnectivityMonitor
    let environment: SDKEnvironment
    /// Whether a stream is open now (its head arrived with 200).
    let held: Broadcaster<Bool>

    /// The longest wait between two attempts.
    static let maximumBackoff: Duration = .seconds(30)
    /// How long one stream may stay open before it is opened again (it normally ends sooner,
    /// when its access token expires).
    static let streamLifetime: Duration = .seconds(3600)

    var isHeld: Bool { held.current == true }

    /// How one connection ended.
    enum Ending: Equatable {
        /// The server ended it with an `ended` event, or closed it after events.
        case ended
        /// It failed; wait at least this long (a `Retry-After`) before the next.
        case failed(retryAfter: Duration?)
        /// The server refused the access token (401).
        case unauthorized
        /// The transport cannot stream.
        case unsupported
    }

    /// Holds the stream until cancelled (or until the transport turns out not to stream), calling
    /// `pull` for every `changed` event, one at a time.
    func run(pull: @escaping @Sendable () async -> Void) async {
        var lastEventID: String?
        var failures = 0
        while !Task.isCancelled {
            do {
                try await monitor.waitUntilConnected()
            } catch {
                return
            }
            let ending = await connect(lastEventID: &lastEventID, pull: pull)
            held.update { $0 = false }
            let wait: Duration
            switch ending {
            case .unsupported:
                return
            case .ended:
                failures = 0
                wait = .milliseconds(100)
            case .unauthorized:
                failures += 1
                wait = backoff(after: failures)
            case .failed(let retryAfter):
                failures += 1
                wait = max(retryAfter ?? .zero, backoff(after: failures))
            }
            do {
                try await environment.sleep(wait)
            } catch {
                return
            }
        }
    }

    /// The wait after `failures` failures in a row: 0.5 s doubling up to ``maximumBackoff``, ±25 %.
    func backoff(after failures: Int) -> Duration {
        let base = min(0.5 * pow(2, Double(min(failures, 16) - 1)), Double(Self.maximumBackoff.components.seconds))
        return .milliseconds(Int(base * (1 + 0.25 * environment.jitter()) * 1000))
    }

    /// One connection: opened, read event by event, ended.
    private func connect(lastEventID: inout String?, pull: @escaping @Sendable () async -> Void) async -> Ending {
        let url: URL
        let token: String
        do {
            url = try Endpoint.Sync.events.url(relativeTo: client.configuration.baseURL)
            token = try await client.session.validAccessToken(for: userID)
        } catch {
            return .failed(retryAfter: nil)
        }
        var ending = await open(url: url, token: token, lastEventID: &lastEventID, pull: pull)
        if ending == .unauthorized {
            // The token was refused: refresh it once, as every request does, and try again.
            guard let fresh = try? await client.session.accessTokenAfterUnauthorized(failedToken: token, for: userID) else {
                return .failed(retryAfter: nil)
            }
            ending = await open(url: url, token: fresh, lastEventID: &lastEventID, pull: pull)
        }
        return ending
    }

    private func open(
        url: URL, token: String, lastEventID: inout String?, pull: @escaping @Sendable () async -> Void
    ) async -> Ending {
        var headers = [
            "Authorization": "Bearer \(token)", "X-Tenant-ID": client.configuration.tenantID,
            "Accept": "text/event-stream", "Cache-Control": "no-store",
        ]
        if let lastEventID { headers["Last-Event-ID"] = lastEventID }
        let request = APIRequest(endpoint: .Sync.events, url: url, headers: headers, timeout: Self.streamLifetime)
        var parser = ServerSentEventParser()
        var status = 0
        var retryAfter: Duration?
        var lastID = lastEventID
        var sawEvent = false
        do {
            try await client.transport.stream(request) { head in
                status = head.statusCode
                retryAfter = head["retry-after"].flatMap(Int.init).map { .seconds($0) }
                if status == 200 { held.update { $0 = true } }
            } onChunk: { chunk in
                guard status == 200 else { return }
                for event in parser.consume(chunk) {
                    sawEvent = true
                    switch event.type {
                    case "changed":
                        if let id = event.id { lastID = id }
                        await pull()
                    case "reset":
                        // The server's data was replaced: the pull meets `410 timeline_changed`
                        // and resets (a base sync that keeps the outbox).
                        await pull()
                    case "ended":
                        return
                    default:
                        continue
                    }
                }
            }
        } catch is StreamingUnsupported {
            return .unsupported
        } catch {
            lastEventID = lastID
            if error is CancellationError { return .ended }
            return sawEvent ? .ended : .failed(retryAfter: nil)
        }
        lastEventID = lastID
        switch status {
        case 200: return sawEvent ? .ended : .failed(retryAfter: nil)
        case 401: return .unauthorized
        default: return .failed(retryAfter: retryAfter)
        }
    }
}
