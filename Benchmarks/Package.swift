// swift-tools-version:6.1
import Foundation
import PackageDescription

// Petal's benchmarks: their own package, so that users of the library never resolve benchmark
// dependencies. A path dependency's identity is its directory's name, which depends on where the
// repository was cloned, hence the computed name.
let petalRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "PetalBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // With the NIO trait: the chain across NIO measures PetalNIO's conversions; with the
        // Prototypes trait, the designs measured beside Petal's own (PetalPrototypes).
        .package(path: petalRoot.path, traits: ["NIO", "Prototypes"]),
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // The raw C core's callbacks, and counters every contender's callbacks share.
        .target(
            name: "CBenchSupport",
            dependencies: [.product(name: "Petal", package: petalRoot.lastPathComponent.lowercased())]
        ),
        // The C core a second time, on C11 atomics and with its own symbol names, for the
        // contender "C core (C11 atomics)" beside the library's core.
        .target(
            name: "CBenchCoreC11",
            dependencies: [.product(name: "Petal", package: petalRoot.lastPathComponent.lowercased())]
        ),
        // Two C futures a C embedder writes without Petal (behind a pthread mutex; a C11 Treiber
        // list), for the C API's row: petal_future against them.
        .target(name: "CBenchFutures", dependencies: ["CBenchSupport"]),
        // The designs of the libraries users pick instead, generic over their value and compiled
        // as a library is: nothing in it is @inlinable, so its callers cannot specialise it.
        .target(name: "LibraryPromises"),
        // One small adapter per contender, the workloads, and the worker pool.
        .target(
            name: "Contenders",
            dependencies: [
                "CBenchSupport",
                "LibraryPromises",
                "CBenchCoreC11",
                "CBenchFutures",
                .product(name: "Petal", package: petalRoot.lastPathComponent.lowercased()),
                .product(name: "PetalNIO", package: petalRoot.lastPathComponent.lowercased()),
                .product(name: "PetalPrototypes", package: petalRoot.lastPathComponent.lowercased()),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // One operation in a loop on one thread, for callgrind (Scripts/profile).
        .executableTarget(
            name: "PetalProbe",
            dependencies: [
                "CBenchSupport", "Contenders", "LibraryPromises",
                .product(name: "Petal", package: petalRoot.lastPathComponent.lowercased()),
                .product(name: "PetalPrototypes", package: petalRoot.lastPathComponent.lowercased()),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        // The hot drain with its two threads pinned to different cores, on the clock. Apart from
        // PetalProbe so that the probe's loops, which callgrind counts, compile as before.
        .executableTarget(
            name: "DrainProbe",
            dependencies: ["CBenchSupport", "Contenders", "LibraryPromises"]),
        .executableTarget(
            name: "PetalBenchmarks",
            dependencies: [
                "Contenders",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/PetalBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
