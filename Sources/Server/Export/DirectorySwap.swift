import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a fully written folder in place of another with `rename(2)`, so a reader of the target
/// path sees the old folder or the new one, never a mix, whenever the process stops.
enum DirectorySwap {
    /// Moves `new` to `target`.
    ///
    /// When `target` does not exist this is one rename. When it does, the two are exchanged in one
    /// atomic step (`renameat2(RENAME_EXCHANGE)` on Linux, `renamex_np(RENAME_SWAP)` on Apple
    /// platforms): afterwards `new`'s path holds what `target` held, for the caller to remove.
    /// Where the file system cannot exchange, the target is moved aside and the new folder renamed
    /// in, moving the old one back if that fails.
    ///
    /// - Returns: Where the replaced folder now is, or `nil` when nothing was replaced.
    static func install(_ new: URL, at target: URL) throws -> URL? {
        guard FileManager.default.fileExists(atPath: target.path) else {
            try move(new, to: target)
            return nil
        }
        if exchange(new, target) { return new }
        let aside = new.deletingLastPathComponent().appendingPathComponent(new.lastPathComponent + ".replaced")
        try move(target, to: aside)
        do {
            try move(new, to: target)
        } catch {
            try? move(aside, to: target)
            throw error
        }
        return aside
    }

    private static func move(_ source: URL, to destination: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw DataTransferError.io(
                path: destination.path, reason: "cannot rename \(source.lastPathComponent) into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Exchanges the two paths atomically; `false` where the system or file system cannot.
    private static func exchange(_ first: URL, _ second: URL) -> Bool {
        #if os(Linux)
        // glibc has exported renameat2 since 2.28, but its header declares it only with
        // _GNU_SOURCE, which Swift's Glibc module does not see: look it up by name.
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
        // Invariant: renameat2's C signature in glibc (since 2.28) is exactly RenameAt2.
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let renameExchange: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, first.path, AT_FDCWD, second.path, renameExchange) == 0
        #elseif canImport(Darwin)
        return renamex_np(first.path, second.path, UInt32(RENAME_SWAP)) == 0
        #else
        return false
        #endif
    }
}
