import CBenchSupport
import Histogram
import Petal
import Synchronization

/// Issue 56's choice of histogram for the adaptive hedge delay: Petal's `LatencyPercentile`
/// against hdrhistogram-swift's `Histogram` behind a `Mutex` (the type is a value, not safe to
/// share), each recording latencies of 1-5 ms and reading the 95th percentile every 32nd
/// sample, as `LatencyPercentile` does. An operation is one sample.
enum LatencyRecord {
    private static let petal = LatencyPercentile(0.95, floor: .milliseconds(1), ceiling: .milliseconds(15))
    private static let hdr = Mutex(
        Histogram<UInt64>(highestTrackableValue: 15_000, numberOfSignificantValueDigits: .two))
    /// The latest percentile read, as a delay would be kept.
    nonisolated(unsafe) private static var delay: UInt64 = 0

    /// A latency of 1-5 ms, in microseconds, that varies with `index`.
    private static func microseconds(_ index: Int) -> Int { 1_000 + (index &* 7_919) % 4_000 }

    static func petal(_ count: Int) {
        for index in 0..<count {
            petal.record(.microseconds(microseconds(index)))
            bench_count_add()
        }
    }

    static func hdrHistogram(_ count: Int) {
        for index in 0..<count {
            let read = hdr.withLock { histogram -> UInt64? in
                _ = histogram.record(UInt64(microseconds(index)))
                return histogram.totalCount % 32 == 0 ? histogram.valueAtPercentile(95) : nil
            }
            if let read { delay = read }
            bench_count_add()
        }
    }
}
