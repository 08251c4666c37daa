import Histogram
import Synchronization

/// The server-side latency of one variant's answered requests (200 and 504), since the last
/// time `/stats` read it: each read returns the window's percentiles and starts a new one.
///
/// An HdrHistogram of microseconds with three significant digits (values within 0.1%), up to a
/// minute, behind a lock: a record is a few instructions and an add, far less than a request.
final class LatencyWindow: Sendable {
    /// The percentiles of one window, in milliseconds; `nil` when it recorded nothing.
    struct Reading: Sendable {
        var p50: Double?
        var p99: Double?
        var count: Int
    }

    private let histogram = Mutex(LatencyWindow.empty())

    private static func empty() -> Histogram<UInt64> {
        Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    }

    /// Records one request that took `duration`.
    func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let microseconds = UInt64(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        histogram.withLock { _ = $0.record(Swift.min(Swift.max(microseconds, 1), 60_000_000)) }
    }

    /// The window's percentiles, and a new window.
    func take() -> Reading {
        let window = histogram.withLock { histogram in
            defer { histogram = Self.empty() }
            return histogram
        }
        guard window.totalCount > 0 else { return Reading(p50: nil, p99: nil, count: 0) }
        return Reading(
            p50: Double(window.valueAtPercentile(50)) / 1000, p99: Double(window.valueAtPercentile(99)) / 1000,
            count: Int(window.totalCount))
    }
}
