import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Waits on the main actor until `condition` holds or `timeout` seconds pass; returns whether it held.
@MainActor
func eventually(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Records a player's variant switches (seconds since the recorder was made, bit rate), pathway changes and stalls
/// from its events. Read from the main actor; filled by the events' task.
@MainActor
final class SwitchRecorder {
    let switches = Locked([(time: Double, bitRate: Int)]())
    let pathwayChanges = Locked([String]())
    let stalls = Locked(0)
    /// The URIs of the segment downloads given up (`segment-abandoned`).
    let abandoned = Locked([String]())

    init(_ player: Player) {
        let started = MonotonicClock.now() - MonotonicClock.processStart
        let events = player.events()
        let (switches, stalls, pathways, abandoned) = (switches, stalls, pathwayChanges, abandoned)
        Task { @MainActor in
            for await e in events {
                switch e.kind {
                case .variantSwitch(let bitRate, _, _):
                    switches.withLock { $0.append((e.timestamp - started, bitRate)) }
                case .pathwayChanged(let from, let to): pathways.withLock { $0.append("\(from)→\(to)") }
                case .stalled: stalls.withLock { $0 += 1 }
                case .segmentAbandoned(let uri): abandoned.withLock { $0.append(uri) }
                default: break
                }
            }
        }
    }
}

/// Records every change of a player's `timeControlStatus` and `status`, with the reason, as a listener would see
/// them through observation.
@MainActor
final class StateRecorder {
    private(set) var states: [String] = []
    private var task: Task<Void, Never>?

    init(_ player: Player) {
        task = Task { @MainActor [weak self] in
            var last = ""
            while !Task.isCancelled {
                let s = Self.describe(player)
                if s != last {
                    self?.states.append(s)
                    last = s
                }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
    }

    static func describe(_ p: Player) -> String {
        switch (p.status, p.timeControlStatus) {
        case (.failed, _): return "failed"
        case (_, .paused): return "paused"
        case (_, .playing): return "playing"
        case (_, .waitingToPlayAtSpecifiedRate):
            switch p.reasonForWaitingToPlay {
            case .toMinimizeStalls: return "waiting(stalls)"
            case .evaluatingBufferingRate: return "waiting(evaluating)"
            case .noItemToPlay: return "waiting(noItem)"
            case .interruptedByAudioSession: return "waiting(interrupted)"
            case nil: return "waiting"
            }
        }
    }

    /// Stops recording after one more look, so the last change is not missed.
    func stop() async {
        try? await Task.sleep(for: .milliseconds(50))
        task?.cancel()
    }
}

extension CaptureVideoOutput {
    /// A capture output that reads each presented frame's drawn number (`Fixtures.numberedVideo`).
    static func numbered() -> CaptureVideoOutput {
        CaptureVideoOutput { frame in Fixtures.frameNumber { x, y in frame.luma(x: x, y: y) } }
    }
}

extension Player {
    /// A player (sound to a null output) paused on frame-numbered `url`, whose first picture `capture` has shown.
    static func openedPaused(_ url: URL, showing capture: CaptureVideoOutput) async throws -> Player {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: url)
        item.add(capture)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        #expect(await eventually { !capture.frames.isEmpty }, "the first frame is shown while paused")
        #expect(capture.frames.first?.value == 0)
        return player
    }

    /// A player on its own test sink.
    static func onSink(_ sink: TestSink) -> Player {
        let p = Player()
        p.audioOutputChoice = .pulse(device: sink.name)
        return p
    }
}

/// A flag set when the player's current item plays to its end (its next `.ended` event).
@MainActor
func endedFlag(_ player: Player) -> Flag {
    let flag = Flag()
    let events = player.events()
    Task { @MainActor in
        for await e in events {
            if case .ended = e.kind {
                flag.value = true
                return
            }
        }
    }
    return flag
}

/// A gap's failure message: its length, and how long after the player's last write the last three underflows of
/// this process came (`PlaybackCounters.secondsSinceWriteAtUnderflows`): near zero, the writer kept writing and the
/// server ran dry anyway (nothing decoded, or the machine stood still); near the output's buffer latency (0.3 s) or
/// more, the writer was held back.
func gapMessage(_ samples: [Float]) -> Comment {
    let since = PlaybackCounters.secondsSinceWriteAtUnderflows.suffix(3).map { ($0 * 1000).rounded() / 1000 }
    let at = AudioAnalysis.longestGapRange(samples).map { String(format: "%.3f", Double($0.lowerBound) / 48_000) }
    return Comment(
        rawValue: "a gap of \(AudioAnalysis.longestGap(samples)) s at \(at ?? "-") s of \(samples.count / 48_000) s"
            + " (the last underflows \(since) s after a write)")
}

/// The lengths (seconds) of the runs of silence of at least `seconds` inside the loud span of `samples`.
func silences(_ samples: [Float], atLeast seconds: Double) -> [Double] {
    guard let span = AudioAnalysis.soundSpan(samples) else { return [] }
    var result: [Double] = []
    var quiet = 0
    for i in span {
        if abs(samples[i]) > 0.01 {
            if Double(quiet) / 48_000 >= seconds { result.append(Double(quiet) / 48_000) }
            quiet = 0
        } else {
            quiet += 1
        }
    }
    return result
}

/// The tone (Hz) of the `HLSFixtures.renditionLadder` rendition that `option` names (0 for none).
func renditionTone(_ option: MediaSelectionOption) -> Int {
    HLSFixtures.audioRenditions.first { $0.language == option.extendedLanguageTag }?.tone ?? 0
}
