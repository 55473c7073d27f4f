import Foundation
import PlayheadCore
import PlayheadFFmpeg

/// The bytes handed to FFmpeg (`ChainedByteSource`): reads from the segments loaded, parts that start again at byte
/// 0 with their init section, and the interrupt that ends a download or a live wait for good. Demux thread, but
/// `interrupt` (any thread).
extension HLSSource {
    func read(into out: UnsafeMutableRawBufferPointer) throws -> Int {
        while position == buffer.count {
            guard loadsOnRead, try loadNext() else { return 0 }
            PlaybackCounters.loadsInsideFFmpeg.withLock { $0 += 1 }
        }
        let n = min(out.count, buffer.count - position)
        buffer.withUnsafeBytes { src in
            out.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[position..<(position + n)]))
        }
        position += n
        return n
    }

    /// After a part break: the next part starts with the new init section, at byte 0 of a new I/O context.
    func beginNextPart() -> Bool {
        // Once `HLSMediaSource` loads the segments, it opens the parts itself (`takePartBreak`).
        guard loadsOnRead else { return false }
        return takePartBreak()
    }

    /// Starts the next part when the bytes handed out so far end one (`partBreak`): its init section goes first,
    /// at byte 0 of a new I/O context. False when there is no part break.
    func takePartBreak() -> Bool {
        guard partBreak else { return false }
        partBreak = false
        lastMap = nil
        startOver()
        return true
    }

    /// Forgets the bytes handed out: the next ones start a new part of the input at byte 0.
    func startOver() {
        marks.removeAll()
        produced = 0
        codecsChanged = false
        lastMark = nil
        buffer = Data()
        position = 0
    }

    /// `data`, after the current init section when every segment must carry it and `data` was loaded without it.
    func withInit(_ data: Data, fetchedInit: Bool) -> Data {
        repeatsInit && !fetchedInit && lastMap != nil && !mapSkipped ? mapBytes + data : data
    }

    func seek(to offset: Int64) -> Bool { false }
    var size: Int64? { nil }

    var isCancelled: Bool { cancelled.current }

    /// Cancels the download in flight and any wait for a live reload, for good (the engine stops).
    func interrupt() {
        cancelled.withLock { $0 = true }
        fetch.cancel()
        runningReload.current.chain?.stop()
        wakeup.signal()
    }
}
