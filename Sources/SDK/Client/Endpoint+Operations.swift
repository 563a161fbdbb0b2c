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
        /// `POST /v1/auth/register`: asks for an account; sent without a token.
        public static var register: Endpoint { Endpoint(.post, ["auth", "register"], requiresAuthentication: false) }
        /// `POST /v1/auth/login`: exchanges an email and a password for tokens.
        public static var login: Endpoint { Endpoint(.post, ["auth", "login"], requiresAuthentication: false) }
        /// `POST /v1/auth/refresh`: exchanges a refresh token for new tokens. The SDK calls it itself.
        public static var refresh: Endpoint { Endpoint(.post, ["auth", "refresh"], requiresAuthentication: false) }
        /// `POST /v1/auth/logout`: revokes the current session on the server.
        public static var logout: Endpoint { Endpoint(.post, ["auth", "logout"]) }
        /// `POST /v1/auth/forgot-password`: asks for a password-reset mail.
        public static var forgotPassword: Endpoint {
            Endpoint(.post, ["auth", "forgot-password"], requiresAuthentication: false)
        }
        /// `POST /v1/auth/reset-password`: sets a new password with the token from the reset mail.
        public static var resetPassword: Endpoint {
            Endpoint(.post, ["auth", "reset-password"], requiresAuthentication: false)
        }
        /// `POST /v1/auth/resend-verification`: asks for a new verification mail.
        public static var resendVerification: Endpoint {
            Endpoint(.post, ["auth", "resend-verification"], requiresAuthentication: false)
        }
        /// `POST /v1/auth/verify-email?token=…`: confirms an email with the token from the mail.
        public static func verifyEmail(token: String) -> Endpoint {
            Endpoint(.post, ["auth", "verify-email"], query: [URLQueryItem(name: "token", value: token)], requiresAuthentication: false)
        }
        /// `GET /v1/auth/me`: the signed-in user.
        public static var me: Endpoint { Endpoint(.get, ["auth", "me"]) }
    }

    // MARK: Users

    /// User operations.
    public enum Users {
        /// `GET /v1/users`: a page of users, filtered by text and role.
        ///
        /// - Parameters:
        ///   - query: Text the users must match (`q`).
        ///   - role: Only users with this role (`student`, `teacher`, `admin`).
        ///   - page: The page to return; the server's default when `nil`.
        ///   - limit: Users per page; the server's default when `nil`.
        public static func list(query: String? = nil, role: String? = nil, page: Int? = nil, limit: Int? = nil, after: String? = nil) -> Endpoint {
            let filters = [query.map { URLQueryItem(name: "q", value: $0) }, role.map { URLQueryItem(name: "role", value: $0) }]
            return Endpoint(.get, ["users"], query: filters.compactMap { $0 } + paging(page, limit, after: after))
        }
        /// `POST /v1/users`: creates a user.
        public static var create: Endpoint { Endpoint(.post, ["users"]) }
        /// `GET /v1/users/search?q=…`: the users matching `query`, a page at a time.
        public static func search(_ query: String, page: Int? = nil, limit: Int? = nil, after: String? = nil) -> Endpoint {
            Endpoint(.get, ["users", "search"], query: [URLQueryItem(name: "q", value: query)] + paging(page, limit, after: after))
        }
        /// `GET /v1/users/me`: the signed-in user's profile.
        public static var me: Endpoint { Endpoint(.get, ["users", "me"]) }
        /// `PATCH /v1/users/me`: changes the signed-in user's profile.
        public static var updateMe: Endpoint { Endpoint(.patch, ["users", "me"]) }
        /// `GET /v1/users/me/courses`: the courses the signed-in user is enrolled in, each with their
        /// progress (``EnrolledCourse``).
        public static func myCourses(page: Int? = nil, limit: Int? = nil, after: String? = nil) -> Endpoint {
            Endpoint(.get, ["users", "me", "courses"], query: paging(page, limit, after: after))
        }
        /// `GET /v1/users/{id}`: one user.
        public static func get(_ id: String) -> Endpoint { Endpoint(.get, ["users", id]) }
        /// `PATCH /v1/users/{id}`: changes a user.
        public static func update(_ id: String) -> Endpoint { Endpoint(.patch, ["users", id]) }
        /// `DELETE /v1/users/{id}`: deletes a user.
        public static func delete(_ id: String) -> Endpoint { Endpoint(.delete, ["users", id]) }
    }

    // MARK: Courses, enrollment, lessons, progress

    /// Course operations, including enrollment, lessons and progress.
    public enum Courses {
        /// `GET /v1/courses`: a page of courses, of one category when `category` is given. Continue
        /// with `after` set to the previous page's ``Page/next`` (`page` is kept for old clients).
        public static func list(category: String? = nil, page: Int? = nil, limit: Int? = nil, after: String? = nil) -> Endpoint {
            Endpoint(.get, ["courses"], query: [category.map { URLQueryItem(name: "category", value: $0) }].compactMap { $0 } + paging(page, limit, after: after))
        }
        /// `POST /v1/courses`: creates a course.
        public static var create: Endpoint { Endpoint(.post, ["courses"]) }
        /// `GET /v1/courses/search?q=…`: the courses matching `query`, of one category when `category`
        /// is given.
        public static func search(_ query: String, category: String? = nil, page: Int? = nil, limit: Int? = nil, after: String? = nil) -> Endpoint {
            let filters = [URLQueryItem(name: "q", value: query)] + [category.map { URLQueryItem(name: "category", value: $0) }].compactMap { $0 }
            return Endpoint(.get, ["courses", "search"], query: filters + paging(page, limit, after: after))
        }
        /// `GET /v1/courses/{id}`: one course.
        public static func get(_ id: String) -> Endpoint { Endpoint(.get, ["courses", id]) }
        /// `PATCH /v1/courses/{id}`: changes a course.
        public static func update(_ id: String) -> Endpoint { Endpoint(.patch, ["courses", id]) }
        /// `DELETE /v1/courses/{id}`: deletes a course.
        public static func delete(_ id: String) -> Endpoint { Endpoint(.delete, ["courses", id]) }
        /// `POST /v1/courses/{id}/enrollment`: enrolls the signed-in user in the course.
        public static func enroll(_ id: String) -> Endpoint { Endpoint(.post, ["courses", id, "enrollment"]) }
        /// `DELETE /v1/courses/{id}/enrollment`: ends the signed-in user's enrollment in the course.
        public static func unenroll(_ id: String) -> Endpoint { Endpoint(.delete, ["courses", id, "enrollment"]) }
        /// `GET /v1/courses/{id}/lessons`: the course's lessons (a ``LessonList``).
        public static func lessons(_ id: String) -> Endpoint { Endpoint(.get, ["courses", id, "lessons"]) }
        /// `POST /v1/courses/{id}/lessons`: adds a lesson to the course.
        public static func createLesson(_ id: String) -> Endpoint { Endpoint(.post, ["courses", id, "lessons"]) }
        /// `GET /v1/courses/{id}/lessons/{lessonID}`: one lesson.
        public static func lesson(_ id: String, _ lessonID: String) -> Endpoint {
            Endpoint(.get, ["courses", id, "lessons", lessonID])
        }
        /// `PATCH /v1/courses/{id}/lessons/{lessonID}`: changes a lesson.
        public static func updateLesson(_ id: String, _ lessonID: String) -> Endpoint {
            Endpoint(.patch, ["courses", id, "lessons", lessonID])
        }
        /// `DELETE /v1/courses/{id}/lessons/{lessonID}`: deletes a lesson.
        public static func deleteLesson(_ id: String, _ lessonID: String) -> Endpoint {
            Endpoint(.delete, ["courses", id, "lessons", lessonID])
        }
        /// `GET /v1/courses/{id}/progress`: the signed-in learner's progress in the course, or with
        /// `userID` another learner's, where the server allows it.
        public static func progress(_ id: String, userID: String? = nil) -> Endpoint {
            Endpoint(.get, ["courses", id, "progress"], query: [userID.map { URLQueryItem(name: "user_id", value: $0) }].compactMap { $0 })
        }
        /// `PUT /v1/courses/{id}/progress`: records a lesson's progress (a ``ProgressUpdate`` body).
        public static func putProgress(_ id: String) -> Endpoint { Endpoint(.put, ["courses", id, "progress"]) }
    }

    // MARK: Sync

    /// The change feed.
    public enum Sync {
        /// `GET /v1/sync/changes`: what changed after `cursor` as the caller sees it (a base sync
        /// without one), at most `limit` changes.
        public static func changes(cursor: String? = nil, limit: Int? = nil) -> Endpoint {
            let items = [
                cursor.map { URLQueryItem(name: "cursor", value: $0) },
                limit.map { URLQueryItem(name: "limit", value: String($0)) },
            ]
            return Endpoint(.get, ["sync", "changes"], query: items.compactMap { $0 })
        }

        /// `GET /v1/sync/events`: the live stream of server-sent events that says when to pull.
        public static var events: Endpoint { Endpoint(.get, ["sync", "events"]) }
    }
}
