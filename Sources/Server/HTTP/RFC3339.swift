import Foundation

/// Timestamps as the API writes them (`JSONEncoder`'s `.iso8601`): `2026-11-26T10:29:46Z`, UTC,
/// whole seconds, computed from the count of days without a calendar.
enum RFC3339 {
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, dayOfMonth) = civil(fromDays: day)
        guard (0...9999).contains(year) else {
            bytes.append(contentsOf: date.formatted(.iso8601).utf8)
            return
        }
        append(year, digits: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(month, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(dayOfMonth, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        append(second / 3600, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(second % 3600 / 60, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(second % 60, digits: 2, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// The proleptic Gregorian year, month and day of the day `days` after 1970-01-01
    /// (the era arithmetic of Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func append(_ value: Int64, digits: Int, to bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
