import Foundation
import Testing

/// Checks an RFC 9457 body decoded with the generated `Problem` type.
func expectProblem(
    _ problem: Components.Schemas.Problem, status: Int, code: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(problem.status == status, sourceLocation: sourceLocation)
    #expect(problem.code == code, sourceLocation: sourceLocation)
    #expect(problem._type == "urn:edugo:problem:\(code)", sourceLocation: sourceLocation)
    #expect(!problem.requestId.isEmpty, sourceLocation: sourceLocation)
}

/// Checks a `version_conflict` body decoded with the generated `VersionConflictProblem` type (412).
func expectVersionConflict(
    _ problem: Components.Schemas.VersionConflictProblem, status: Int, currentVersion: Int64,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(problem.status == status, sourceLocation: sourceLocation)
    #expect(problem.code == "version_conflict", sourceLocation: sourceLocation)
    #expect(problem.currentVersion == currentVersion, sourceLocation: sourceLocation)
}

extension Components.Schemas.Problem {
    /// The fields named in a `validation_failed` body.
    var invalidFields: Set<String> { Set((errors ?? []).map(\.field)) }
}
