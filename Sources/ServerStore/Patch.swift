/// One member of a request body that changes a resource: left out (keep the stored value),
/// `null` (clear it), or a new value.
///
/// Only members the schema declares nullable are read as a `Patch`; the others are `Value?`,
/// since `null` is refused for them.
package enum Patch<Value: Sendable>: Sendable {
    case absent, null, value(Value)

    /// The new value, `nil` when the member was left out or `null`.
    package var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// Applies the change to a nullable stored property.
    package func apply(to target: inout Value?) {
        switch self {
        case .absent: break
        case .null: target = nil
        case .value(let value): target = value
        }
    }
}
