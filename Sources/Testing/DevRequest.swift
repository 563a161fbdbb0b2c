import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One call to a `/__dev` endpoint of the test server.
struct DevRequest: Sendable {
    /// A JSON member value of a request body.
    enum Value: Encodable, Sendable {
        case string(String), int(Int), double(Double)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            }
        }
    }

    let session: URLSession
    let baseURL: URL

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    func send<Answer: Decodable>(
        _ method: String, _ path: String, tenant: String? = nil, body: [String: Value]? = nil, expecting status: Int
    ) async throws -> Answer {
        let data = try await perform(method, path, tenant: tenant, body: body, expecting: status)
        return try Self.decoder.decode(Answer.self, from: data)
    }

    func sendWithoutAnswer(
        _ method: String, _ path: String, tenant: String? = nil, body: [String: Value]? = nil, expecting status: Int
    ) async throws {
        _ = try await perform(method, path, tenant: tenant, body: body, expecting: status)
    }

    private func perform(
        _ method: String, _ path: String, tenant: String?, body: [String: Value]?, expecting status: Int
    ) async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        // Generous: a test process running hundreds of tests at once can be slow to answer.
        request.timeoutInterval = 120
        if let tenant { request.setValue(tenant, forHTTPHeaderField: "X-Tenant-ID") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
        }
        let (data, response) = try await session.data(for: request)
        let actual = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard actual == status else {
            throw EduGoTestServerError.unexpectedStatus(actual, String(decoding: data, as: UTF8.self))
        }
        return data
    }
}
