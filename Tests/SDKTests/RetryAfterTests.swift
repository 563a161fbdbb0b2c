import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

@Suite(.timeLimit(.minutes(2))) struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("delay-seconds parse as seconds")
    func seconds() {
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("  5 ", now: now) == .seconds(5))
    }

    @Test("an IMF-fixdate parses as the time left until it")
    func imfFixdate() {
        #expect(RetryAfter.parse(HTTPDate.string(now + .seconds(90)), now: now) == .seconds(90))
    }

    @Test("an obsolete RFC 850 date is understood too")
    func rfc850() {
        // 1_800_000_000 is Friday, 15 January 2027 08:00:00 GMT.
        #expect(RetryAfter.parse("Friday, 15-Jan-27 08:00:30 GMT", now: now) == .seconds(30))
    }

    @Test("a date in the past means no wait")
    func pastDate() {
        #expect(RetryAfter.parse(HTTPDate.string(now - .seconds(30)), now: now) == .zero)
    }

    @Test("missing, empty or unreadable values give no delay", arguments: [nil, "", "soon", "1.5", "Friday"])
    func unreadable(value: String?) {
        #expect(RetryAfter.parse(value, now: now) == nil)
    }
}
