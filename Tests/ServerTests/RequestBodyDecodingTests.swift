import Foundation
import Testing

@testable import EduGoServer
@testable import EduGoServerStore

/// Request bodies decode through `Decodable` over the bounded parser's `JSONValue`, then one
/// validation pass: every member's error at once, in the order the members are checked, each
/// member at most once, with the codes and messages of the contract.
@Suite(.timeLimit(.minutes(1))) struct RequestBodyDecodingTests {
    static func object(_ json: String) throws -> [String: JSONValue] {
        guard case .object(let object) = try JSONParser.parse(Data(json.utf8)) else { throw JSONParser.Failure.malformed }
        return object
    }

    static func errors<Body: ValidatedBody>(_ type: Body.Type, _ json: String) throws -> [APIError.FieldError] {
        do {
            _ = try RequestBody.decode(type, from: object(json))
            return []
        } catch let error as APIError {
            #expect(error.code == "validation_failed")
            return error.errors
        }
    }

    @Test("a new course with every member wrong names each member once, in order, with its code and message")
    func everyMemberAtOnce() throws {
        let errors = try Self.errors(
            CourseDraft.self,
            #"{"title": 5, "description": null, "category": "cooking", "thumbnail_url": 3, "published": "yes", "teacher_id": ""}"#)

        #expect(
            errors == [
                .init(field: "title", code: "invalid_type", message: "must be a string"),
                .init(field: "description", code: "invalid_type", message: "must be a string"),
                .init(
                    field: "category", code: "invalid_value",
                    message: "must be one of: \(CourseRecord.categories.joined(separator: ", "))"),
                .init(field: "thumbnail_url", code: "invalid_type", message: "must be a string or null"),
                .init(field: "published", code: "invalid_type", message: "must be a boolean"),
                .init(field: "teacher_id", code: "too_short", message: "must be 1 to 64 characters"),
            ])
    }

    @Test("a required member left out is required; stored text is trimmed; a blank title is refused")
    func requiredAndTrimmed() throws {
        #expect(
            try Self.errors(CourseDraft.self, #"{"category": "arts"}"#)
                == [.init(field: "title", code: "required", message: "is required")])
        #expect(
            try Self.errors(CourseDraft.self, #"{"title": "   ", "category": "arts"}"#)
                == [.init(field: "title", code: "blank", message: "must not be blank")])

        let draft = try RequestBody.decode(CourseDraft.self, from: Self.object(#"{"title": "  Álgebra \n", "category": "arts"}"#))
        #expect(draft.title == "Álgebra")
        #expect(draft.description == nil)
    }

    @Test("a PATCH body tells a member left out from one sent as null")
    func patchAbsentNullValue() throws {
        let absent = try RequestBody.decode(CoursePatch.self, from: Self.object("{}"))
        let null = try RequestBody.decode(CoursePatch.self, from: Self.object(#"{"thumbnail_url": null}"#))
        let value = try RequestBody.decode(CoursePatch.self, from: Self.object(#"{"thumbnail_url": "https://cdn.example/a.png"}"#))

        #expect(absent.changes.thumbnailUrl.isAbsent)
        #expect(null.changes.thumbnailUrl.isNull)
        #expect(value.changes.thumbnailUrl.value == "https://cdn.example/a.png")
        #expect(
            try Self.errors(CoursePatch.self, #"{"thumbnail_url": "ftp://x"}"#)
                == [.init(field: "thumbnail_url", code: "invalid_format", message: "must be an http(s) URL")])
    }

    @Test("an id another object is named by follows the schema's Id: no slash or backslash, not dots only")
    func identifiers() throws {
        for bad in [#"\\"#, "a/b", ".", "...", String(repeating: "a", count: 65)] {
            let errors = try Self.errors(ProgressBody.self, #"{"lesson_id": \#(JSONString(bad))}"#)
            #expect(errors.map(\.field) == ["lesson_id"], "\(bad)")
            #expect(errors.map(\.code) == [bad.count > 64 ? "too_long" : "invalid_format"], "\(bad)")
        }
        for good in ["3f1c2a8e-5b7d-4e2f-9a10-6c4d8b2e7f01", ".a", "a.b", "ñ"] {
            #expect(try Self.errors(ProgressBody.self, #"{"lesson_id": \#(JSONString(good))}"#) == [], "\(good)")
        }
    }

    @Test("null is refused where the schema does not allow it, and an integer member refuses a fraction")
    func strictKinds() throws {
        #expect(
            try Self.errors(CoursePatch.self, #"{"title": null, "published": null}"#) == [
                .init(field: "title", code: "invalid_type", message: "must be a string"),
                .init(field: "published", code: "invalid_type", message: "must be a boolean"),
            ])
        #expect(
            try Self.errors(NewLesson.self, #"{"title": "T", "order": 1.5, "duration_minutes": 1441}"#) == [
                .init(field: "order", code: "invalid_type", message: "must be an integer"),
                .init(field: "duration_minutes", code: "out_of_range", message: "must be between 0 and 1440"),
            ])
    }

    @Test("an account's address rules are listed after its members; a profile's right after the address")
    func ruleErrorsKeepTheirPlace() throws {
        let account = try Self.errors(
            NewAccount.self,
            #"{"email": "not-an-address", "password": "long enough", "first_name": "A", "last_name": "B", "role": "owner"}"#)
        #expect(account.map(\.field) == ["role", "email"])

        let profile = try Self.errors(UserPatch.self, #"{"email": "not-an-address", "role": "owner"}"#)
        #expect(profile.map(\.field) == ["email", "role"])
    }
}

/// `value` as a JSON string literal.
private func JSONString(_ value: String) -> String {
    String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
}

extension Patch {
    fileprivate var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    fileprivate var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
