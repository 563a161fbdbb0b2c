import Foundation

/// A write a repository hands to the outbox.
public struct PendingWrite: Sendable, Equatable {
    public var resource: String
    public var operation: OutboxItem.Operation
    public var method: HTTPMethod
    public var endpoint: Endpoint
    /// The JSON body without `version` (the outbox adds the base version when it sends).
    public var body: Data?
    public var baseVersion: Int?
    public var baseJson: Data?

    public init(
        resource: String, operation: OutboxItem.Operation, endpoint: Endpoint, body: Data?, baseVersion: Int?,
        baseJson: Data?
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
