import Foundation

/// An answer kept for an `Idempotency-Key`, to be replayed as it was first sent: its status code,
/// headers and body bytes.
struct StoredAnswer: Sendable, Equatable {
    var status: Int
    var headers: [String: String]
    var body: Data

    init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
