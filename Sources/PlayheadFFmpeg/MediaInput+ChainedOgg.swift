import CFFmpeg
import PlayheadCore

/// A chained Ogg stream (an Ogg internet radio, where each song is a new chain, or files joined end to end)
/// starts its time stamps again at each chain: FFmpeg passes them on, and the position stood still from the first
/// song's end while the sound went on. An audio stream's time stamps are made to go on from where the last chain
/// ended, as mpv does for web radio. On the reading thread.
struct ChainedOggTimeline {
    /// Per stream index: what is added to its time stamps, and where its next packet is due (shifted).
    private var streams: [Int: (offset: Int64, next: Int64)] = [:]

    /// Shifts `packet` (of an audio stream with time base `timeBase`) past the chain before it when its time
    /// stamps went back by more than a second.
    mutating func linearize(_ packet: Packet, timeBase: (num: Int32, den: Int32)) {
        guard let ts = packet.pts ?? packet.dts, timeBase.num > 0 else { return }
        var state = streams[packet.streamIndex] ?? (0, ts)
        let second = Int64(timeBase.den / timeBase.num)
        if ts + state.offset < state.next - second {
            state.offset = state.next - ts
        }
        if state.offset != 0 {
            if packet.pts != nil { packet.pointer.pointee.pts += state.offset }
            if packet.dts != nil { packet.pointer.pointee.dts += state.offset }
        }
        state.next = ts + state.offset + max(packet.duration, 0)
        streams[packet.streamIndex] = state
    }

    /// Forgets the chains seen: after a seek, time stamps are the container's again.
    mutating func reset() { streams = [:] }
}
