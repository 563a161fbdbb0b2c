import Hummingbird

/// The route a request is counted and logged under: the matched path template, or `unmatched`.
///
/// The template only, never the raw path: paths carry ids and query strings carry verification
/// and reset tokens.
struct RouteLabel: Sendable {
    /// The served path templates.
    let templates: Set<String>

    func label(for context: EduGoRequestContext) -> String {
        context.endpointPath.flatMap { templates.contains($0) ? $0 : nil } ?? "unmatched"
    }
}
