import Foundation

/// The PulseAudio daemon the test command started. Throws (so the test fails loudly) when it does not answer.
public enum PulseServer {
    /// Checks that `pactl info` answers on `PULSE_SERVER`.
    public static func require() throws {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else {
            throw TestSupportError(
                "PULSE_SERVER is not set: run the tests with scripts/test.sh, which starts PulseAudio")
        }
        let r = try Run.command("pactl", ["info"], timeout: 5)
        guard r.status == 0 else { throw TestSupportError("PulseAudio does not answer: \(r.stderr)") }
    }
}

/// A null sink of its own for one test, recorded from its monitor, removed at the end. Tests with their own sink
/// can run side by side. Safe from any thread.
public final class TestSink: @unchecked Sendable {
    /// The sink's name, for `--audio-device` or `PULSE_SINK`.
    public let name: String
    /// The index of the null-sink module (for `pactl unload-module`).
    public let module: String
    private var recorder: Process?
    private let file: URL

    /// A null sink (48 kHz stereo) of its own, recording its monitor (which also keeps the sink from idling in
    /// 2-second blocks). `fresh`: loaded now, for a test about a sink appearing; otherwise one loaded ahead and
    /// already running (`SinkPool`), whose recording starts at once.
    public init(fresh: Bool = false) throws {
        try PulseServer.require()
        var keeper: Process?
        if fresh {
            (name, module) = try SinkPool.load()
        } else {
            let warm = try SinkPool.take()
            (name, module, keeper) = (warm.name, warm.module, warm.keeper)
        }
        file = Paths.scratch("rec").appendingPathComponent("\(name).raw")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Run.which("parec"))
        p.arguments = [
            "--device=\(name).monitor", "--rate=48000", "--channels=2", "--format=s16le", "--latency-msec=10",
        ]
        p.standardOutput = try FileHandle(forWritingTo: file)
        try Run.start(p)
        recorder = p
        // An idle null sink works in 2-second blocks until its monitor delivers data: wait for the first recorded
        // bytes, so the sink runs at low latency before anything plays.
        let deadline = Date().addingTimeInterval(5)
        while recordedSeconds == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        // The recording holds the sink in short blocks from now on.
        if let keeper { Run.kill(keeper) }
        guard recordedSeconds > 0 else { throw TestSupportError("the sink \(name) delivers no data to its monitor") }
    }

    /// Stops recording and returns the left channel of what reached the sink, as samples in -1...1.
    public func stopRecording() -> [Float] {
        if let p = recorder { Run.kill(p) }
        recorder = nil
        let data = (try? Data(contentsOf: file)) ?? Data()
        return data.withUnsafeBytes { raw in
            let s = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: s.count - 1, by: 2).map { Float(Int16(littleEndian: s[$0])) / 32768 }
        }
    }

    /// The left channel recorded so far (the recording goes on), as samples in -1...1.
    public var samplesSoFar: [Float] {
        let data = (try? Data(contentsOf: file)) ?? Data()
        return data.withUnsafeBytes { raw in
            let s = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: s.count - 1, by: 2).map { Float(Int16(littleEndian: s[$0])) / 32768 }
        }
    }

    /// Seconds recorded so far.
    public var recordedSeconds: Double {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        return Double(size) / 4 / 48_000
    }

    deinit {
        if let p = recorder { Run.kill(p) }
        _ = try? Run.command("pactl", ["unload-module", module], timeout: 5)
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }
}

/// Measures recorded sound as a listener would notice it. Pure functions.
public enum AudioAnalysis {
    /// The first and last sample index louder than `threshold`, or nil for silence.
    public static func soundSpan(_ s: [Float], threshold: Float = 0.01) -> Range<Int>? {
        guard let first = s.firstIndex(where: { abs($0) > threshold }),
            let last = s.lastIndex(where: { abs($0) > threshold })
        else { return nil }
        return first..<(last + 1)
    }

    /// Seconds of sound (from the first to the last loud sample) at 48 kHz.
    public static func soundSeconds(_ s: [Float], threshold: Float = 0.01) -> Double {
        soundSpan(s, threshold: threshold).map { Double($0.count) / 48_000 } ?? 0
    }

