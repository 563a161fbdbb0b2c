// swift-tools-version:6.2
import PackageDescription

// The TLS benchmarks (issue 16), a package of their own beside Benchmarks/Package.swift so the two
// can change independently. Run with Benchmarks/run-tls.
let package = Package(
    name: "EduGoTLSBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "EduGo", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "TLSBenchmarks",
            dependencies: [
                .product(name: "EduGoSDK", package: "EduGo"),
                .product(name: "EduGoServer", package: "EduGo"),
                .product(name: "EduGoTesting", package: "EduGo"),
            ]
        )
    ]
)
