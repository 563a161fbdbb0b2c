/// What each role may do, stated once: the store's writes judge the role they read again in the
/// transaction by these, and the HTTP layer the authenticated caller's role, to say which request
/// members are writable.
extension UserRecord.Role {
    /// Whether the role creates courses (their own; an admin for any teacher).
    package var createsCourses: Bool { self != .student }
    /// Whether the role names a course's teacher (`teacher_id`): a teacher's courses are their own.
    package var choosesCourseTeachers: Bool { self == .admin }
    /// Whether the role lists and searches the tenant's accounts.
    package var listsUsers: Bool { self != .student }
    /// Whether the role creates accounts for others, and changes their email and role.
    package var managesAccounts: Bool { self == .admin }
}

extension Identity {
    /// Whether the caller may change `userID`'s email and role besides the names: an admin, of
    /// someone else (their own role an admin changes through another admin).
    package func managesAccount(_ userID: String) -> Bool {
        role.managesAccounts && userID != self.userID
    }
}
