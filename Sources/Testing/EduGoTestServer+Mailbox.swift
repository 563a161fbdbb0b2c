import Foundation

extension EduGoTestServer {
    /// A mail the dev backend sent (an address to verify, a password reset, a note that an account
    /// exists), as its mailbox keeps it instead of sending it.
    public struct Mail: Sendable, Equatable, Decodable {
        /// The address it went to.
        public var to: String
        /// `verify_email`, `reset_password` or `account_exists`.
        public var kind: String
        /// Its subject line.
        public var subject: String
        /// The token it carries (empty for `account_exists`).
        public var token: String
        /// When it was sent, by the server's clock.
        public var createdAt: Date
    }

    /// The mails sent in tenant `tenantID`, newest first, only those to `email` when given: a test
    /// of a password reset or an email verification reads its token here.
    public func mailbox(tenantID: String, to email: String? = nil) async throws -> [Mail] {
        var path = "/__dev/mailbox"
        if let email, let query = email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
            path += "?email=\(query)"
        }
        let mailbox: Mailbox = try await devRequest.send("GET", path, tenant: tenantID, expecting: 200)
        return mailbox.items
    }

    private struct Mailbox: Decodable {
        var items: [Mail]
    }
}
