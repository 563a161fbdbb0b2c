import Foundation
import Testing

@testable import EduGoSDK

/// The SDK's models read the spec's examples of their schemas with the SDK's own decoder, and a
/// model that the SDK also sends writes them back field for field: a field renamed, retyped or
/// added on either side fails here.
@Suite(.timeLimit(.minutes(1))) struct SDKModelExampleTests {
    static func examples(_ schema: String) throws -> [Data] {
        try SchemaExamples.examples(of: schema, in: SpecDocument.loadText()).map {
            try JSONSerialization.data(withJSONObject: $0)
        }
    }

    /// Decodes every example of `schema` as `Model` and, when `roundTrip`, encodes it back.
    static func check<Model: Codable>(_ schema: String, as model: Model.Type) throws {
        for example in try examples(schema) {
            let decoded = try JSONCoding.decoder.decode(Model.self, from: example)
            let original = try #require(try JSONSerialization.jsonObject(with: example) as? NSDictionary)
            let written = try #require(try JSONSerialization.jsonObject(with: JSONCoding.encoder.encode(decoded)) as? NSDictionary)
            #expect(written == original, "\(schema): the SDK writes \(written), the spec's example is \(original)")
            // And every property of the model is a field of the example (an optional one the spec
            // lacks would otherwise decode as nil and go unnoticed)
            let fields = Set(original.allKeys.compactMap { $0 as? String })
            for child in Mirror(reflecting: decoded).children {
                let label = try #require(child.label)
                let name = label.reduce(into: "") { $0 += $1.isUppercase ? "_" + $1.lowercased() : String($1) }
                #expect(fields.contains(name), "\(schema): the SDK's \(label) is not a field of the spec's example")
            }
        }
    }

    @Test("the SDK's Course reads and writes the spec's Course examples")
    func course() throws { try Self.check("Course", as: Course.self) }

    @Test("the SDK's User reads and writes the spec's User examples")
    func user() throws { try Self.check("User", as: User.self) }

    @Test("the SDK's ProblemDetails reads the spec's Problem examples, field errors included")
    func problem() throws {
        for example in try Self.examples("Problem") {
            let problem = try JSONCoding.decoder.decode(ProblemDetails.self, from: example)
            #expect(problem.code == "validation_failed")
            #expect(problem.status == 400)
            #expect(problem.errors?.first?.field == "title")
        }
    }
}
