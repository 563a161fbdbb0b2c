import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The generated client's `ClientTransport` over `URLSession`: collects the request body, sends
/// it, and maps header fields both ways. No caching and no cookies, so the client sees exactly
/// what the server answered (a 304 stays a 304).
struct URLSessionClientTransport: ClientTransport {
    /// One session for the whole test process.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let url = URL(string: baseURL.absoluteString + (request.path ?? "/")) else {
            throw URLError(.badURL)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // URLSession derives Content-Length from the body it sends.
        for field in request.headerFields where field.name != .contentLength {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        if let body {
            urlRequest.httpBody = try await Data(collecting: body, upTo: .max)
        }

        let (data, response) = try await Self.session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse, let status = HTTPResponse.Status(exactly: http.statusCode)
        else { throw URLError(.badServerResponse) }
        var fields = HTTPFields()
        for (key, value) in http.allHeaderFields {
            guard let key = key as? String, let value = value as? String, let name = HTTPField.Name(key) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return (HTTPResponse(status: status, headerFields: fields), data.isEmpty ? nil : HTTPBody(data))
    }
}

extension HTTPResponse.Status {
    /// A status for any code URLSession reports.
    init?(exactly code: Int) {
        guard (100...999).contains(code) else { return nil }
        self.init(code: code)
    }
}
