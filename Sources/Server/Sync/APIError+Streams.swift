import Foundation

extension APIError {
    /// `429 too_many_streams`: the user already holds the most event streams allowed.
    static func tooManyStreams(limit: Int) -> APIError {
        APIError(
            .tooManyRequests, code: "too_many_streams",
            detail: "This user already holds \(limit) open event streams. Close one, or retry later.",
            headers: [.retryAfter: "5"])
    }

    /// `503 stream_capacity`: the server holds the most event streams it serves.
    static let streamCapacity = APIError(
        .serviceUnavailable, code: "stream_capacity", detail: "The server holds all the event streams it serves. Retry later.",
        headers: [.retryAfter: "5"])
}
