import Foundation
import Testing

@_spi(EduGoInternals) @testable import EduGoSDK

/// ``ResourceKey`` as the store keeps it: the text form reads back as the same key, whatever
/// the ids hold, and text that names no key is refused instead of guessed.
@Suite(.timeLimit(.minutes(1))) struct ResourceKeyTests {
    @Test("every key reads back from its text as itself", arguments: [
        ResourceKey.profile, .enrollment(course: "course-1"), .progress(course: "course-1", lesson: "lesson-1"),
        .progress(course: "a/b", lesson: "50%/x"), .enrollment(course: "%2F"), .progress(course: "ñ é", lesson: "%"),
    ])
    func roundTrip(key: ResourceKey) {
        #expect(ResourceKey(key.description) == key)
    }

    @Test("the text of today's keys is the text earlier versions stored")
    func storedForm() {
        #expect(ResourceKey.progress(course: "c-1", lesson: "l-1").description == "progress/c-1/l-1")
        #expect(ResourceKey.enrollment(course: "c-1").description == "enrollment/c-1")
        #expect(ResourceKey.profile.description == "profile")
    }

    @Test("text that names no key is refused", arguments: [
        "", "profile/x", "progress/c", "progress//l", "progress/c/", "enrollment/", "enrollment/a/b", "lesson/l-1", "progress/%zz/l",
    ])
    func refused(text: String) {
        #expect(ResourceKey(text) == nil)
    }

    @Test("a progress key of one course never shares the prefix of another's")
    func prefixesAreExact() {
        let prefix = ResourceKey.prefix(.progress, ids: ["c"])
        #expect(ResourceKey.progress(course: "c", lesson: "l").description.hasPrefix(prefix))
        #expect(!ResourceKey.progress(course: "c/d", lesson: "l").description.hasPrefix(prefix))
    }
}
