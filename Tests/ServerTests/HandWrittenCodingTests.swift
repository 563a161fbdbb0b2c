import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// The encoders written by hand for speed write what the default Codable path would: every
/// stored property, under its snake_case name, with the same value. A property added later and
/// left out of `encode(to:)` fails here instead of vanishing from the API.
@Suite(.timeLimit(.minutes(1))) struct HandWrittenCodingTests {
    /// Wraps a value of any Encodable type, so it can be encoded on its own.
    struct Box: Encodable {
        let value: any Encodable
        // Through a container, so the encoder's strategies (dates) apply as they do to a property.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    /// `camelCase` as `snake_case`, as `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` spells it.
    static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { text, character in
            if character.isUppercase { text += "_" + character.lowercased() } else { text.append(character) }
        }
    }

    /// What the default path gives for `value`: each stored property encoded on its own by the
    /// API's encoder, under its snake_case name (an absent optional as `null`, as the API writes it).
    static func defaultObject(of value: Any) throws -> [String: NSObject] {
        var object: [String: NSObject] = [:]
        for child in Mirror(reflecting: value).children {
            let label = try #require(child.label)
            let encodable = try #require(child.value as? any Encodable, "\(label) is not Encodable")
            let data = try APICoding.encoder.encode([Box(value: encodable)])
            let array = try #require(try JSONSerialization.jsonObject(with: data) as? [NSObject])
            guard let first = array.first else { throw CocoaError(.coderInvalidValue) }
            object[snakeCase(label)] = first
        }
        return object
    }

    static func course(thumbnail: String?) -> CourseRecord {
        CourseRecord(
            id: "course-1", title: "Álgebra", description: "Ecuaciones", category: "mathematics", thumbnailUrl: thumbnail,
            published: true, teacherId: "teacher-1", version: 3, createdAt: Date(timeIntervalSince1970: 1_800_000_000),
            updatedAt: Date(timeIntervalSince1970: 1_800_000_123))
    }

    @Test("CourseResponse's encode(to:) writes every stored property as the default Codable path does", arguments: ["https://cdn.example/a.png", nil])
    func courseResponseWritesEveryField(thumbnail: String?) throws {
        let response = CourseResponse(Self.course(thumbnail: thumbnail), lessonCount: 7)
        let written = try #require(try JSONSerialization.jsonObject(with: APICoding.encode(response)) as? [String: NSObject])
        #expect(written == (try Self.defaultObject(of: response)))
    }
}
