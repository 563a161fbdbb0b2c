import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

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
    /// For a TLS server: its certificate chain (DER). Its dev requests then go through
    /// AsyncHTTPClient (Linux's `URLSession` cannot be told to trust a given certificate).
    var trustedChain: [Data]? = nil

    /// `path` (which may carry a query) under the base URL.
    private func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path) ?? baseURL.appendingPathComponent(path)
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    func send<Answer: Decodable>(
        _ method: String, _ path: String, tenant: String? = nil, body: [String: Value]? = nil, expecting status: Int
    ) async throws -> Answer {
        let data = try await perform(method, path, tenant: tenant, body: body, expecting: status)
        return try Self.decoder.decode(Answer.self, from: data)
    }

    /// Sends `body` encoded as JSON (snake_case as its coding keys spell it).
    func send<Answer: Decodable>(
        _ method: String, _ path: String, encoding body: some Encodable, expecting status: Int
    ) async throws -> Answer {
        let data = try await perform(method, path, tenant: nil, json: try JSONEncoder().encode(body), expecting: status)
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
        try await perform(method, path, tenant: tenant, json: try body.map { try JSONEncoder().encode($0) }, expecting: status)
    }

    private func perform(
        _ method: String, _ path: String, tenant: String?, json body: Data?, expecting status: Int
    ) async throws -> Data {
        if let trustedChain {
            return try await performOverTLS(method, path, tenant: tenant, body: body, expecting: status, trusting: trustedChain)
        }
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        // Generous: a test process running hundreds of tests at once can be slow to answer.
        request.timeoutInterval = 120
        if let tenant { request.setValue(tenant, forHTTPHeaderField: "X-Tenant-ID") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let (data, response) = try await session.data(for: request)
        let actual = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard actual == status else {
            throw EduGoTestServerError.unexpectedStatus(actual, String(decoding: data, as: UTF8.self))
        }
        return data
    }

    private func performOverTLS(
        _ method: String, _ path: String, tenant: String?, body: Data?, expecting status: Int,
        trusting chain: [Data]
    ) async throws -> Data {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try chain.map { try NIOSSLCertificate(bytes: Array($0), format: .der) })
        // The harness talks to its own in-process server on loopback, whose certificate a test may
        // have made invalid on purpose (expired, another host's name) to see its client refuse it.
        // The harness must still reach the server's dev endpoints then, so it does not validate.
        tls.certificateVerification = .none
        var request = HTTPClientRequest(url: url(path).absoluteString)
        request.method = .init(rawValue: method)
        request.tlsConfiguration = tls
        if let tenant { request.headers.add(name: "X-Tenant-ID", value: tenant) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let data = Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
        guard Int(response.status.code) == status else {
            throw EduGoTestServerError.unexpectedStatus(Int(response.status.code), String(decoding: data, as: UTF8.self))
        }
        return data
    }
}
