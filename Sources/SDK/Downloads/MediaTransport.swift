import Foundation

/// A GET of a lesson's media file, as ``Downloads`` sends it.
public struct MediaRequest: Sendable, Equatable {
    /// The media URL (`.../v1/courses/{id}/lessons/{lessonId}/media`).
    public var url: URL
    /// Header fields (`Authorization`, `Range`, `If-Range`).
    public var headers: [String: String]

    /// Creates a request. ``Downloads`` builds its own; custom transports and tests receive them.
    public init(url: URL, headers: [String: String]) {
        self.url = url
        self.headers = headers
    }
}

/// The status line and header fields of a media response (names lowercased).
public struct MediaResponseHead: Sendable, Equatable {
    /// The HTTP status: 200, 206 for a resumed range, or an error status.
    public var statusCode: Int
    /// The header fields, names lowercased.
    public var headers: [String: String]

    /// Creates a head. Header names are lowercased here, so a transport may pass them as received.
    public init(statusCode: Int, headers: [String: String]) {
        self.statusCode = statusCode
        var lowercased: [String: String] = [:]
        for (name, value) in headers { lowercased[name.lowercased()] = value }
        self.headers = lowercased
    }

    /// The value of a header field, by case-insensitive name.
    public subscript(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Streams a response body in chunks as it arrives, so a download's memory stays flat whatever the
/// file's size. The seam between ``Downloads`` and the network: tests wrap it to cut connections.
public protocol MediaTransport: Sendable {
    /// Sends `request`; calls `onHead` once with the response head, then `onChunk` for each piece
    /// of the body, in order, in the calling task.
    ///
    /// - Throws: The transport's error when the connection fails before or during the body, or
    ///   what `onHead` / `onChunk` throw.
    func fetch(
        _ request: MediaRequest, onHead: (MediaResponseHead) async throws -> Void,
        onChunk: (Data) async throws -> Void
    ) async throws
}
