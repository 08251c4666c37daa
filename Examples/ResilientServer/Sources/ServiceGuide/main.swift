// swift-format-ignore-file: OrderedImports
import Logging

// The service guide's start-up snippets, compiled as a program's top-level code (never run: CI
// builds this target so that the guide's code cannot drift from what compiles).

// snippet: tracing
import Petal
import PetalTracing

CallbackContext.carryServiceContext()
// snippet end

// snippet: logging
import Petal
import PetalLogging

PetalDiagnostics.handler = PetalDiagnostics.logging(to: Logger(label: "petal"))
// snippet end

// snippet: metrics
import Petal
import PetalMetrics

let metrics = PetalMetrics()  // after MetricsSystem.bootstrap(...)
let sampling = Task { await metrics.run(every: .seconds(10)) }
// snippet end
