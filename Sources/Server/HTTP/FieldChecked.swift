/// A body decoded through Foundation's `Decodable` (the `/v1/auth` bodies) whose members have
/// checks beyond their JSON kinds: ``RequestBody/decode(_:from:allowedKeys:limit:)`` lists their
/// errors before the body's unknown members, so an unknown member hides none of them.
protocol FieldChecked {
    /// The members' errors, in member order; empty when the body is valid.
    var fieldErrors: [APIError.FieldError] { get }
}
