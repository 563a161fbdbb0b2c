import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `Mutex` that ThreadSanitizer sees as locked: every lock in the package is one.
///
/// On Linux, `Synchronization.Mutex` locks with a raw `futex` system call
/// (`_SynchronizationShims.h`), which ThreadSanitizer does not intercept: it sees no ordering
/// between two threads' `withLock` and reports every access inside as a race (a correctly locked
/// two-thread program reports "Swift access race"; see CONTRIBUTING.md, "Sanitizers"). Under the
/// sanitizer, each `withLock` here also tells it that the lock was taken and given back
/// (`__tsan_acquire` and `__tsan_release` on a token of this lock), so it reports only real
/// races. Without the sanitizer those functions do not exist and nothing more happens than
/// `Mutex.withLock`.
public struct Guarded<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    /// The address ThreadSanitizer knows this lock by (an object's, so it is stable).
    @usableFromInline let token = Token()

    /// A lock's identity for ThreadSanitizer.
    public final class Token: Sendable {
        @usableFromInline init() {}
    }

    /// - Parameter value: the value the lock guards.
    public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value while holding the lock.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock { [token] (value: inout sending Value) throws(Failure) -> sending Result in
            let address = UnsafeRawPointer(Unmanaged.passUnretained(token).toOpaque())
            ThreadSanitizer.acquire?(address)
            defer { ThreadSanitizer.release?(address) }
            return try body(&value)
        }
    }
}

/// ThreadSanitizer's annotation functions, found at run time: present only in a sanitized build.
@usableFromInline
enum ThreadSanitizer {
    @usableFromInline typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void

    @usableFromInline static let acquire = annotation("__tsan_acquire")
    @usableFromInline static let release = annotation("__tsan_release")

    private static func annotation(_ name: String) -> Annotation? {
        // RTLD_DEFAULT: the process's own symbols (the sanitizer's runtime is linked into it).
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Annotation.self) }
    }
}
