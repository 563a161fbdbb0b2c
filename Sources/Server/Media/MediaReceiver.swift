import Crypto
import EduGoServerStore
import Foundation
import Hummingbird
import HummingbirdCore
import _NIOFileSystem

/// Receives an upload's body into a staging file as it arrives, never holding it in memory:
/// the size limit is enforced as the bytes arrive, the signature is checked on the first bytes
/// and the SHA-256 is computed on the way. On any failure (too large, wrong signature, a
/// dropped connection) the staging file is removed before the error is thrown. (NIOFileSystem
/// creates a new file transactionally: on Linux an unnamed file that gets its name only when it is
/// closed without an error, so even a crash mid-upload leaves no named partial file.)
struct MediaReceiver: Sendable {
    let directory: MediaDirectory
    /// The largest accepted file in bytes (`--max-media-size`).
    let limit: Int

    /// Streams `body` to disk, then fsyncs it.
    ///
    /// - Throws: `413 payload_too_large` as soon as more than ``limit`` bytes arrived,
    ///   `415 media_type_mismatch` when the first bytes are not `type`'s signature,
    ///   `400 empty_media` for an empty body, or the transport's error.
    func receive(_ body: HummingbirdCore.RequestBody, declaredType type: EduGoServerStore.MediaType) async throws -> StagedMedia {
        let staging = try directory.stagingFile()
        do {
            let (size, digest) = try await FileSystem.shared.withFileHandle(
                forWritingAt: FilePath(staging.path), options: .newFile(replaceExisting: false, permissions: [.ownerReadWrite])
            ) { handle in
                let received = try await handle.withBufferedWriter(capacity: .kibibytes(512)) { output in
                    var hasher = SHA256()
                    var size = 0
                    var prefix: [UInt8] = []
                    for try await chunk in body {
                        size += chunk.readableBytes
                        guard size <= limit else { throw APIError.mediaTooLarge(limit: limit) }
                        if prefix.count < EduGoServerStore.MediaType.signatureLength {
                            prefix += chunk.readableBytesView.prefix(EduGoServerStore.MediaType.signatureLength - prefix.count)
                            if prefix.count == EduGoServerStore.MediaType.signatureLength, !type.matches(prefix) {
                                throw APIError.mediaTypeMismatch(type)
                            }
                        }
                        // Invariant: the hasher reads the chunk's readable bytes only while the closure runs.
                        chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                        try await output.write(contentsOf: chunk)
                    }
                    try await output.flush()
                    guard size > 0 else { throw APIError.emptyMedia }
                    if prefix.count < EduGoServerStore.MediaType.signatureLength, !type.matches(prefix) {
                        throw APIError.mediaTypeMismatch(type)
                    }
                    return (size, hasher.finalize())
                }
                try await handle.synchronize()
                return received
            }
            let sha256 = digest.hexDigits
            return StagedMedia(file: staging, type: type, size: size, sha256: sha256)
        } catch {
            directory.remove(staging)
            throw error
        }
    }
}

extension APIError {
    /// `413 payload_too_large` for media beyond `--max-media-size`.
    static func mediaTooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "payload_too_large", detail: "Lesson media may be at most \(limit) bytes.")
    }

    /// `415 media_type_mismatch`: the file's signature is not the declared type's.
    static func mediaTypeMismatch(_ type: EduGoServerStore.MediaType) -> APIError {
        APIError(
            .unsupportedMediaType, code: "media_type_mismatch",
            detail: "The file's first bytes are not those of \(type.rawValue), the declared Content-Type.")
    }

    /// `415 unsupported_media_type` for a type lesson media may not be.
    static var unsupportedMediaType: APIError {
        APIError(
            .unsupportedMediaType, code: "unsupported_media_type",
            detail: "Lesson media must be one of: \(EduGoServerStore.MediaType.allCases.map(\.rawValue).joined(separator: ", ")).")
    }

    /// `400 empty_media`: an upload without a byte.
    static var emptyMedia: APIError {
        APIError(.badRequest, code: "empty_media", detail: "The uploaded file is empty.")
    }
}
