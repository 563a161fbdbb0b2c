import EduGoServerStore
import Foundation
import Hummingbird

/// `/v1/courses/{id}/lessons/{lessonId}/media`: a lesson's file, uploaded by the course's teacher
/// or an admin (streamed to disk), downloaded whole or by byte range by whoever may read it.
struct MediaRoutes: RouteModule {
    let deps: Dependencies
    let directory: MediaDirectory

    static let path: RouterPath = "/v1/courses/{id}/lessons/{lessonId}/media"

    var streaming: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        // The upload's body is the file: not read by the idempotency middleware, not held by the
        // JSON body limit (``isMediaPath(_:)``), only by `--max-media-size`.
        routes.put(Self.path, use: upload)
        return routes
    }

    var authenticated: RouteCollection<EduGoRequestContext> {
        let routes = RouteCollection(context: EduGoRequestContext.self)
        routes.get(Self.path, use: download)
        routes.delete(Self.path, use: remove)
        return routes
    }

    /// Whether a request path is a media path (`/v1/courses/*/lessons/*/media`).
    static func isMediaPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 7 && parts[0].isEmpty && parts[1] == "v1" && parts[2] == "courses"
            && parts[4] == "lessons" && parts[6] == "media" && !parts[3].isEmpty && !parts[5].isEmpty
    }

    @Sendable func upload(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<LessonResponse> {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        let base = try VersionPrecondition.required(request, body: [:])
        guard let type = request.headers[.contentType].flatMap(EduGoServerStore.MediaType.init(contentType:)) else {
            throw APIError.unsupportedMediaType
        }
        let limit = deps.configuration.maxMediaSize
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.mediaTooLarge(limit: limit)
        }
        try await identity.store.checkMediaUpload(lesson: lessonID, ofCourse: courseID, by: identity, base: base)
        let staged = try await MediaReceiver(directory: directory, limit: limit).receive(request.body, declaredType: type)
        let lesson = try await identity.store.attachMedia(
            staged, toLesson: lessonID, ofCourse: courseID, by: identity, base: base, in: directory, now: deps.now)
        return APIResponse(LessonResponse(lesson), caching: .revalidate, version: lesson.version)
    }

    @Sendable func download(_ request: Request, context: EduGoRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        let (media, file) = try await Self.openCurrent {
            try await identity.store.media(ofLesson: lessonID, ofCourse: courseID, visibleTo: identity, in: directory)
        }
        let tag = MediaETag.header(sha256: media.sha256)
        var headers: HTTPFields = [
            .eTag: tag, .acceptRanges: "bytes", .cacheControl: "private",
        ]
        if MediaETag.matches(request.headers[.ifNoneMatch], tag: tag) {
            return Response(status: .notModified, headers: headers)
        }
        var range = ByteRange.decide(request.headers[.range], size: media.size)
        // If-Range names the representation the client holds part of: another one gets the whole file.
        if let ifRange = request.headers[.ifRange], ifRange.trimmingCharacters(in: .whitespaces) != tag {
            range = .whole
        }
        headers[.contentType] = media.contentType
        switch range {
        case .unsatisfiable:
            throw APIError.rangeNotSatisfiable(size: media.size)
        case .whole:
            headers[.contentLength] = String(media.size)
            let body = media.size > 0 ? file.body(range: 0...(media.size - 1)) : ResponseBody()
            return Response(status: .ok, headers: headers, body: body)
        case .partial(let bytes):
            headers[.contentLength] = String(bytes.count)
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(media.size)"
            return Response(status: .partialContent, headers: headers, body: file.body(range: bytes))
        }
    }

    /// The lesson's media as `lookup` finds it, with its file open. A file gone between the lookup
    /// and the open belonged to media replaced or deleted meanwhile (the store removes a file only
    /// after the change committed), so the lookup is made again and sees the change; the same
    /// name missing twice is a file lost from disk, answered as no media.
    static func openCurrent(
        _ lookup: () async throws -> LessonMediaFile
    ) async throws -> (LessonMediaFile, OpenMediaFile) {
        var missing: URL?
        while true {
            let media = try await lookup()
            if let file = try await OpenMediaFile.open(path: media.file.path) { return (media, file) }
            guard media.file != missing else { throw APIError.notFound("media") }
            missing = media.file
        }
    }

    @Sendable func remove(_ request: Request, context: EduGoRequestContext) async throws -> APIResponse<LessonResponse> {
        let identity = try context.requireIdentity()
        let courseID = try request.pathParameter("id", context)
        let lessonID = try request.pathParameter("lessonId", context)
        let base = try VersionPrecondition.from(request, body: [:])
        let lesson = try await identity.store.detachMedia(
            fromLesson: lessonID, ofCourse: courseID, by: identity, base: base, in: directory, now: deps.now)
        return APIResponse(LessonResponse(lesson), caching: .revalidate, version: lesson.version)
    }
}

/// The strong entity tag of a media file: its SHA-256.
enum MediaETag {
    static func header(sha256: String) -> String { "\"\(sha256)\"" }

    /// Whether `If-None-Match` names the tag (weak comparison, RFC 9110 §13.1.2) or is `*`.
    static func matches(_ ifNoneMatch: String?, tag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        return ETag.list(ifNoneMatch).contains { $0 == "*" || $0 == tag || $0 == "W/" + tag }
    }
}

extension APIError {
    /// `416 range_not_satisfiable` with `Content-Range: bytes */<size>`.
    static func rangeNotSatisfiable(size: Int) -> APIError {
        var headers = HTTPFields()
        headers[.contentRange] = "bytes */\(size)"
        return APIError(
            .rangeNotSatisfiable, code: "range_not_satisfiable",
            detail: "The requested range starts past the file's \(size) bytes.", headers: headers)
    }
}
