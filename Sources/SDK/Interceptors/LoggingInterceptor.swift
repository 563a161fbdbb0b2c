import Foundation
import Logging

/// Logs requests through swift-log without ever writing a secret: the `Authorization` header,
/// tokens, passwords and refresh tokens are redacted field by field at every level.
public struct LoggingInterceptor: Interceptor {
    /// How much is logged.
    public enum Level: String, Sendable, CaseIterable {
        /// Method, path, status and duration.
        case minimal
        /// + request and response headers (redacted).
        case standard
        /// + bodies (redacted, truncated).
        case verbose
    }

    static let secretKeys: Set<String> = [
        "password", "new_password", "current_password", "access_token", "refresh_token", "token", "authorization",
        "id_token", "secret",
    ]
    static let secretHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "proxy-authorization"]
    static let redacted = "[REDACTED]"

    let level: Level
    let logger: Logger
    let clock = ContinuousClock()

    /// Creates an interceptor that logs each request at swift-log's `debug` level to `logger`, with
    /// the detail `level` asks for.
    public init(level: Level, logger: Logger = Logger(label: "edugo.sdk.http")) {
        self.level = level
        self.logger = logger
    }

    /// Sends the request, then logs it with its outcome (status and duration, or the error).
    public func intercept(
        _ request: APIRequest, next: @Sendable (APIRequest) async throws -> APIResponse
    ) async throws -> APIResponse {
        let started = clock.now
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "url": .string(Self.redact(url: request.url)),
        ]
        if level != .minimal { metadata["request_headers"] = .string(Self.describe(headers: request.headers)) }
        if level == .verbose, let body = request.body { metadata["request_body"] = .string(Self.redact(body: body)) }
        do {
            let response = try await next(request)
            metadata["status"] = .stringConvertible(response.statusCode)
            metadata["ms"] = .stringConvertible(Self.milliseconds(clock.now - started))
            if level != .minimal { metadata["response_headers"] = .string(Self.describe(headers: response.headers)) }
            if level == .verbose { metadata["response_body"] = .string(Self.redact(body: response.body)) }
            logger.debug("http", metadata: metadata)
            return response
        } catch {
            metadata["error"] = .string(String(describing: NetworkError.from(transportError: error)))
            logger.debug("http failed", metadata: metadata)
            throw error
        }
    }

    /// The URL with secret query values replaced.
    static func redact(url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let items = components.queryItems else {
            return url.absoluteString
        }
        components.queryItems = items.map { item in
            secretKeys.contains(item.name.lowercased()) ? URLQueryItem(name: item.name, value: redacted) : item
        }
        return components.string ?? url.path
    }

    static func describe(headers: [String: String]) -> String {
        headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            "\(name): \(secretHeaders.contains(name.lowercased()) ? redacted : value)"
        }.joined(separator: "; ")
    }

    /// A JSON body with every secret member replaced, at any depth; non-JSON bodies are summarised.
    static func redact(body: Data, limit: Int = 2048) -> String {
        guard !body.isEmpty else { return "" }
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return "<\(body.count) bytes>"
        }
        let cleaned = redact(object: object)
        guard let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys, .fragmentsAllowed]),
            let text = String(data: data, encoding: .utf8)
        else { return "<\(body.count) bytes>" }
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    private static func redact(object: Any) -> Any {
        if let dictionary = object as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, value) in dictionary {
                result[key] = secretKeys.contains(key.lowercased()) ? redacted : redact(object: value)
            }
            return result
        }
        if let array = object as? [Any] { return array.map(redact(object:)) }
        return object
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
