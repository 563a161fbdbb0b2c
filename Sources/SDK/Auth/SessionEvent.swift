import Synchronization

/// Something that happened to the signed-in session.
public enum SessionEvent: Sendable, Equatable {
    case signedIn(userID: String)
    case refreshed
    case signedOut
    /// The server rejected the refresh token; the tokens were cleared and the user must sign in.
    case sessionExpired
    /// Rotated tokens could not be saved to the ``TokenStore``. The session goes on in memory;
    /// the spent tokens were removed from the store, so the next launch asks the user to sign in
    /// instead of replaying a spent refresh token (which would revoke the session).
    case tokenStorageFailed
}

/// Fans session events out to every subscriber; each ``subscribe()`` gets its own stream.
final class SessionEventBroadcaster: Sendable {
    private let continuations = Mutex<[Int: AsyncStream<SessionEvent>.Continuation]>([:])
    private let nextID = Mutex(0)

    func subscribe() -> AsyncStream<SessionEvent> {
        let id = nextID.withLock { value -> Int in
            value += 1
            return value
        }
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(32))
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return stream
    }

    func emit(_ event: SessionEvent) {
        let targets = continuations.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(event) }
    }
}
