import Foundation

/// An answer kept for an `Idempotency-Key`, to be replayed as it was first sent: its status code,
/// headers and body bytes.
package struct StoredAnswer: Sendable, Equatable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data

    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
