import Foundation

/// What the server says of a downloaded file's media when ``Downloads`` asks again after a reset
/// (``DownloadRecord/needsCheck``): decided from the answer to a conditional `GET` (`If-None-Match`
/// with the file's `ETag`) whose body is never read.
enum MediaCheck: Equatable, Sendable {
    /// The server's media is the file's: it is served as current again.
    case current
    /// The server's media is another one, or there is none: the file is stale and is removed.
    case changed
    /// The server could not say (unreachable, or an error status): the file is not served as
    /// current, and the next use asks again.
    case unknown

    /// The decision for an answer of `status` carrying `etag`, about a file recorded with `recorded`.
    static func decide(status: Int, etag: String?, recorded: String) -> MediaCheck {
        switch status {
        case 304:
            return .current
        case 200, 206:
            // A server that ignores `If-None-Match` still names its media.
            return etag == recorded ? .current : .changed
        case 404, 410:
            return .changed
        default:
            return .unknown
        }
    }
}
