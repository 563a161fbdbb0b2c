// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "EduGo",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "EduGoServer", targets: ["EduGoServer"]),
        .executable(name: "edugo-server", targets: ["edugo-server"]),
        .library(name: "EduGoSDK", targets: ["EduGoSDK"]),
        .library(name: "EduGoTesting", targets: ["EduGoTesting"]),
        .executable(name: "edugo", targets: ["edugo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // Already in the graph through hummingbird: named for the connection guards' HTTP part and frame types.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.45.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // The server's store, the only owner of its SQL: it throws StoreError and returns domain
        // values. It has no HTTP dependency, so the compiler keeps HTTP out of it.
        // `Guarded`: the package's one lock, a `Mutex` that ThreadSanitizer sees (Sources/Guarded).
        .target(name: "EduGoGuarded", path: "Sources/Guarded", swiftSettings: swiftSettings),
        .target(
            name: "EduGoServerStore",
            dependencies: [
                "EduGoGuarded",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/ServerStore",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "EduGoServer",
            dependencies: [
                "EduGoServerStore",
                "EduGoGuarded",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // Lesson media: uploads streamed to disk off the event loop (Hummingbird's FileIO uses it too).
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                // Lesson media: downloads read an opened descriptor on NIO's thread pool.
                .product(name: "NIOPosix", package: "swift-nio"),
                // HTTPParserError: a body the HTTP/1 parser cannot read is the client's error (400).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // TLSUserEvent: a TLS connection's handshake deadline ends when its handshake completes.
                .product(name: "NIOTLS", package: "swift-nio"),
                // HTTPRequestPart/HTTPResponsePart: a connection stops reading while requests wait for their answers.
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // HTTP2Frame: an HTTP/2 connection is closed one grace period after the server's GOAWAY.
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            path: "Sources/Server",
            resources: [.copy("Resources/openapi.yaml"), .copy("Resources/Console"), .copy("Resources/Seeds")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "edugo-server",
            dependencies: [
                "EduGoServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "EduGoSDK",
            dependencies: [
                "EduGoGuarded",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // The pinning transport: Linux's URLSession (libcurl) has no server-trust hook.
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/SDK",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "EduGoTesting",
            dependencies: [
                "EduGoServer",
                "EduGoGuarded",
                // EduGoSimulation drives devices that are EduGoSDK clients.
                "EduGoSDK",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // Its own dev requests to a TLS server trust the server's self-signed certificate.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Sources/Testing",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "edugo",
            dependencies: [
                "EduGoSDK",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "EduGoServer",
                "EduGoServerStore",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                // TLS connection limits of the real binary: a real HTTP/2 and HTTP/1.1 client, and a
                // TLS client that speaks HTTP/2's preface and then ignores the server.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Connection guards driven on an EmbeddedChannel, whose clock the test moves, and a
                // TLS client that completes its handshake and then stops reading.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            swiftSettings: swiftSettings
        ),
        // Linked into the test process: three tests per core at once unless `swift test` is told a
        // width, so plain `swift test` on two cores does not run past its tests' time limits.
        .target(name: "EduGoTestDefaults", path: "Tests/TestDefaults"),
        .testTarget(
            name: "SDKTests",
            dependencies: [
                "EduGoSDK", "EduGoTestDefaults", .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // A store written by an older SDK, for the migration tests.
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "EduGoSDK",
                "EduGoServer",
                "EduGoTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // TLS tests: certificates made to be wrong, and HTTP/2 vs HTTP/1.1 seen from the client.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ContractTests",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                "EduGoServer",
                // The SDK's endpoints are checked against the spec's operations too.
                "EduGoSDK",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            exclude: ["openapi-generator-config.yaml"],
            swiftSettings: swiftSettings
        ),
    ]
)
