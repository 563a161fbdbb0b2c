import Foundation
import Testing

/// `getMe`.
@Suite(.timeLimit(.minutes(3))) struct CurrentUserContractTests {
    @Test("getMe answers 200 with the user of the bearer token, never cached")
    func answersTheSignedInUser() async throws {
        try await ContractHarness.with { api in
            let teacher = try await api.signIn(.demoTeacher)

            let ok = try await teacher.client.getMe().ok

            #expect(try ok.body.json == teacher.user)
            #expect(ok.headers.cacheControl == .noStore)
        }
    }

    @Test("getMe without a token answers 401 unauthorized with a Bearer challenge")
    func challengesAnonymousCallers() async throws {
        try await ContractHarness.with { api in
            let refused = try await api.anonymous.getMe().unauthorized

            expectProblem(try refused.body.applicationProblemJson, status: 401, code: "unauthorized")
            #expect(refused.headers.wwwAuthenticate == #"Bearer realm="edugo""#)
        }
    }

    @Test("getMe with a malformed token answers 401 with an invalid_token challenge")
    func refusesAMalformedToken() async throws {
        try await ContractHarness.with { api in
            let refused = try await api.client(token: "not.a.jwt").getMe().unauthorized

            expectProblem(try refused.body.applicationProblemJson, status: 401, code: "unauthorized")
            #expect(refused.headers.wwwAuthenticate == #"Bearer realm="edugo", error="invalid_token""#)
        }
    }
}
