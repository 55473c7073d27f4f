import CFFmpeg
import PlayheadCore

/// Audio time stamps that start again part-way: a chained Ogg stream (an Ogg internet radio, where each song is a
/// new chain, or files joined end to end) at each chain, an internet radio at each new connection
/// (`reconnectRadio`). FFmpeg passes them on, and the position stood still (or went back) while the sound went on.
/// An audio stream's time stamps are made to go on from where the last chain or connection ended, as mpv does for
/// web radio. On the reading thread.
struct RestartingTimeline {
    /// Per stream index: what is added to its time stamps, and where its next packet is due (shifted).
    private var streams: [Int: (offset: Int64, next: Int64)] = [:]
    /// Streams whose next packet begins a new connection: it goes on where the last one ended, however close.
    private var restarting: Set<Int> = []

    /// Shifts `packet` (of an audio stream with time base `timeBase`) past the chain before it when its time
    /// stamps went back by more than a second; true when `packet` begins a new chain or connection (its stream
    /// starts again there, from its headers).
    @discardableResult
    mutating func linearize(_ packet: Packet, timeBase: (num: Int32, den: Int32)) -> Bool {
        guard let ts = packet.pts ?? packet.dts, timeBase.num > 0 else { return false }
        var state = streams[packet.streamIndex] ?? (0, ts)
        let second = Int64(timeBase.den / timeBase.num)
        let restarts = restarting.remove(packet.streamIndex) != nil || ts + state.offset < state.next - second
        if restarts { state.offset = state.next - ts }
        if state.offset != 0 {
            if packet.pts != nil { packet.pointer.pointee.pts += state.offset }
            if packet.dts != nil { packet.pointer.pointee.dts += state.offset }
        }
        state.next = ts + state.offset + max(packet.duration, 0)
        streams[packet.streamIndex] = state
        return restarts
    }

    /// Forgets the chains seen: after a seek, time stamps are the container's again.
    mutating func reset() {
        streams = [:]
        restarting = []
    }

    /// The next packet of each stream seen comes from a new connection and goes on where the last one ended.
    mutating func restart() { restarting = Set(streams.keys) }
}
