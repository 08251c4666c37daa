// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Petal",
    products: [
        .library(name: "Petal", targets: ["Petal"])
    ],
    targets: [
        // libatomic_ops, the atomics layer of the C core. A user without it is told what to install.
        .systemLibrary(
            name: "CAtomicOps",
            pkgConfig: "atomic_ops",
            providers: [
                .apt(["libatomic-ops-dev"]),
                .brew(["libatomic_ops"]),
                .yum(["libatomic_ops-devel"]),
            ]
        ),
        .target(
            name: "CPetal",
            dependencies: ["CAtomicOps"],
            cSettings: [.define("_GNU_SOURCE")]
        ),
        .target(
            name: "Petal",
            dependencies: ["CPetal"]
        ),
        // <malloc.h>, which Swift's Glibc module leaves out: the soak test samples the heap.
        .systemLibrary(name: "CMalloc", path: "Tests/CMalloc"),
        .testTarget(
            name: "PetalTests",
            dependencies: ["Petal", "CPetal", "CMalloc"]
        ),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
