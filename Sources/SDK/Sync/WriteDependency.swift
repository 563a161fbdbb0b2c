/// Which queued write another one needs first.
///
/// Progress in a course needs the enrollment in it: the server answers 403 `not_enrolled` to
/// progress of a learner not (yet) enrolled. So while an enrollment in a course is queued, the
/// progress writes of that course wait for it to settle (sent, or refused), and a `not_enrolled`
/// answer that meets a queued enrollment waits for it instead of becoming a dead letter.
enum WriteDependency {
    /// The resource whose queued creation `resource` waits for: `enrollment/<course>` for
    /// `progress/<course>/<lesson>`, else `nil`.
    static func prerequisite(of resource: String) -> String? {
        let parts = resource.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "progress", !parts[1].isEmpty else { return nil }
        return "enrollment/\(parts[1])"
    }
}
