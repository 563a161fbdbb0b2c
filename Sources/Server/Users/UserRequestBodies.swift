import EduGoServerStore

/// The body of `POST /v1/users` (admins create an account).
struct NewAccount: ValidatedBody, Sendable {
    static let keys = Set(CodingKeys.allCases.map(\.rawValue))

    var email: String
    /// Taken as sent (never trimmed); its rules are checked in ``validate(_:)``.
    var password: String
    var firstName: String
    var lastName: String
    var role: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email, password, role
        case firstName = "first_name"
        case lastName = "last_name"
    }

    mutating func validate(_ validation: inout FieldValidation) {
        let sentEmail = email
        validation.text(&email, CodingKeys.email, length: 3...254)
        validation.member(CodingKeys.password)
        validation.text(&firstName, CodingKeys.firstName, length: 1...100)
        validation.text(&lastName, CodingKeys.lastName, length: 1...100)
        validation.oneOf(&role, CodingKeys.role, UserRecord.Role.allCases.map(\.rawValue))
        // Validated as sent: a control or format character anywhere is refused, not trimmed.
        if validation.isValid(CodingKeys.email) { validation.add(UserValidation.email(sentEmail)) }
        if validation.isValid(CodingKeys.password) { validation.add(UserValidation.password(password)) }
    }

    /// The account's role, once validated.
    var accountRole: UserRecord.Role? { UserRecord.Role(rawValue: role) }
}

/// The body of `PATCH /v1/users/{id}` and `/v1/users/me`: a member left out keeps the stored value.
struct UserPatch: ValidatedBody, Sendable {
    static let keys: Set<String> = ["email", "first_name", "last_name", "role", "version"]
    /// What a user may change of their own account (admins included: an admin cannot lock
    /// themselves out by demoting themselves or changing their sign-in email).
    static let selfWritable: Set<String> = ["first_name", "last_name", "version"]

    var firstName: String?
    var lastName: String?
    var email: String?
    var role: String?

    enum CodingKeys: String, CodingKey {
        case email, role
        case firstName = "first_name"
        case lastName = "last_name"
    }

    mutating func validate(_ validation: inout FieldValidation) {
        validation.text(&firstName, CodingKeys.firstName, length: 1...100)
        validation.text(&lastName, CodingKeys.lastName, length: 1...100)
        let sentEmail = email
        validation.text(&email, CodingKeys.email, length: 3...254)
        // Validated as sent: a control or format character anywhere is refused, not trimmed.
        if email != nil, let sentEmail, validation.isValid(CodingKeys.email) {
            validation.add(UserValidation.email(sentEmail))
        }
        validation.oneOf(&role, CodingKeys.role, UserRecord.Role.allCases.map(\.rawValue))
    }

    /// The changes the store applies.
    var changes: UserChanges {
        UserChanges(firstName: firstName, lastName: lastName, email: email, role: role.flatMap(UserRecord.Role.init))
    }
}
