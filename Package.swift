// swift-tools-version:6.2
import PackageDescription

// The platforms the package builds on. The library needs Duration and ContinuousClock (macOS 13,
// iOS 16, tvOS 16, watchOS 9); its tests use Synchronization's Mutex and Atomic (macOS 15,
// iOS 18, tvOS 18, watchOS 11, visionOS 2), and SwiftPM applies one set to every target.
let platforms: [SupportedPlatform] = [
    .macOS(.v15), .macCatalyst(.v18), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
]

// Where libatomic_ops is packaged (and its pkg-config file may be found). Elsewhere SwiftPM never
// looks for it, so a build there asks for nothing and the core builds on C11 atomics.
let atomicOpsPlatforms: [Platform] = [.linux, .android, .openbsd]

let package = Package(
    name: "Petal",
    platforms: platforms,
    products: [
        .library(name: "Petal", targets: ["Petal"]),
        // Empty unless the NIO trait is on: a product cannot depend on a trait, only its code can.
        .library(name: "PetalNIO", targets: ["PetalNIO"]),
        // Empty unless the Tracing trait is on.
        .library(name: "PetalTracing", targets: ["PetalTracing"]),
        // Empty unless the Logging trait is on.
        .library(name: "PetalLogging", targets: ["PetalLogging"]),
        // Empty unless the Metrics trait is on.
        .library(name: "PetalMetrics", targets: ["PetalMetrics"]),
        // Empty unless the Hummingbird trait is on.
        .library(name: "PetalHummingbird", targets: ["PetalHummingbird"]),
        // Empty unless the ServiceLifecycle trait is on.
        .library(name: "PetalServiceLifecycle", targets: ["PetalServiceLifecycle"]),
        // Empty unless the Prototypes trait is on: designs measured by the benchmarks, not API.
        .library(name: "PetalPrototypes", targets: ["PetalPrototypes"]),
    ],
    traits: [
        .trait(
            name: "NIO",
            description: """
                PetalNIO: an EventLoop as an ExecutionContext, EventLoopFuture <-> Future, and LoadShedder \
                (a 503 on the event loop while a ConcurrencyLimit is full).
                """
        ),
        .trait(
            name: "Hummingbird",
            description: """
                PetalHummingbird: LoadShedder installed in a Hummingbird 2 server in one call, and \
                DeadlineMiddleware (a request's Deadline from its arrival, shortened by grpc-timeout).
                """,
            // The one-call install puts PetalNIO's LoadShedder in the server's pipeline.
            enabledTraits: ["NIO"]
        ),
        .trait(
            name: "ServiceLifecycle",
            description: """
                PetalServiceLifecycle: RequestDrain, a swift-service-lifecycle Service that asks the \
                requests in flight to stop on graceful shutdown and waits for them.
                """
        ),
        .trait(
            name: "Tracing",
            description: "PetalTracing: callbacks run with the ServiceContext current where they were subscribed."
        ),
        .trait(
            name: "Logging",
            description: "PetalLogging: Petal's diagnostics to a swift-log Logger, with levels and metadata."
        ),
        .trait(
            name: "Metrics",
            description:
                "PetalMetrics: Petal's diagnostics counts and pending work as swift-metrics counters and gauges."
        ),
        .trait(
            name: "Prototypes",
            description: "PetalPrototypes: designs the benchmarks measure beside Petal's own (not API)."
        ),
        .trait(
            name: "C11Atomics",
            description: """
                Build the C core on C11 <stdatomic.h> even where libatomic_ops is installed \
                (without this trait, libatomic_ops wherever its header is found, C11 elsewhere).
                """
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // NIOHTTPTypes: the HTTP parts LoadShedder sees in a pipeline (Hummingbird's among others).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Without Hummingbird's default traits (swift-configuration, full Foundation): an
        // application that wants them names them in its own dependency, and gets them.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // libatomic_ops, the default atomics of the C core where it is installed. Optional: without
        // it SwiftPM only warns (with the install command below) and the core uses C11 atomics
        // (petal_atomics.h chooses by whether <atomic_ops.h> can be included).
        .systemLibrary(
            name: "CAtomicOps",
            pkgConfig: "atomic_ops",
            providers: [
                .apt(["libatomic-ops-dev"]),
                .yum(["libatomic_ops-devel"]),
            ]
        ),
        // The C11Atomics trait's choice: a header that defines PETAL_ATOMICS_C11, which
        // petal_atomics.h includes when it is on the include path. A cSettings define would reach
        // CPetal's C alone; an include directory also reaches the Clang importer of every Swift
        // target, so the C core and the Swift code that inlines it choose the same atomics (the
        // test "the compiled core and the imported headers use the same atomics" checks it).
        .target(name: "CPetalC11Atomics"),
        .target(
            name: "CPetal",
            dependencies: [
                .target(name: "CAtomicOps", condition: .when(platforms: atomicOpsPlatforms)),
                .target(name: "CPetalC11Atomics", condition: .when(traits: ["C11Atomics"])),
            ],
            cSettings: [.define("_GNU_SOURCE")]
        ),
        .target(
            name: "Petal",
            dependencies: ["CPetal"]
        ),
        .target(
            name: "PetalNIO",
            dependencies: [
                "Petal",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                // For `MultiThreadedEventLoopGroup.currentEventLoop`: which threads run a loop.
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["NIO"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["NIO"])),
            ]
        ),
        .target(
            name: "PetalHummingbird",
            dependencies: [
                "Petal",
                "PetalNIO",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                // HTTPServerBuilder and HTTP1Channel, which Hummingbird does not re-export.
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        .target(
            name: "PetalServiceLifecycle",
            dependencies: [
                "Petal",
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])
                ),
            ]
        ),
        .target(
            name: "PetalTracing",
            dependencies: [
                "Petal",
                .product(
                    name: "Instrumentation", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                ),
            ]
        ),
        .target(
            name: "PetalLogging",
            dependencies: [
                "Petal",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ]
        ),
        .target(
            name: "PetalMetrics",
            dependencies: [
                "Petal",
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ]
        ),
        // Reaches Petal's storage through its `package` hooks.
        .target(name: "PetalPrototypes", dependencies: ["Petal"]),
        // <malloc.h>, which Swift's Glibc module leaves out: the soak test samples the heap.
        .systemLibrary(name: "CMalloc", path: "Tests/CMalloc"),
        .testTarget(
            name: "PetalTests",
            dependencies: ["Petal", "CPetal", "CMalloc"]
        ),
        .testTarget(
            name: "PetalNIOTests",
            dependencies: [
                "PetalNIO",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["NIO"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["NIO"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["NIO"])),
            ]
        ),
        .testTarget(
            name: "PetalHummingbirdTests",
            dependencies: [
                "PetalHummingbird",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Hummingbird"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        .testTarget(
            name: "PetalServiceLifecycleTests",
            dependencies: [
                "PetalServiceLifecycle",
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])
                ),
                .product(
                    name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])
                ),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["ServiceLifecycle"])),
            ]
        ),
        .testTarget(
            name: "PetalTracingTests",
            dependencies: [
                "PetalTracing",
                .product(
                    name: "Instrumentation", package: "swift-distributed-tracing", condition: .when(traits: ["Tracing"])
                ),
            ]
        ),
        .testTarget(
            name: "PetalLoggingTests",
            dependencies: [
                "PetalLogging",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Logging"])),
            ]
        ),
        .testTarget(
            name: "PetalMetricsTests",
            dependencies: [
                "PetalMetrics",
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
                .product(name: "MetricsTestKit", package: "swift-metrics", condition: .when(traits: ["Metrics"])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
