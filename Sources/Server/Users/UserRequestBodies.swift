import EduGoServerStore

/// The body of `POST /v1/users` (admins create an account).
struct NewAccount: Sendable {
    static let keys: Set<String> = ["email", "password", "first_name", "last_name", "role"]

    var email: String
    var password: String
    var firstName: String
    var lastName: String
    var role: UserRecord.Role

    /// - Throws: `400 validation_failed` naming every invalid member.
    init(_ body: [String: JSONValue]) throws {
        try JSONObjectReader.checkKeys(body, known: Self.keys, writable: Self.keys)
        var reader = JSONObjectReader(body)
        let email = reader.string("email", required: true, length: 3...254)
        // A password is taken as sent (never trimmed); its rules are checked below.
        let password: String?
        if case .string(let raw) = body["password"] { password = raw } else {
            password = reader.string("password", required: true, length: 8...72)
        }
        let firstName = reader.string("first_name", required: true, length: 1...100)
        let lastName = reader.string("last_name", required: true, length: 1...100)
        let role = reader.oneOf("role", required: true, UserRecord.Role.allCases.map(\.rawValue))
            .flatMap(UserRecord.Role.init)
        // Validated as sent: a control or format character anywhere is refused, not trimmed.
        if email != nil, case .string(let raw)? = body["email"] { reader.add(UserValidation.email(raw)) }
        if let password { reader.add(UserValidation.password(password)) }
        (self.email, self.password, self.firstName, self.lastName, self.role) = try reader.values(
            email, password, firstName, lastName, role)
    }
}

extension UserChanges {
    static let keys: Set<String> = ["email", "first_name", "last_name", "role", "version"]
    /// What a user may change of their own account (admins included: an admin cannot lock
    /// themselves out by demoting themselves or changing their sign-in email).
    static let selfWritable: Set<String> = ["first_name", "last_name", "version"]

    /// Reads a `PATCH /v1/users/{id}` or `/v1/users/me` body whose members were checked against
    /// what the caller may write.
    ///
    /// - Throws: `400 validation_failed` naming every invalid member.
    init(_ body: [String: JSONValue]) throws {
        self.init()
        var reader = JSONObjectReader(body)
        firstName = reader.string("first_name", length: 1...100)
        lastName = reader.string("last_name", length: 1...100)
        email = reader.string("email", length: 3...254)
        if email != nil, case .string(let raw)? = body["email"] { reader.add(UserValidation.email(raw)) }
        role = reader.oneOf("role", UserRecord.Role.allCases.map(\.rawValue)).flatMap(UserRecord.Role.init)
        try reader.throwIfInvalid()
    }
}
