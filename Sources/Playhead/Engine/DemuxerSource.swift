import Foundation
import PlayheadCore
import PlayheadFFmpeg

/// A media source FFmpeg demuxes: a local file (followed while it is still being written), a URL through FFmpeg's
/// own protocols, or the byte stream of Playhead's HLS client (`HLSSource`, whose loading, ABR and live reloads
/// still run under FFmpeg's read callback; `DemuxerSource+HLS.swift`).
///
/// Tracks are the input's audio, video and subtitle streams, identified by stream index; streams a container adds
/// after the open (an MPEG-TS program map that grows) are not tracks and their packets are skipped.
///
/// Threads: owned by the engine's demux thread; `interrupt()` and `cancel()` may come from any thread.
final class DemuxerSource: MediaSource, @unchecked Sendable {
    let input: MediaInput
    /// The HLS client feeding the input, when it is an HLS stream.
    let hls: HLSSource?
    let tracks: [MediaTrack]
    private let follower: FileFollower?
    /// Whether a jump found while paused may be taken now (set by `attachHLS`; demux thread).
    var jumpAllowed: @Sendable () -> Bool = { true }

    /// Wraps an opened input; `location` is what was opened (a local file is followed while it grows).
    init(input: MediaInput, location: String) {
        self.input = input
        hls = input.byteSource as? HLSSource
        follower = FileFollower(location: location)
        let offset = input.startSeconds
        tracks = input.streams.compactMap { stream in
            let kind: TrackKind
            switch stream.mediaType {
            case .audio: kind = .audio
            case .video: kind = .video
            case .subtitle: kind = .text
            case .other: return nil
            }
            return MediaTrack(id: stream.index, kind: kind, stream: stream, timelineOffset: offset)
        }
    }

    var name: String { input.name }
    var duration: MediaTime { input.duration }
    var metadata: MediaMetadata { input.metadata }
    var isSeekable: Bool { input.isSeekable }
    var formatName: String { input.formatName }

    func defaultTrack(_ kind: TrackKind) -> Int? {
        switch kind {
        case .audio: input.bestStream(.audio)
        case .video: input.bestStream(.video)
        case .text: input.bestStream(.subtitle)
        }
    }

    func makeDecoder(track: Int, threads: Int) throws(FFmpegError) -> Decoder {
        try Decoder(input: input, stream: track, threads: threads)
    }

    func attach(_ host: SourceHost) {
        if let hls { attachHLS(hls, host) }
    }

    func deliverPendingJump() {
        if let hls { _ = takeJump(hls) }
    }

    func read() throws(PlaybackError) -> SourceRead {
        while true {
            let packet: Packet?
            do {
                packet = try input.readPacket()
            } catch {
                if error.code == FFmpegError.exit {
                    // Interrupted for a command: the next read goes on where this one stopped.
                    input.resume()
                    return .interrupted
                }
                throw PlaybackError(reading: input.name, error: error)
            }
            guard let packet else { return .end }
            // Streams added after the open have no track (and no decoder): skipped.
            guard let track = track(packet.streamIndex) else { continue }
            let seconds = (packet.pts ?? packet.dts).map { track.seconds($0) }
            return .sample(MediaSample(track: track.id, packet: packet, seconds: seconds))
        }
    }

    func seek(to seconds: Double) throws(PlaybackError) {
        input.resume()
        do {
            if let hls {
                hls.reposition(at: seconds)
                if try input.restartPart() { return }
            } else {
                try input.seek(toSeconds: seconds + input.startSeconds)
                return
            }
        } catch {
            throw PlaybackError(reading: input.name, error: error)
        }
        throw PlaybackError(.parsing, source: input.name, reason: "the stream changed its tracks")
    }

    func idle() -> (ok: Bool, nextDeadline: Double?) {
        guard let hls else { return (true, nil) }
        do {
            try hls.reloadWhileIdle()
        } catch {
            return (false, nil)
        }
        return (true, hls.idleReloadDeadline)
    }

    func waitForMore(idle: Double, cancelled: () -> Bool) -> Bool {
        guard let follower, follower.waitForMore(beyond: input.bytesRead, idle: idle, cancelled: cancelled) else {
            return false
        }
        input.continueAfterEndOfFile()
        return true
    }

    func interrupt() {
        input.interrupt()
        // A wait for a live reload ends too (the HLS source's semaphore; its downloads see `seekPending`).
        hls?.wakeup.signal()
    }

    func cancel() { input.cancel() }
}
