import Foundation

/// What a queued write changes: the key its outbox items, dead letters and conflicts carry.
///
/// Writes of one key replay in order, one at a time; writes of different keys may go side by side.
/// The store keeps a key as text (``description``) and reads it back with ``init(_:)``.
public enum ResourceKey: Hashable, Sendable, CustomStringConvertible {
    /// A learner's progress on one lesson: `progress/<course>/<lesson>`.
    case progress(course: String, lesson: String)
    /// The signed-in user's profile: `profile`.
    case profile
    /// The learner's enrollment in a course: `enrollment/<course>`.
    case enrollment(course: String)

    /// The key as the store keeps it. Ids are escaped (`%` as `%25`, `/` as `%2F`), so any id
    /// reads back as itself.
    public var description: String {
        switch self {
        case .progress(let course, let lesson): "progress/\(Self.escape(course))/\(Self.escape(lesson))"
        case .profile: "profile"
        case .enrollment(let course): "enrollment/\(Self.escape(course))"
        }
    }

    /// The key `text` names (as ``description`` wrote it), or `nil` when it names none.
    public init?(_ text: String) {
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        switch (parts.first, parts.count) {
        case ("profile", 1): self = .profile
        case ("enrollment", 2):
            guard let course = Self.unescape(parts[1]) else { return nil }
            self = .enrollment(course: course)
        case ("progress", 3):
            guard let course = Self.unescape(parts[1]), let lesson = Self.unescape(parts[2]) else { return nil }
            self = .progress(course: course, lesson: lesson)
        default: return nil
        }
    }

    /// The course the write is about, when it is about one.
    public var courseID: String? {
        switch self {
        case .progress(let course, _), .enrollment(let course): course
        case .profile: nil
        }
    }

    /// Whether the write is lesson progress.
    var isProgress: Bool {
        if case .progress = self { return true }
        return false
    }

    /// The key whose queued creation this one waits for (see <doc:OfflineSync>): progress in a
    /// course needs the enrollment in it, since the server answers 403 `not_enrolled` to progress
    /// of a learner not (yet) enrolled.
    var prerequisite: ResourceKey? {
        if case .progress(let course, _) = self { return .enrollment(course: course) }
        return nil
    }

    /// The stored form of every progress key of `course`, without its lesson: `progress/<course>/`.
    static func progressPrefix(course: String) -> String {
        "progress/\(escape(course))/"
    }

    private static func escape(_ id: String) -> String {
        // Ids are almost always plain (UUIDs): leave them untouched without a Foundation call.
        guard id.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") }) else { return id }
        return id.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
    }

    private static func unescape(_ part: String) -> String? {
        guard !part.isEmpty else { return nil }
        guard part.utf8.contains(UInt8(ascii: "%")) else { return part }
        return part.removingPercentEncoding
    }
}
