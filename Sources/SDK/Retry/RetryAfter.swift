import Foundation

/// Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
public enum RetryAfter {
    /// The wait a `Retry-After` value asks for.
    ///
    /// - Parameters:
    ///   - value: The header's value: seconds, or an HTTP-date.
    ///   - now: What an HTTP-date is measured from.
    /// - Returns: The wait (zero for a date in the past), or `nil` when the value is missing or
    ///   cannot be read.
    public static func parse(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = httpDate(value) else { return nil }
        let interval = date.timeIntervalSince(now)
        return .milliseconds(max(0, Int((interval * 1000).rounded(.up))))
    }

    private static func httpDate(_ value: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) { return date }
        }
        return nil
    }
}
