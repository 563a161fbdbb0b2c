import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A download's partial file, open for appending a block per `write`, and flushed to storage
/// before it is moved into place.
///
/// On Linux a block whose length and file offset are multiples of ``directAlignment`` is written
/// with direct I/O (`O_DIRECT`): the disk reads it from memory, it is not copied into the page
/// cache, and the flush before the move (``synchronize()``, an `fdatasync`) has only the file's
/// size and its last, unaligned bytes left to write, instead of the whole file. The page cache
/// takes what direct I/O cannot: a filesystem that refuses it, a resume at an unaligned offset, the
/// body's last bytes, and the bytes an interrupted attempt keeps. Elsewhere every block goes
/// through the page cache.
final class BlockFile {
    /// The alignment of a direct write's memory, length and file offset (the largest logical block
    /// size of common disks).
    static let directAlignment = 4096

    private let descriptor: Int32
    /// Where direct writes are copied from: aligned memory of one block, `nil` without direct I/O.
    private let staging: UnsafeMutableRawBufferPointer?
    private var direct: Bool
    private var offset: Int64
    private var isOpen = true

    /// Opens `url` (created when missing) for appending blocks of at most `blockSize` bytes.
    ///
    /// - Throws: A `POSIXError` when the file cannot be opened.
    init(appendingTo url: URL, blockSize: Int) throws {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC
        var descriptor: Int32 = -1
        var direct = false
        if let directFlag = Self.directFlag {
            descriptor = openFile(url.path, flags | directFlag)
            direct = descriptor >= 0
        }
        if descriptor < 0 { descriptor = openFile(url.path, flags) }
        guard descriptor >= 0 else { throw Self.lastError() }
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else {
            let error = Self.lastError()
            _ = closeFile(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.offset = Int64(end)
        self.direct = direct
        if direct, blockSize >= Self.directAlignment {
            staging = UnsafeMutableRawBufferPointer.allocate(
                byteCount: blockSize / Self.directAlignment * Self.directAlignment, alignment: Self.directAlignment)
        } else {
            staging = nil
        }
        if direct, staging == nil || offset % Int64(Self.directAlignment) != 0 { stopDirectIO() }
    }

    deinit {
        if isOpen { _ = closeFile(descriptor) }
        staging?.deallocate()
    }

    /// Whether the file is open for direct I/O (`O_DIRECT` set on its descriptor): the next aligned
    /// block bypasses the page cache.
    var usesDirectIO: Bool {
        guard let directFlag = Self.directFlag, isOpen else { return false }
        return fcntl(descriptor, F_GETFL) & directFlag != 0
    }

    /// Appends `bytes`: with direct I/O when they and the file's end are aligned (see ``BlockFile``).
    ///
    /// - Throws: A `POSIXError` with the write's error (`ENOSPC` when the disk is full, ...).
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        if direct, let staging, bytes.count <= staging.count, bytes.count % Self.directAlignment == 0,
            offset % Int64(Self.directAlignment) == 0 {
            // Invariant: bytes.count <= staging.count (checked above), so the copy and the rebased slice stay inside it (BlockFileTests).
            staging.copyMemory(from: bytes)
            try writeAll(UnsafeRawBufferPointer(rebasing: staging[..<bytes.count]))
            return
        }
        // Unaligned bytes go through the page cache, and so does every block after them.
        if direct { stopDirectIO() }
        try writeAll(bytes)
    }

    /// Flushes the file's bytes and size to storage (`fdatasync` on Linux, `fsync` elsewhere).
    ///
    /// - Throws: A `POSIXError` when the flush fails.
    func synchronize() throws {
        #if os(Linux)
        let result = fdatasync(descriptor)
        #else
        let result = fsync(descriptor)
        #endif
        guard result == 0 else { throw Self.lastError() }
    }

    /// Closes the file; later calls do nothing.
    ///
    /// - Throws: A `POSIXError` when `close` reports a failed write.
    func close() throws {
        guard isOpen else { return }
        isOpen = false
        guard closeFile(descriptor) == 0 else { throw Self.lastError() }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let count = write(descriptor, base + done, bytes.count - done)
            if count >= 0 {
                done += count
                offset += Int64(count)
                continue
            }
            let error = errno
            if error == EINTR { continue }
            // Direct I/O refused for this write (a filesystem without it, a short write that left
            // the offset unaligned): the page cache takes the rest.
            if error == EINVAL, direct {
                stopDirectIO()
                continue
            }
            throw Self.error(error)
        }
    }

    private func stopDirectIO() {
        direct = false
        guard let directFlag = Self.directFlag else { return }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~directFlag) }
    }

    /// `O_DIRECT`, which the C library's module does not export (it needs `_GNU_SOURCE`): its value
    /// in the Linux ABI of each architecture; `nil` where direct I/O is not used.
    private static var directFlag: Int32? {
        #if os(Linux) && arch(x86_64)
        0o40000
        #elseif os(Linux) && arch(arm64)
        0o200000
        #else
        nil
        #endif
    }

    private static func lastError() -> POSIXError { error(errno) }

    private static func error(_ code: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
}

/// `open(2)` and `close(2)`, by names that ``BlockFile/close()`` does not shadow.
private func openFile(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags, 0o644)
}

private func closeFile(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
