import Foundation

/// Where a lesson's download stands, as ``Downloads/download(lessonID:courseID:pinned:)`` reports it.
public struct DownloadProgress: Sendable, Equatable {
    /// The phases of a download.
    public enum State: Sendable, Equatable {
        /// Waiting for one of the ``Downloads/maxConcurrent`` slots.
        case queued
        /// Bytes are arriving (a resumed download starts at the bytes it already had).
        case downloading
        /// The connection was lost and the download waits for the ``ConnectivityMonitor`` to report
        /// the server reachable again; then it continues from the bytes it has (`Range` + `If-Range`).
        /// Only a ``Downloads`` made with a monitor waits; cancel the consuming task to stop waiting.
        case waitingForNetwork
        /// Every byte arrived; the SHA-256 is being checked.
        case verifying
        /// Verified and in place: the file at this URL is usable offline.
        case completed(URL)
    }

    /// The lesson being downloaded.
    public var lessonID: String
    /// Bytes of the file on disk so far (including those of an earlier, interrupted attempt).
    public var bytesReceived: Int64
    /// The file's size, once the server told it.
    public var totalBytes: Int64?
    /// The phase the download is in.
    public var state: State
}
