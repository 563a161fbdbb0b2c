import Foundation

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// A duration from Foundation's seconds (negative values become zero).
    init(timeInterval: TimeInterval) {
        self = .milliseconds(Int((max(0, timeInterval) * 1000).rounded(.up)))
    }
}
