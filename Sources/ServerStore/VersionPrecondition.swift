/// The version a change was based on, and where the client named it.
///
/// A stale base fails the change with ``StoreError/versionConflict(_:)``, carrying the current
/// state; the HTTP layer answers 412 when the client named it in `If-Match`, 409 when in the body.
package struct VersionPrecondition: Sendable {
    package enum Source: Sendable { case ifMatch, body, any }

    package var version: Int?
    package var source: Source
    /// Every version an `If-Match` list names: the change proceeds when any of them is current.
    package var alternatives: [Int] = []

    package init(version: Int?, source: Source, alternatives: [Int] = []) {
        self.version = version
        self.source = source
        self.alternatives = alternatives
    }

    /// Throws ``StoreError/versionConflict(_:)`` when the object has moved on from the base version.
    package func check(currentVersion: Int, current: @autoclosure () throws -> any Sendable) throws {
        guard let version, version != currentVersion, !alternatives.contains(currentVersion) else { return }
        throw StoreError.versionConflict(VersionConflict(base: self, currentVersion: currentVersion, current: try current()))
    }
}
