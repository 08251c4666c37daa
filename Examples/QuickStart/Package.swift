// swift-tools-version:6.2
import Foundation
import PackageDescription

// The README's example (and the async article's), built against the Petal package in this repository. A path dependency's
// identity is its directory's name, which depends on where the repository was cloned.
let petalRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

let package = Package(
    name: "QuickStart",
    dependencies: [.package(path: petalRoot.path)],
    targets: [
        .executableTarget(
            name: "QuickStart",
            dependencies: [.product(name: "Petal", package: petalRoot.lastPathComponent.lowercased())]
        ),
        // The example of the article "Petal in async code" (Sources/Petal/Petal.docc).
        .executableTarget(
            name: "AsyncCode",
            dependencies: [.product(name: "Petal", package: petalRoot.lastPathComponent.lowercased())]
        ),
    ],
    swiftLanguageModes: [.v6]
)
