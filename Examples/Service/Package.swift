// swift-tools-version:6.2
import Foundation
import PackageDescription

// An HTTP service on Hummingbird that fans each request out to simulated backends four ways
// (Petal, async/await, SwiftNIO futures, plain callbacks), and with Petal hedging the calls and
// limiting the requests in flight (issue 40), for issue 23: the same work, written
// the way an expert in each style would, measured side by side by Scripts/service.
//
// A path dependency's identity is its directory's name, which depends on where the repository
// was cloned (CI clones under other names), hence the computed name, as in Benchmarks.
let petalRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let petal = petalRoot.lastPathComponent.lowercased()

let package = Package(
    name: "PetalService",
    // Synchronization's Atomic and Mutex, as in Petal's own manifest.
    platforms: [.macOS(.v15)],
    dependencies: [
        // NIO: BlockingWaits.forbidOnEventLoops() guards the server's loops, and LoadShedder;
        // Hummingbird: the shedder installed in the server in one call; ServiceLifecycle: the
        // drain of the Petal requests on graceful shutdown. Tracing, Logging and Metrics are
        // Examples/ResilientServer's (its ServiceGuide target): the same set, so that the two
        // packages share one build directory (Scripts/service); nothing here uses them.
        .package(
            path: petalRoot.path, traits: ["NIO", "Hummingbird", "ServiceLifecycle", "Tracing", "Logging", "Metrics"]),
        // Without its default traits (swift-configuration, full Foundation), as Petal asks for
        // it: nothing here needs them, and swift-configuration would only lengthen the build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Graceful shutdown: the server and the drain run in a ServiceGroup that turns SIGTERM and
        // SIGINT into a drain (Hummingbird runs on it too).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The server-side latency windows of /stats.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .executableTarget(
            name: "PetalService",
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
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
