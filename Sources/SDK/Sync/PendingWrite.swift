import Foundation

/// A write a repository hands to the outbox. Not public API (`@_spi(EduGoInternals)`): apps write
/// through the repositories; the tests and benchmarks queue writes with ``Outbox/enqueue(_:)``.
@_spi(EduGoInternals) public struct PendingWrite: Sendable, Equatable {
    /// The resource it changes: writes of one resource replay in order.
    public var resource: ResourceKey
    /// What it does to the resource.
    public var operation: OutboxItem.Operation
    /// The HTTP method (the endpoint's).
    public var method: HTTPMethod
    /// Where it is sent.
    public var endpoint: Endpoint
    /// The JSON body without `version` (the outbox adds the base version when it sends).
    public var body: Data?
    /// The version the write is based on (`nil` for creations and first writes).
    public var baseVersion: Int?
    /// The server representation it is based on (for three-way merges).
    public var baseJson: Data?

    /// A write of `body` to `endpoint`, changing `resource`, based on `baseVersion`/`baseJson`.
    public init(
        resource: ResourceKey, operation: OutboxItem.Operation, endpoint: Endpoint, body: Data?, baseVersion: Int? = nil,
        baseJson: Data? = nil
    ) {
        self.resource = resource
        self.operation = operation
        self.method = endpoint.method
        self.endpoint = endpoint
        self.body = body
        self.baseVersion = baseVersion
        self.baseJson = baseJson
    }
}
