/// A call on an ``OfflineSession`` whose user signed out.
///
/// Signing out seals the user's store and then deletes it, so a session the app still holds
/// (a view kept it, a task was still running) can neither read nor write any more. Its
/// repositories throw this instead of a database error; sign in again for a new session.
/// ``AppError`` shows it as a session that ended.
public enum OfflineSessionError: Error, Equatable, Sendable {
    /// The session's user signed out: its store is sealed or gone.
    case signedOut
}
