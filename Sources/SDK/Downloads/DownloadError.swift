import Foundation

/// Why a download did not complete.
public enum DownloadError: Error, Equatable, Sendable {
    /// The bytes received do not hash to the server's SHA-256: the file was deleted, nothing was
    /// made visible. Downloading again starts over.
    case checksumMismatch(expected: String, actual: String)
    /// The connection failed mid-way; the partial file and its validator are kept, and the next
    /// download of the lesson resumes where this one stopped.
    case interrupted(bytesReceived: Int64)
    /// The server answered with an error status (403 not enrolled, 404 no media, ...).
    case refused(status: Int, code: String?)
    /// The server's answer cannot be a media download (no `ETag`, a `Content-Range` that does not
    /// continue the partial file, ...).
    case invalidResponse(String)
    /// A course or lesson id that cannot be part of a URL path.
    case invalidIdentifier(String)
    /// The lesson is being downloaded already (by another call).
    case alreadyInProgress(lessonID: String)
    /// The server's certificate was refused before any request byte was sent:
    /// ``NetworkError/pinningFailed(host:)``, ``NetworkError/untrustedCertificate(host:)`` or a
    /// failed TLS handshake (``NetworkError/securityError(_:)``). Never waited on, never retried
    /// without the pins; a partial file is kept.
    case untrustedServer(NetworkError)
    /// The server's data was replaced (a snapshot restore or an import reset the device) and the
    /// lesson's media on the server is no longer the downloaded file's: the file was removed, never
    /// served as current. Download the lesson again.
    case changedOnServer(lessonID: String)
}
