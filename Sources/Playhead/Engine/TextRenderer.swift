import Foundation
import PlayheadCore
import PlayheadSubtitles

/// The text side of an engine: the cues read so far from the item's text track, the outputs showing them
/// (attached and detached at any moment), and the set of cues showing now. An output attached while cues show gets
/// them at once.
///
/// Cues are kept across seeks (a seek back finds them without reading them again; a cue read twice is kept once),
/// up to `capacity`. Threads: any. The demux thread adds cues (the video decode thread those of closed captions),
/// the engine's text thread updates the outputs, the main actor attaches and detaches; every call into an output is
/// made under the renderer's lock.
final class TextRenderer: @unchecked Sendable {
    private struct Key: Hashable {
        var start: Int64
        var text: String
    }

    static let capacity = 50_000
    private let lock = NSLock()
    private var outputs: [any LegibleOutput]
    private var cues: [SubtitleCue] = []
    /// The index in `cues` of each cue kept.
    private var known: [Key: Int] = [:]
    /// The text track shown: caption cues of another track are not kept (`setCaption`).
    private var shownTrack: Int?
    /// The index of `cues`, rebuilt when a cue was added since the last update.
    private var timeline: CueTimeline?
    private var showing: [SubtitleCue] = []
    /// The subtitle delay of the last update (`ClockedLegibleOutput`s hear when it changes).
    private var delay = 0.0

    /// A renderer sending its cues to `outputs`.
    init(outputs: [any LegibleOutput]) { self.outputs = outputs }

    private static func key(_ cue: SubtitleCue) -> Key {
        Key(start: Int64((cue.startTime * 1000).rounded()), text: cue.text)
    }

    /// Keeps `cue`; false when it was known already (or the renderer is full). Demux thread.
    func add(_ cue: SubtitleCue) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let key = Self.key(cue)
        guard cues.count < Self.capacity, known[key] == nil else { return false }
        known[key] = cues.count
        cues.append(cue)
        timeline = nil
        return true
    }

    /// Keeps a caption cue of caption track `track` while that track is the one shown, or gives the cue already
    /// kept with its start and text `cue`'s end (a caption's end is known only when the screen next changes);
    /// false when nothing changed. Video decode thread.
    func setCaption(_ cue: SubtitleCue, of track: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard shownTrack == track else { return false }
        let key = Self.key(cue)
        if let index = known[key] {
            guard cues[index].endTime != cue.endTime else { return false }
            cues[index].endTime = cue.endTime
        } else {
            // Captions are made again whenever their pictures are decoded: when full (hours of roll-up captions,
            // a cue per change), the earliest tenth goes.
            if cues.count >= Self.capacity { dropEarliest() }
            known[key] = cues.count
            cues.append(cue)
        }
        timeline = nil
        return true
    }

    /// Forgets the tenth of the cues that start first. Under the lock.
    private func dropEarliest() {
        cues.sort { $0.startTime < $1.startTime }
        cues.removeFirst(Self.capacity / 10)
        known = [:]
        for (index, cue) in cues.enumerated() { known[Self.key(cue)] = index }
    }

    /// The text track whose cues the renderer keeps (nil: none), as chosen at the open. Demux thread, before
    /// the decode threads start.
    func setShownTrack(_ track: Int?) {
        lock.lock()
        defer { lock.unlock() }
        shownTrack = track
    }

    /// Replaces every cue kept with `newCues`, those of text track `track` (nil: none), which is shown from now on;
    /// returns the cues it kept. The outputs get the new active set at the next update. Demux thread.
    func replace(with newCues: [SubtitleCue], track: Int?) -> [SubtitleCue] {
        lock.lock()
        defer { lock.unlock() }
        let old = cues
        cues = []
        known = [:]
        shownTrack = track
        for cue in newCues.prefix(Self.capacity) {
            let key = Self.key(cue)
            if known[key] == nil {
                known[key] = cues.count
                cues.append(cue)
            }
        }
        timeline = nil
        return old
    }

    /// Sends the cues active at `seconds` (their own time, `delay` behind the clock) to the outputs when they
    /// differ from those showing, or only the delay when it changed (to `ClockedLegibleOutput`s); returns when the
    /// active set next changes after `seconds` (nil: not before a new cue arrives). Text thread.
    func update(at seconds: Double, delay: Double = 0) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        let index = timeline ?? CueTimeline(cues: cues)
        timeline = index
        let active = index.activeCues(at: seconds)
        let time = MediaTime(seconds: seconds, preferredTimescale: 1000)
        let delayChanged = delay != self.delay
        self.delay = delay
        if active != showing {
            // A cue whose end became known (a caption while it is written) looks the same: outputs hear only a
            // change of what they show.
            let looksTheSame = active.count == showing.count && zip(active, showing).allSatisfy(Self.sameOnScreen)
            showing = active
            if !looksTheSame {
                for output in outputs { send(active, at: time, to: output) }
                return index.nextChange(after: seconds)
            }
        }
        if delayChanged, !showing.isEmpty {
            for case let output as any ClockedLegibleOutput in outputs { output.show(showing, at: time, delay: delay) }
        }
        return index.nextChange(after: seconds)
    }

    /// Sends `cues` to `output`, with the delay when it draws against the pictures' clock. Under the lock.
    private func send(_ cues: [SubtitleCue], at time: MediaTime, to output: any LegibleOutput) {
        if let clocked = output as? any ClockedLegibleOutput {
            clocked.show(cues, at: time, delay: delay)
        } else {
            output.show(cues, at: time)
        }
    }

    /// Whether two cues show the same: all but their end time.
    private static func sameOnScreen(_ a: SubtitleCue, _ b: SubtitleCue) -> Bool {
        var (x, y) = (a, b)
        x.endTime = 0
        y.endTime = 0
        return x == y
    }

    /// Adds `output` (once); it gets the cues showing now at once when there are any. Any thread.
    func attach(_ output: any LegibleOutput, at seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard !outputs.contains(where: { $0 === output }) else { return }
        outputs.append(output)
        if !showing.isEmpty { send(showing, at: MediaTime(seconds: seconds, preferredTimescale: 1000), to: output) }
    }

    /// Removes `output`; it is sent nothing more. Any thread.
    func detach(_ output: any LegibleOutput) {
        lock.lock()
        defer { lock.unlock() }
        outputs.removeAll { $0 === output }
    }

    /// The cues showing now. Any thread.
    var currentCues: [SubtitleCue] {
        lock.lock()
        defer { lock.unlock() }
        return showing
    }
}
