// swift-tools-version:6.2
import PackageDescription

// Benchmarks live in their own package so their code and dependencies stay out of the product.
let package = Package(
    name: "EduGoBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "EduGo", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(name: "BenchSupport"),
        .executableTarget(
            name: "BaselineServer",
            dependencies: [
                "BenchSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "LoadTargetServer",
            dependencies: [
                "BenchSupport",
                .product(name: "EduGoServer", package: "EduGo"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "EduGoBenchmarks",
            dependencies: [
                .product(name: "EduGoSDK", package: "EduGo"),
                .product(name: "EduGoServer", package: "EduGo"),
                .product(name: "EduGoTesting", package: "EduGo"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        )
    ]
)
