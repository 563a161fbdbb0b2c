import Foundation
import Testing

@testable import EduGoServer

/// Audit issue 31, item 4: JSON bodies are parsed in linear time under depth, element and size
/// bounds, and the auth endpoints take small bodies only.
@Suite struct JSONBodyCostTests {
    /// `[{},{},…]` of about `bytes` bytes.
    static func arrayOfEmptyObjects(bytes: Int) -> String {
        "[" + Array(repeating: "{}", count: bytes / 3).joined(separator: ",") + "]"
    }

    @Test("the parser reads every kind of value, escapes and numbers as JSON defines them")
    func parsesJSON() throws {
        let text = #"{"a":[1,-2,3.5,1e2,true,false,null],"s":"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","o":{"n":{}}}"#
        let value = try JSONParser.parse(Data(text.utf8))
        #expect(value == .object([
            "a": .array([.integer(1), .integer(-2), .number(3.5), .integer(100), .bool(true), .bool(false), .null]),
            "s": .string("x\"\\/\u{8}\u{c}\n\r\té😀"),
            "o": .object(["n": .object([:])]),
        ]))
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "\"\u{1}\"", "\"\\ud800\"", "[1] x", "tru", "{\"a\":1,}", "1e999"] {
            #expect(throws: JSONParser.Failure.malformed, "\(bad)") { try JSONParser.parse(Data(bad.utf8)) }
        }
        #expect(throws: JSONParser.Failure.malformed) { try JSONParser.parse(Data([0x22, 0xFF, 0x22])) }
    }

    @Test("reads stop at the buffer's end: one-byte documents, a literal, escape, \\u or number cut at the last byte, non-ASCII, a slice")
    func bufferEdges() throws {
        #expect(try JSONParser.parse(Data("1".utf8)) == .integer(1))
        #expect(try JSONParser.parse(Data(" 0\n".utf8)) == .integer(0))
        #expect(try JSONParser.parse(Data(#""日本語 🎓""#.utf8)) == .string("日本語 🎓"))
        #expect(try JSONParser.parse(Data(#"{"Matemáticas":"ü"}"#.utf8)) == .object(["Matemáticas": .string("ü")]))
        for cut in [" ", "[", "{", "\"", "t", "nul", "fals", #""\"#, #""\u12"#, #""\ud83d\ude0"#, #""abc"#, "1e", "1e+", "-0."] {
            #expect(throws: JSONParser.Failure.malformed, "\(cut)") { try JSONParser.parse(Data(cut.utf8)) }
        }
        // A multi-byte character cut at the buffer's end, and one cut before the closing quote.
        #expect(throws: JSONParser.Failure.malformed) { try JSONParser.parse(Data([0x22, 0xE6, 0x97])) }
        #expect(throws: JSONParser.Failure.malformed) { try JSONParser.parse(Data([0x22, 0xE6, 0x97, 0x22])) }
        // A slice of a larger buffer is read from its own start to its own end only.
        let whole = Data(#"xx[1,"é"]yy"#.utf8)
        #expect(try JSONParser.parse(whole.dropFirst(2).dropLast(2)) == .array([.integer(1), .string("é")]))
    }

    @Test("nesting past the depth bound and values past the element bound are refused")
    func boundsAreEnforced() throws {
        let limits = JSONParser.Limits(depth: 3, elements: 5)
        _ = try JSONParser.parse(Data("[[[1]]]".utf8), limits: limits)
        #expect(throws: JSONParser.Failure.tooDeep) { try JSONParser.parse(Data("[[[[1]]]]".utf8), limits: limits) }
        _ = try JSONParser.parse(Data("[1,2,3,4]".utf8), limits: limits)
        #expect(throws: JSONParser.Failure.tooManyElements) {
            try JSONParser.parse(Data("[1,2,3,4,5]".utf8), limits: limits)
        }
    }

    @Test("a body nested too deep answers 400 json_too_deep, one with too many values 400 json_too_many_elements")
    func boundsAnswerStableCodes() async throws {
        try await withServer { client in
            let admin = try await client.signIn(.demoAdmin)
            let deep = "{\"title\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"
            try expectProblem(
                try await client.send(.post, "/v1/courses", bearer: admin.accessToken, json: deep), .badRequest,
                "json_too_deep")
            let many = "{\"title\":" + Self.arrayOfEmptyObjects(bytes: 60_000) + "}"
            try expectProblem(
                try await client.send(.post, "/v1/courses", bearer: admin.accessToken, json: many), .badRequest,
                "json_too_many_elements")
        }
    }

    @Test("a 1 MiB [{},{},…] login answers 413 at once, and a login still works")
    func bigLoginBodyIsRefusedEarly() async throws {
        try await withServer { client in
            let body = Self.arrayOfEmptyObjects(bytes: 1 << 20)
            let started = ContinuousClock.now
            let response = try await client.send(.post, "/v1/auth/login", tenant: "demo", json: body)
            let elapsed = ContinuousClock.now - started
            try expectProblem(response, .contentTooLarge, "payload_too_large")
            #expect(response.text.contains("8192"), "\(response.text)")
            #expect(elapsed < .milliseconds(500), "took \(elapsed)")
            #expect(try await client.login(.demoAdmin).status == .ok)
        }
    }

    @Test("eight concurrent 1 MiB [{},{},…] logins to the real binary: each answers 413 and /health stays fast")
    func healthStaysFastUnderBigLogins() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await ServerProcess.launch(
                dataDirectory: directory, arguments: ["--rate-limit-multiplier", "100"])
            let client = LiveClient(baseURL: server.baseURL)
            defer { client.session.invalidateAndCancel() }
            do {
                let body = Self.arrayOfEmptyObjects(bytes: 1 << 20)
                // Given eight clients each sending 1 MiB login bodies, three rounds each
                async let statuses: [Int] = withThrowingTaskGroup(of: [Int].self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            var statuses: [Int] = []
                            for _ in 0..<3 {
                                statuses.append(try await client.send("POST", "/v1/auth/login", tenant: "demo", json: body).status)
                            }
                            return statuses
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                // Then /health, asked meanwhile, answers within a bound every time
                var slowest: Duration = .zero
                for _ in 0..<10 {
                    let started = ContinuousClock.now
                    #expect(try await client.send("GET", "/health").status == 200)
                    slowest = max(slowest, ContinuousClock.now - started)
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(try await statuses.allSatisfy { $0 == 413 })
                // (With the old type-by-type decoding and the 1 MiB limit: 15.6 s in a debug build.)
                #expect(slowest < .seconds(3), "slowest /health took \(slowest)")
                #expect(await server.stop())
            } catch {
                await server.kill()
                throw error
            }
        }
    }
}
