import Foundation
import Petal
import Testing

/// A pipe: bytes written to `writeEnd` are read from `readEnd`.
struct Pipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var ends: [Int32] = [0, 0]
        let status = pipe(&ends)
        precondition(status == 0, "pipe failed: \(errno)")
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Fills the pipe until a write would block, then makes it blocking again, as a standard
    /// error whose reader stopped reading is. O_NONBLOCK is set on the test's own pipe only.
    func fill() {
        let flags = fcntl(writeEnd, F_GETFL)
        _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        while chunk.withUnsafeBytes({ write(writeEnd, $0.baseAddress, $0.count) }) > 0 {}
        precondition(errno == EAGAIN || errno == EWOULDBLOCK, "filling the pipe failed: \(errno)")
        _ = fcntl(writeEnd, F_SETFL, flags)
    }

    /// Starts reading everything written until the write end is closed; `text()` returns it.
    func startReading() -> PipeReader {
        let reader = PipeReader()
        reader.group.run { [readEnd] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count > 0 {
                    reader.chunks.record(Array(buffer[0..<count]))
                } else if count == 0 || errno != EINTR {
                    return
                }
            }
        }
        return reader
    }

    func close() {
        _ = Foundation.close(writeEnd)
        _ = Foundation.close(readEnd)
    }
}

/// What a pipe's reader thread read.
final class PipeReader: Sendable {
    let group = DispatchGroupBox()
    let chunks = Recorder<[UInt8]>()

    /// Waits for the end of the input, then returns it as text.
    func text() -> String {
        group.wait()
        return String(decoding: chunks.events.joined(), as: UTF8.self)
    }
}

/// Runs `body` with the default handlers' lines going to a pipe, and returns what they wrote.
///
/// Other tests may report at the same time, so their lines may be in it too: look for your own
/// sites. The output is process-wide: only the serialised output suite may call this.
func capturingDiagnosticOutput(_ body: () -> Void) -> String {
    let pipe = Pipe()
    let reader = pipe.startReading()
    let previous = PetalDiagnostics.outputDescriptor
    PetalDiagnostics.outputDescriptor = pipe.writeEnd
    body()
    // Waits until the pipe's writer has written every line queued for it.
    PetalDiagnostics.outputDescriptor = previous
    _ = close(pipe.writeEnd)
    let text = reader.text()
    _ = close(pipe.readEnd)
    return text
}

/// The lines of `output` naming the promise creation site `fileID`:`line`.
func lines(in output: String, namingLine line: UInt, fileID: String = #fileID) -> [Substring] {
    output.split(separator: "\n").filter { $0.contains("created at \(fileID):\(line);") }
}

/// How many lines of `output` name each promise creation line in `fileID`.
func lineCounts(in output: String, fileID: String = #fileID) -> [UInt: Int] {
    let marker = "created at \(fileID):"
    var counts: [UInt: Int] = [:]
    for text in output.split(separator: "\n") {
        guard let start = text.range(of: marker)?.upperBound,
            let end = text[start...].firstIndex(of: ";"),
            let line = UInt(text[start..<end])
        else { continue }
        counts[line, default: 0] += 1
    }
    return counts
}

/// Runs `body(index)` on `count` threads, like ``onThreads(_:_:)``, but gives up waiting after
/// `limit`: returns whether every thread finished, so that a test of something that must never
/// block fails instead of hanging.
func onThreads(_ count: Int, finishingWithin limit: Duration, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let finished = DispatchGroup()
    let barrier = Barrier(parties: count)
    for index in 0..<count {
        finished.enter()
        Thread {
            barrier.arriveAndWait()
            body(index)
            finished.leave()
        }.start()
    }
    let (seconds, attoseconds) = limit.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    return finished.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
}
