#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a key file is there, missing, or there but out of reach: only a missing file may be
/// created afresh.
enum KeyFileState: Equatable {
    case present
    case missing
    case inaccessible(reason: String)

    static func of(_ path: String) -> KeyFileState {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return .missing }
            return .inaccessible(reason: "its path cannot be examined: " + String(cString: strerror(code)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .inaccessible(reason: "it is not a regular file")
        }
        return .present
    }
}
