@_spi(EduGoInternals) @testable import EduGoSDK

extension AsyncStream where Element == SessionEvent {
    /// The events this subscription has received so far.
    ///
    /// Emits a private marker through `client` and reads up to it, so the answer is exact
    /// without waiting on a timeout.
    func received(from client: APIClient) async -> [SessionEvent] {
        let marker = SessionEvent.signedIn(userID: "__end_of_received_events__")
        client.events.emit(marker)
        var events: [SessionEvent] = []
        for await event in self {
            if event == marker { break }
            events.append(event)
        }
        return events
    }
}
