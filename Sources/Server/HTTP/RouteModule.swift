import Hummingbird

/// A folder's routes, as Hummingbird route collections by who may call them. ``buildRouter(_:)``
/// adds each collection to the router's group of that kind, behind its middlewares; a module
/// fills only the collections it needs.
protocol RouteModule {
    /// Routes anyone may call; the handler checks whatever it needs (a tenant header, a mailed token).
    var open: RouteCollection<EduGoRequestContext> { get }
    /// Routes only a caller with a valid access token of a live session may call
    /// (``AuthenticationMiddleware``), each write behind the ``IdempotencyMiddleware``.
    var authenticated: RouteCollection<EduGoRequestContext> { get }
    /// Authenticated routes whose request body is streamed with a size limit of its own: not
    /// behind the idempotency middleware (which reads the whole body) nor the JSON body limit.
    var streaming: RouteCollection<EduGoRequestContext> { get }
}

extension RouteModule {
    var open: RouteCollection<EduGoRequestContext> { RouteCollection(context: EduGoRequestContext.self) }
    var authenticated: RouteCollection<EduGoRequestContext> { RouteCollection(context: EduGoRequestContext.self) }
    var streaming: RouteCollection<EduGoRequestContext> { RouteCollection(context: EduGoRequestContext.self) }
}
