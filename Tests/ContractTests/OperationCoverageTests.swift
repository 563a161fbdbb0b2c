import Foundation
import Testing

/// Every operationId of openapi.yaml is called through the generated client and succeeds.
@Suite(.timeLimit(.minutes(3))) struct OperationCoverageTests {
    @Test("every operationId in openapi.yaml is answered with a success status at least once")
    func everyOperationSucceeds() async throws {
        let spec = try SpecDocument.load()
        try await ContractHarness.with { api in
            try await ContractTour(api: api).run()

            let succeeded = await api.recorder.succeededOperationIDs
            let neverSucceeded = spec.operationIDs.subtracting(succeeded).sorted()
            #expect(neverSucceeded.isEmpty, "never answered with a success status: \(neverSucceeded.joined(separator: ", "))")
        }
    }
}
