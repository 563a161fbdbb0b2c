import Foundation

/// `POST /v1/auth/register`.
struct RegisterRequest: Decodable, FieldChecked {
    static let keys: Set<String> = ["email", "password", "first_name", "last_name"]
    var email: String
    var password: String
    var firstName: String
    var lastName: String

    var fieldErrors: [APIError.FieldError] {
        [
            UserValidation.email(email), UserValidation.password(password),
            UserValidation.name(firstName, field: "first_name"), UserValidation.name(lastName, field: "last_name"),
        ].compactMap { $0 }
    }

    func validate() throws {
        let errors = fieldErrors
        if !errors.isEmpty { throw APIError.validation(errors) }
    }
}

/// `POST /v1/auth/login`.
struct LoginRequest: Decodable {
    static let keys: Set<String> = ["email", "password"]
    var email: String
    var password: String
}

/// `POST /v1/auth/refresh`.
struct RefreshRequest: Decodable {
    static let keys: Set<String> = ["refresh_token"]
    var refreshToken: String
}

/// `POST /v1/auth/forgot-password`.
struct ForgotPasswordRequest: Decodable {
    static let keys: Set<String> = ["email"]
    var email: String
}

/// `POST /v1/auth/reset-password`.
struct ResetPasswordRequest: Decodable {
    static let keys: Set<String> = ["token", "password"]
    var token: String
    var password: String
}

/// The answer to login and refresh.
struct TokenPairResponse: Encodable {
    var accessToken: String
    var refreshToken: String
    var expiresIn: Int
    var tokenType = "Bearer"
    var user: UserResponse
}

/// The answer to forgot-password, identical for known and unknown emails.
struct AcceptedResponse: Encodable {
    var status = "accepted"
}
