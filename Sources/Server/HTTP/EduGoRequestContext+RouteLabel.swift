import Hummingbird

extension EduGoRequestContext {
    /// The route a request is counted and logged under: the matched path template, or `unmatched`.
    ///
    /// The template only, never the raw path: paths carry ids and query strings carry verification
    /// and reset tokens. The router writes a matched route's template (which starts with `/`) into
    /// `endpointPath`, and `NotFound` when no route matched.
    var routeLabel: String {
        endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "unmatched"
    }
}
