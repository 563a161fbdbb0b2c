import Crypto
import EduGoServerStore
import Foundation
import Hummingbird

/// A list page answered from the tenant's ``PageCache`` while nothing changed, with an entity
/// tag of its bytes, so a repeated page costs a lookup and no SQLite read, and a client's
/// `If-None-Match` on it answers 304.
enum CachedPage {
    /// The page under `key` from `cache`, or `read()` encoded and kept there.
    ///
    /// - Parameters:
    ///   - key: Everything the page depends on besides the tenant's data: who may see what (the
    ///     caller's visibility class), the list and its query.
    static func respond(
        _ request: Request, cache: PageCache, key: String, read: () async throws -> some Encodable
    ) async throws -> Response {
        let page: EncodedPage
        switch cache.lookup(key) {
        case .hit(let cached):
            page = cached
        case .miss(let epoch):
            let body = try APICoding.encode(try await read())
            page = EncodedPage(body: body, entityTag: entityTag(of: body))
            cache.store(page, for: key, readAt: epoch)
        }
        // The bytes are answered as they are: a cached page is never encoded again.
        return ResponseValidators(caching: .revalidate, tag: .bytes(page.entityTag)).response(to: request, status: .ok) {
            JSONResponse.make(encoded: ByteBuffer(bytes: page.body))
        }
    }

    /// A cache key made of `parts`, each preceded by its length in bytes: two different lists
    /// never give the same key, whatever bytes a part holds (a search text or a cursor's id may
    /// hold the separator a plain join would use).
    static func key(_ parts: [String]) -> String {
        parts.map { "\($0.utf8.count):\($0)" }.joined()
    }

    /// `"p-<16 hex digits of the body's SHA-256>"`: strong, and distinct from a resource's version tag.
    static func entityTag(of body: Data) -> String {
        "\"p-\(SHA256.hash(data: body).prefix(8).hexDigits)\""
    }
}