    /// The left channel of a 16-bit stereo WAV file as `playhead --ao=wav` writes it (a 44-byte header), as
    /// floats; empty when the file is missing.
    public static func wavSamples(_ url: URL) -> [Float] {
        let data = (try? Data(contentsOf: url)) ?? Data()
        return data.dropFirst(44).withUnsafeBytes { raw in
            let s = raw.bindMemory(to: Int16.self)
            return stride(from: 0, to: s.count - 1, by: 2).map { Float(s[$0]) / 32768 }
        }
    }

    /// The dominant frequency of `s` (Hz) by counting rising zero crossings over the loud span, at 48 kHz.
    public static func frequency(_ s: [Float]) -> Double {
        guard let span = soundSpan(s) else { return 0 }
        var crossings: [Int] = []
        var i = span.lowerBound + 1
        while i < span.upperBound {
            if s[i - 1] < 0 && s[i] >= 0 { crossings.append(i) }
            i += 1
        }
        guard crossings.count > 2 else { return 0 }
        let periods = Double(crossings.count - 1)
        return periods * 48_000 / Double(crossings.last! - crossings.first!)
    }

    /// Seconds during which sound is heard: 10 ms windows with a sample louder than `threshold`, so pauses in
    /// the middle do not count.
    public static func audibleSeconds(_ s: [Float], threshold: Float = 0.01) -> Double {
        let window = 480
        var loud = 0
        var i = 0
        while i < s.count {
            let end = min(s.count, i + window)
            if s[i..<end].contains(where: { abs($0) > threshold }) { loud += end - i }
            i = end
        }
        return Double(loud) / 48_000
    }

    /// The longest run of silence (seconds) strictly inside the loud span: a gap a listener hears.
    public static func longestGap(_ s: [Float], threshold: Float = 0.01) -> Double {
        Double(longestGapRange(s, threshold: threshold)?.count ?? 0) / 48_000
    }

    /// The samples of the longest run of silence strictly inside the loud span, nil when there is none.
    public static func longestGapRange(_ s: [Float], threshold: Float = 0.01) -> Range<Int>? {
        guard let span = soundSpan(s, threshold: threshold) else { return nil }
        var longest: Range<Int>?
        var start = span.lowerBound
        for i in span {
            if abs(s[i]) > threshold {
                start = i + 1
            } else if i + 1 - start > longest?.count ?? 0 {
                longest = start..<(i + 1)
            }
        }
        return longest
    }

    /// Start times (seconds from the recording's start) of bursts of sound separated by at least `minGap` s.
    public static func onsets(_ s: [Float], threshold: Float = 0.05, minGap: Double = 0.3) -> [Double] {
        var result: [Double] = []
        var lastLoud = -Int.max / 2
        for (i, v) in s.enumerated() where abs(v) > threshold {
            if i - lastLoud > Int(minGap * 48_000) { result.append(Double(i) / 48_000) }
            lastLoud = i
        }
        return result
    }

    /// The tones heard, in order: the frequency of 0.2 s windows of sound every 0.1 s, rounded to 10 Hz, kept when a
    /// window and the one right after it (0.2 s on, not overlapping) agree: a window across a join or a seek's jump
    /// measures neither tone, and no two such windows can share that moment. Repeats collapse. A tone heard for
    /// 0.5 s is found wherever it falls (windows a quarter second apart missed a 0.68 s tone when the grid fell
    /// badly).
    public static func toneSequence(_ samples: [Float]) -> [Int] {
        guard let span = soundSpan(samples) else { return [] }
        var result: [Int] = []
        var measured: [Int] = []
        for start in stride(from: span.lowerBound, to: span.upperBound - 9_600, by: 4_800) {
            let f = Int((frequency(Array(samples[start..<(start + 9_600)])) / 10).rounded()) * 10
            if measured.count >= 2, measured[measured.count - 2] == f, result.last != f { result.append(f) }
            measured.append(f)
        }
        return result
    }
}
