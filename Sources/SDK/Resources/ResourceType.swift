import Foundation

/// A kind of synced resource, by its name on the wire (the change feed's `type`): what a
/// ``ResourceKey`` names the kind of, and what a ``ConflictPolicy`` chooses a strategy for.
///
/// Each resource's descriptor declares its type (`ResourceType.progress`, `.profile`, …).
public struct ResourceType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name: `course`, `lesson`, `enrollment`, `progress`, `profile`.
    public let rawValue: String

    /// The type named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
