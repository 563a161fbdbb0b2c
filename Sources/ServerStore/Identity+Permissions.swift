/// What a caller's role lets them write, for the HTTP layer to say which request members are
/// writable. The store enforces the same rules in its writes; they are stated here once.
extension Identity {
    /// Whether the caller may name a course's teacher (`teacher_id`): admins only; a teacher's
    /// courses are their own.
    package var choosesCourseTeachers: Bool { role == .admin }

    /// Whether the caller may change `userID`'s email and role besides the names: an admin, of
    /// someone else (their own role an admin changes through another admin).
    package func managesAccount(_ userID: String) -> Bool {
        role == .admin && userID != self.userID
    }
}
