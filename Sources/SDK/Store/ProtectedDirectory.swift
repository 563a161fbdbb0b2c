import Foundation

/// The platform's protection for a directory of the SDK's own files (the user stores, the session
/// directory).
///
/// On iOS, tvOS, watchOS and visionOS the files are encrypted until the device is first unlocked
/// after a restart (`completeUntilFirstUserAuthentication`: background sync still works once it
/// was); files created in the directory later inherit the class. On Apple platforms the directory
/// is excluded from backups: the server holds the data, a restored device signs in again.
/// Elsewhere nothing changes. Best effort: a failure keeps the platform's default.
enum ProtectedDirectory {
    static func protect(_ directory: URL) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: directory.path)
        #endif
        #if canImport(Darwin)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        var url = directory
        try? url.setResourceValues(values)
        #endif
    }
}
