import Foundation
import PlayheadAudio
import PlayheadCore
import PlayheadTestSupport

/// Plays a 440 Hz sine into an output from its own thread (as the engine's audio thread would) until stopped.
final class ToneWriter: @unchecked Sendable {
    let output: PulseAudioOutput
    private let stopped = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    /// Starts the output's stream and the writing thread, uncorked.
    init(_ output: PulseAudioOutput) throws {
        self.output = output
        try output.start(format: AudioFormat())
        output.setPaused(false)
        let thread = Thread { [self] in run() }
        thread.start()
    }

    private func run() {
        var phase = 0.0
        var chunk = [Float](repeating: 0, count: 960)
        while !stopped.withLock({ $0 }) {
            for i in stride(from: 0, to: chunk.count, by: 2) {
                let v = Float(0.3 * sin(phase))
                chunk[i] = v
                chunk[i + 1] = v
                phase += 2 * Double.pi * 440 / 48_000
            }
            _ = try? chunk.withUnsafeBufferPointer { try output.write($0) }
        }
        done.signal()
    }

    /// Stops writing and closes the stream.
    func stop() {
        stopped.withLock { $0 = true }
        output.interruptWrite()
        done.wait()
        output.stop()
    }
}

/// Collects the audio session's events. Safe from any thread.
final class EventCollector: @unchecked Sendable {
    private let events = Locked<[AudioSession.Event]>([])
    private var token: UUID?

    init() {
        token = AudioSession.shared.addObserver { [events] e in events.withLock { $0.append(e) } }
    }

    var all: [AudioSession.Event] { events.withLock { $0 } }

    /// Waits until an event satisfying `match` arrived; false after `timeout` seconds.
    func waitFor(timeout: Double = 5, _ match: (AudioSession.Event) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if all.contains(where: match) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return all.contains(where: match)
    }

    deinit { if let token { AudioSession.shared.removeObserver(token) } }
}

/// The `media.role` of sink input `index`, from `pactl list sink-inputs`.
func roleOfSinkInput(_ index: UInt32) throws -> String? {
    let text = try Run.command("pactl", ["list", "sink-inputs"]).stdout
    let blocks = text.components(separatedBy: "Sink Input #").dropFirst()
    guard let block = blocks.first(where: { $0.hasPrefix("\(index)\n") }) else { return nil }
    guard let line = block.split(separator: "\n").first(where: { $0.contains("media.role = ") }) else { return nil }
    return line.components(separatedBy: "\"").dropFirst().first
}

/// The loudest sample of `samples` between `start` and `end` seconds (48 kHz).
func peak(_ samples: [Float], from start: Double, to end: Double) -> Float {
    let a = min(samples.count, Int(start * 48_000))
    let b = min(samples.count, max(a, Int(end * 48_000)))
    return samples[a..<b].map(abs).max() ?? 0
}
