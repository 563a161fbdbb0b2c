import Foundation

/// A factory for every server operation.
extension Endpoint {
    // MARK: Unversioned

    /// `GET /health`.
    public static var health: Endpoint { Endpoint(.get, ["health"], version: nil, requiresAuthentication: false) }
    /// `GET /.well-known/jwks.json`.
    public static var jwks: Endpoint {
        Endpoint(.get, [".well-known", "jwks.json"], version: nil, requiresAuthentication: false)
    }

    // MARK: Auth

    /// Authentication operations.
    public enum Auth {
        public static var register: Endpoint { Endpoint(.post, ["auth", "register"], requiresAuthentication: false) }
        public static var login: Endpoint { Endpoint(.post, ["auth", "login"], requiresAuthentication: false) }
        public static var refresh: Endpoint { Endpoint(.post, ["auth", "refresh"], requiresAuthentication: false) }
        public static var logout: Endpoint { Endpoint(.post, ["auth", "logout"]) }
        public static var forgotPassword: Endpoint {
            Endpoint(.post, ["auth", "forgot-password"], requiresAuthentication: false)
        }
        public static var resetPassword: Endpoint {
            Endpoint(.post, ["auth", "reset-password"], requiresAuthentication: false)
        }
        public static var resendVerification: Endpoint {
            Endpoint(.post, ["auth", "resend-verification"], requiresAuthentication: false)
        }
        public static func verifyEmail(token: String) -> Endpoint {
            Endpoint(.post, ["auth", "verify-email"], query: [URLQueryItem(name: "token", value: token)], requiresAuthentication: false)
        }
        public static var me: Endpoint { Endpoint(.get, ["auth", "me"]) }
    }

    // MARK: Users

    /// User operations.
    public enum Users {
        public static func list(query: String? = nil, role: String? = nil, page: Int? = nil, limit: Int? = nil) -> Endpoint {
            let filters = [query.map { URLQueryItem(name: "q", value: $0) }, role.map { URLQueryItem(name: "role", value: $0) }]
            return Endpoint(.get, ["users"], query: filters.compactMap { $0 } + paging(page, limit))
        }
        public static var create: Endpoint { Endpoint(.post, ["users"]) }
        public static func search(_ query: String, page: Int? = nil, limit: Int? = nil) -> Endpoint {
            Endpoint(.get, ["users", "search"], query: [URLQueryItem(name: "q", value: query)] + paging(page, limit))
        }
        public static var me: Endpoint { Endpoint(.get, ["users", "me"]) }
        public static var updateMe: Endpoint { Endpoint(.patch, ["users", "me"]) }
        public static func myCourses(page: Int? = nil, limit: Int? = nil) -> Endpoint {
            Endpoint(.get, ["users", "me", "courses"], query: paging(page, limit))
        }
        public static func get(_ id: String) -> Endpoint { Endpoint(.get, ["users", id]) }
        public static func update(_ id: String) -> Endpoint { Endpoint(.patch, ["users", id]) }
        public static func delete(_ id: String) -> Endpoint { Endpoint(.delete, ["users", id]) }
    }

    // MARK: Courses, enrollment, lessons, progress

    /// Course operations, including enrollment, lessons and progress.
    public enum Courses {
        public static func list(category: String? = nil, page: Int? = nil, limit: Int? = nil) -> Endpoint {
            Endpoint(.get, ["courses"], query: [category.map { URLQueryItem(name: "category", value: $0) }].compactMap { $0 } + paging(page, limit))
        }
        public static var create: Endpoint { Endpoint(.post, ["courses"]) }
        public static func search(_ query: String, category: String? = nil, page: Int? = nil, limit: Int? = nil) -> Endpoint {
            let filters = [URLQueryItem(name: "q", value: query)] + [category.map { URLQueryItem(name: "category", value: $0) }].compactMap { $0 }
            return Endpoint(.get, ["courses", "search"], query: filters + paging(page, limit))
        }
        public static func get(_ id: String) -> Endpoint { Endpoint(.get, ["courses", id]) }
        public static func update(_ id: String) -> Endpoint { Endpoint(.patch, ["courses", id]) }
        public static func delete(_ id: String) -> Endpoint { Endpoint(.delete, ["courses", id]) }
        public static func enroll(_ id: String) -> Endpoint { Endpoint(.post, ["courses", id, "enrollment"]) }
        public static func unenroll(_ id: String) -> Endpoint { Endpoint(.delete, ["courses", id, "enrollment"]) }
        public static func lessons(_ id: String) -> Endpoint { Endpoint(.get, ["courses", id, "lessons"]) }
        public static func createLesson(_ id: String) -> Endpoint { Endpoint(.post, ["courses", id, "lessons"]) }
        public static func lesson(_ id: String, _ lessonID: String) -> Endpoint {
            Endpoint(.get, ["courses", id, "lessons", lessonID])
        }
        public static func updateLesson(_ id: String, _ lessonID: String) -> Endpoint {
            Endpoint(.patch, ["courses", id, "lessons", lessonID])
        }
        public static func deleteLesson(_ id: String, _ lessonID: String) -> Endpoint {
            Endpoint(.delete, ["courses", id, "lessons", lessonID])
        }
        public static func progress(_ id: String, userID: String? = nil) -> Endpoint {
            Endpoint(.get, ["courses", id, "progress"], query: [userID.map { URLQueryItem(name: "user_id", value: $0) }].compactMap { $0 })
        }
        public static func putProgress(_ id: String) -> Endpoint { Endpoint(.put, ["courses", id, "progress"]) }
    }
}
