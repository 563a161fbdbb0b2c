import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// A body that writes its own JSON (``JSONWritable``) writes what the API's encoder writes from
/// its `Encodable` conformance: the same members with the same values, every string escaped so it
/// reads back unchanged, every timestamp spelled byte for byte as `.iso8601` spells it.
@Suite(.timeLimit(.minutes(1))) struct JSONWritableTests {
    /// Strings that need escaping or are not ASCII, beside random ones.
    static let awkward = [
        "", "plain", "quote \" and backslash \\", "slash / stays", "tab\tnew\nline\rreturn",
        "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1f}\u{7f}", "Matemáticas", "日本語", "emoji 🎓👩🏽‍🏫", "\u{2028}\u{2029}",
        "</script>", "'single'",
    ]

    static func text(_ random: inout SeededGenerator) -> String {
        if Bool.random(using: &random) { return awkward.randomElement(using: &random) ?? "" }
        let scalars = (0..<Int.random(in: 0...12, using: &random)).compactMap { _ in
            Unicode.Scalar(UInt32.random(in: 0...0x2FFF, using: &random))
        }
        return String(String.UnicodeScalarView(scalars))
    }

    static func course(_ random: inout SeededGenerator) -> CourseResponse {
        // Any millisecond from 1970 to 2200, as the store keeps them.
        let created = Date(timeIntervalSince1970: Double(Int64.random(in: 0...7_258_118_400_000, using: &random)) / 1000)
        let record = CourseRecord(
            id: RecordID.make(using: &random), title: text(&random), description: text(&random), category: text(&random),
            thumbnailUrl: Bool.random(using: &random) ? nil : text(&random), published: Bool.random(using: &random),
            teacherId: RecordID.make(using: &random), version: Int.random(in: 1...Int(Int32.max), using: &random),
            createdAt: created, updatedAt: created.addingTimeInterval(Double(Int.random(in: 0...999_999, using: &random)) / 1000))
        return CourseResponse(record, lessonCount: Int.random(in: 0...500, using: &random))
    }

    static func lesson(_ random: inout SeededGenerator) -> LessonResponse {
        let created = Date(timeIntervalSince1970: Double(Int64.random(in: 0...7_258_118_400_000, using: &random)) / 1000)
        let hasMedia = Bool.random(using: &random)
        let record = LessonRecord(
            id: RecordID.make(using: &random), courseId: RecordID.make(using: &random), title: text(&random),
            content: text(&random), order: Int.random(in: 1...500, using: &random),
            durationMinutes: Int.random(in: 0...10_000, using: &random),
            videoUrl: Bool.random(using: &random) ? nil : text(&random), version: Int.random(in: 1...Int(Int32.max), using: &random),
            createdAt: created, updatedAt: created.addingTimeInterval(Double(Int.random(in: 0...999_999, using: &random)) / 1000),
            mediaContentType: hasMedia ? text(&random) : nil, mediaSize: hasMedia ? Int.random(in: 0...Int(Int32.max), using: &random) : nil,
            mediaSHA256: hasMedia ? text(&random) : nil, mediaUpdatedAt: hasMedia ? created : nil, mediaFile: hasMedia ? "f" : nil)
        return LessonResponse(record)
    }

    static func object(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSDictionary)
    }

    @Test("a course page written by hand reads back as the encoder's, over 300 random pages")
    func pagesMatchTheEncoder() throws {
        var random = SeededGenerator(seed: 2026)
        for round in 0..<300 {
            let items = (0..<Int.random(in: 0...20, using: &random)).map { _ in
                (item: Self.course(&random), key: PageCursor(timestamp: "2026-11-26 10:00:00.000", id: "c\(round)"))
            }
            let after = Bool.random(using: &random) ? PageCursor(timestamp: "2026-01-01 00:00:00.000", id: "a") : nil
            let pagination = Pagination(page: Int.random(in: 1...50, using: &random), limit: 10, after: after)
            let page = ListPage(rows: items, pagination: pagination, total: after == nil ? items.count : nil)

            let written = page.jsonData
            let encoded = try APICoding.snakeKeyedEncoder.encode(page)
            #expect(try Self.object(written) == Self.object(encoded), "round \(round)")
        }
    }

    @Test("a lesson list and a lesson written by hand read back as the encoder's, with and without media, over 300 random lists")
    func lessonsMatchTheEncoder() throws {
        var random = SeededGenerator(seed: 2027)
        for round in 0..<300 {
            let list = LessonList(items: (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.lesson(&random) })
            #expect(try Self.object(list.jsonData) == Self.object(try APICoding.encoder.encode(list)), "round \(round)")
            for lesson in list.items {
                #expect(try Self.object(lesson.jsonData) == Self.object(try APICoding.encoder.encode(lesson)), "round \(round)")
            }
        }
    }

    @Test("timestamps are spelled as the encoder's .iso8601 spells them, byte for byte")
    func timestampsMatchTheEncoder() throws {
        var random = SeededGenerator(seed: 11)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var dates = [0, 86_399.999, 86_400, 951_782_400, 4_107_542_399.5, 7_258_118_399.999].map(Date.init(timeIntervalSince1970:))
        dates += (0..<2_000).map { _ in
            Date(timeIntervalSince1970: Double(Int64.random(in: 0...7_258_118_400_000, using: &random)) / 1000)
        }
        for date in dates {
            var json = JSONBytes()
            json.date(date)
            #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: try encoder.encode(date), as: UTF8.self))
        }
    }

    @Test("a string written by hand reads back unchanged, whatever it holds")
    func stringsRoundTrip() throws {
        var random = SeededGenerator(seed: 7)
        let strings = Self.awkward + (0..<1_000).map { _ in Self.text(&random) }
        for string in strings {
            var json = JSONBytes()
            json.beginArray()
            json.string(string)
            json.endArray()
            let read = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String])
            #expect(read == [string])
        }
    }
}
