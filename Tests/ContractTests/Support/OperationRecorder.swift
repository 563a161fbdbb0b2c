import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Every operation a client sent, with the status the server answered.
actor OperationRecorder {
    struct Call: Sendable, Hashable {
        var operationID: String
        var status: Int
    }

    private(set) var calls: [Call] = []

    func record(_ call: Call) {
        calls.append(call)
    }

    /// The operations that were answered with a 2xx or 304 at least once.
    var succeededOperationIDs: Set<String> {
        Set(calls.filter { (200..<300).contains($0.status) || $0.status == 304 }.map(\.operationID))
    }
}

/// Records each call's operation id and response status in an ``OperationRecorder``.
struct RecordingMiddleware: ClientMiddleware {
    let recorder: OperationRecorder

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        await recorder.record(.init(operationID: operationID, status: response.status.code))
        return (response, responseBody)
    }
}
