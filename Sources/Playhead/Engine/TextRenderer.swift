import Foundation
import PlayheadCore
import PlayheadSubtitles

/// The text side of an engine: the cues read so far from the item's text track, the outputs showing them
/// (attached and detached at any moment), and the set of cues showing now. An output attached while cues show gets
/// them at once.
///
/// Cues are kept across seeks (a seek back finds them without reading them again; a cue read twice is kept once),
/// up to `capacity`. Threads: any. The demux thread adds cues, the engine's text thread updates the outputs, the
/// main actor attaches and detaches; every call into an output is made under the renderer's lock.
final class TextRenderer: @unchecked Sendable {
    private struct Key: Hashable {
        var start: Int64
        var text: String
    }

    static let capacity = 50_000
    private let lock = NSLock()
    private var outputs: [any LegibleOutput]
    private var cues: [SubtitleCue] = []
    private var known = Set<Key>()
    /// The index of `cues`, rebuilt when a cue was added since the last update.
    private var timeline: CueTimeline?
    private var showing: [SubtitleCue] = []

    /// A renderer sending its cues to `outputs`.
    init(outputs: [any LegibleOutput]) { self.outputs = outputs }

    /// Keeps `cue`; false when it was known already (or the renderer is full). Demux thread.
    func add(_ cue: SubtitleCue) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let key = Key(start: Int64((cue.startTime * 1000).rounded()), text: cue.text)
        guard cues.count < Self.capacity, known.insert(key).inserted else { return false }
        cues.append(cue)
        timeline = nil
        return true
    }

    /// Replaces every cue kept with `newCues` (another track's); returns the cues it kept. The outputs get the
    /// new active set at the next update. Demux thread.
    func replace(with newCues: [SubtitleCue]) -> [SubtitleCue] {
        lock.lock()
        defer { lock.unlock() }
        let old = cues
        cues = []
        known = []
        for cue in newCues.prefix(Self.capacity) {
            let key = Key(start: Int64((cue.startTime * 1000).rounded()), text: cue.text)
            if known.insert(key).inserted { cues.append(cue) }
        }
        timeline = nil
        return old
    }

    /// Sends the cues active at `seconds` to the outputs when they differ from those showing; returns when the
    /// active set next changes after `seconds` (nil: not before a new cue arrives). Text thread.
    func update(at seconds: Double) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        let index = timeline ?? CueTimeline(cues: cues)
        timeline = index
        let active = index.activeCues(at: seconds)
        if active != showing {
            showing = active
            let time = MediaTime(seconds: seconds, preferredTimescale: 1000)
            for output in outputs { output.show(active, at: time) }
        }
        return index.nextChange(after: seconds)
    }

    /// Adds `output` (once); it gets the cues showing now at once when there are any. Any thread.
    func attach(_ output: any LegibleOutput, at seconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard !outputs.contains(where: { $0 === output }) else { return }
        outputs.append(output)
        if !showing.isEmpty { output.show(showing, at: MediaTime(seconds: seconds, preferredTimescale: 1000)) }
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
