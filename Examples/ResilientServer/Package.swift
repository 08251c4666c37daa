// swift-tools-version:6.2
import Foundation
import PackageDescription

// The minimal resilient server of the service guide (issue 55): a Hummingbird server whose
// requests fan out to a simulated backend with hedged calls, behind a concurrency limit whose
// overflow is refused on the event loop, each under a deadline counted from its arrival, and
// drained on SIGTERM. Scripts/service --only resilient measures it under a flood.
//
// A path dependency's identity is its directory's name, which depends on where the repository
// was cloned (CI clones under other names), hence the computed name, as in Examples/Service.
let petalRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let petal = petalRoot.lastPathComponent.lowercased()

let package = Package(
    name: "ResilientServer",
    // Synchronization's Atomic and Mutex, as in Petal's own manifest.
    platforms: [.macOS(.v15)],
    dependencies: [
        // Each trait turns on one product: the shedder (NIO), the server builder and deadline
        // middleware (Hummingbird), the drain (ServiceLifecycle); Tracing, Logging and Metrics
        // for the service guide's start-up snippets (ServiceGuide). Examples/Service names the
        // same set, so that the two share one build directory (Scripts/service).
        .package(
            path: petalRoot.path, traits: ["NIO", "Hummingbird", "ServiceLifecycle", "Tracing", "Logging", "Metrics"]),
        // Without its default traits (swift-configuration, full Foundation), as Petal asks for
        // it: nothing here needs them, and swift-configuration would only lengthen the build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "ResilientServer",
            dependencies: [
                .product(name: "Petal", package: petal),
                .product(name: "PetalNIO", package: petal),
                .product(name: "PetalHummingbird", package: petal),
                .product(name: "PetalServiceLifecycle", package: petal),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Every Swift snippet of the service guide (UsingPetalInAService.md), as compiled code:
        // Scripts/check-snippets checks that the article shows exactly these regions, and CI
        // builds this target with warnings as errors. Never run.
        .executableTarget(
            name: "ServiceGuide",
            dependencies: [
                .product(name: "Petal", package: petal),
                .product(name: "PetalNIO", package: petal),
                .product(name: "PetalHummingbird", package: petal),
                .product(name: "PetalServiceLifecycle", package: petal),
                .product(name: "PetalTracing", package: petal),
                .product(name: "PetalLogging", package: petal),
                .product(name: "PetalMetrics", package: petal),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
