import CFFmpeg
import PlayheadCore

/// Time stamps that jump in a container that allows it (MPEG-TS, FLV: FFmpeg's `AVFMT_TS_DISCONT`): recordings
/// joined end to end (`cat a.ts b.ts`), a broadcast's splice. At the join every stream's time stamps jump back
/// (or far ahead) together; the clock went on while the pictures came from the past (all late: hurried past and
/// dropped, 72 of 250 in a 10 s join, with a stall). They are made to go on, as FFmpeg's own tool does
/// (`ffmpeg`'s discontinuity detection, whose thresholds these are): a stream whose decoding time goes back more
/// than 0.1 s from its last, or lands more than 10 s from where its next packet was due, starts a jump; each
/// other stream that jumps about as far (within a second) takes the same shift, so the joined part keeps its own
/// sound and pictures in step. Shorter forward jumps are left: sound missing for a while (silence fills it).
/// On the reading thread.
struct DiscontinuousTimeline {
    /// A jump: how far (seconds), whether the sound made it, its number, and the shift of all time stamps since
    /// (every jump so far: what a stream seen only now starts with).
    private struct Jump {
        var delta: Double
        var bySound: Bool
        var id: Int
        var offset: Double
    }

    /// One stream's state: seconds added to its time stamps, the jump they include (as applied), its last decoding
    /// time and when its next is due.
    private struct Stream {
        var offset = 0.0
        var jump: (id: Int, delta: Double)?
        var last = -Double.infinity
        var next = -Double.infinity
    }

    private var streams: [Int: Stream] = [:]
    /// The latest jump. The sound's measure of it wins: the joined part's sound then follows the sound before it
    /// without a gap or an overlap (the pictures of two recordings end a few frames apart from their sound), and
    /// the streams that jumped before it move by the difference (a few hundredths of a second).
    private var jump: Jump?

    /// Shifts `packet` (of a stream with time base `timeBase` and media type `type`) past the jumps seen so far.
    /// Only sound and pictures make jumps: subtitles and data come seconds or minutes apart, and take the shift of
    /// the latest jump.
    mutating func correct(_ packet: Packet, timeBase: (num: Int32, den: Int32), type: StreamInfo.MediaType) {
        guard timeBase.num > 0, timeBase.den > 0, let raw = packet.dts ?? packet.pts else { return }
        let unit = Double(timeBase.num) / Double(timeBase.den)
        let isSound = type == .audio
        guard isSound || type == .video else {
            shift(packet, by: jump?.offset ?? 0, unit: unit)
            return
        }
        let index = packet.streamIndex
        var state = streams[index] ?? Stream(offset: jump?.offset ?? 0, jump: jump.map { ($0.id, $0.delta) })
        // The jump this stream took, measured again since by the sound.
        if let taken = state.jump, let jump, taken.id == jump.id, taken.delta != jump.delta {
            state.offset += taken.delta - jump.delta
            state.jump = (jump.id, jump.delta)
        }
        var t = Double(raw) * unit + state.offset
        let delta = t - state.next
        if state.next.isFinite, abs(delta) > 10 || t + 0.1 < state.last {
            if var jump, abs(delta - jump.delta) < 1, state.jump?.id != jump.id {
                // The jump another stream made.
                if isSound && !jump.bySound {
                    jump.offset += jump.delta - delta
                    jump.delta = delta
                    jump.bySound = true
                    self.jump = jump
                }
                state.offset -= jump.delta
                state.jump = (jump.id, jump.delta)
            } else {
                state.offset -= delta
                state.jump = ((jump?.id ?? 0) + 1, delta)
                jump = Jump(delta: delta, bySound: isSound, id: (jump?.id ?? 0) + 1, offset: state.offset)
            }
            t = Double(raw) * unit + state.offset
        }
        shift(packet, by: state.offset, unit: unit)
        state.last = t
        state.next = t + Double(max(packet.duration, 0)) * unit
        streams[index] = state
    }

    private func shift(_ packet: Packet, by offset: Double, unit: Double) {
        guard offset != 0 else { return }
        let ticks = Int64((offset / unit).rounded())
        if packet.pts != nil { packet.pointer.pointee.pts += ticks }
        if packet.dts != nil { packet.pointer.pointee.dts += ticks }
    }

    /// Forgets the jumps: after a seek, time stamps are the container's again.
    mutating func reset() {
        streams = [:]
        jump = nil
    }
}
