/// Something that happened to the signed-in session.
public enum SessionEvent: Sendable, Equatable {
    /// A user signed in and their tokens were stored; `userID` is theirs.
    case signedIn(userID: String)
    /// The tokens were replaced by a refresh. Nothing for the user to do.
    case refreshed
    /// The session was ended on purpose (a logout or sign-out); the tokens are gone.
    case signedOut
    /// The server rejected the refresh token; the tokens were cleared and the user must sign in.
    case sessionExpired
    /// Rotated tokens could not be saved to the ``TokenStore``. The session goes on in memory;
    /// the spent tokens were removed from the store, so the next launch asks the user to sign in
    /// instead of replaying a spent refresh token (which would revoke the session).
    case tokenStorageFailed
}
