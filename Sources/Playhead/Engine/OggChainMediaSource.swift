import PlayheadFFmpeg

/// A local chained Ogg file (`OggChainSource`) as a media source: read link by link as the parts of one input, so
/// its duration is every link's together, its time goes on across the links, each link's comments become the
/// item's tags as it starts, and a seek lands in the link that holds the target. Threads: as `DemuxerSource`.
final class OggChainMediaSource: DemuxerSource, @unchecked Sendable {
    private let chain: OggChainSource

    /// Wraps `input`, opened over `chain`.
    init(input: MediaInput, chain: OggChainSource) {
        self.chain = chain
        super.init(input: input, follower: nil)
    }

    /// Opens the link that holds `seconds` as the input's new part and seeks within it. Demux thread.
    override func seek(to seconds: Double) throws(PlaybackError) {
        input.resume()
        pushedBack.removeAll()
        let target = seconds + input.startSeconds
        let link = chain.moveToLink(containing: target)
        let opened: Bool
        do throws(FFmpegError) {
            opened = try input.restartPart()
            if opened {
                try input.seek(toSeconds: target - link.offset)
                try landBeforeKeyframe(of: seconds)
            }
        } catch {
            throw PlaybackError(reading: input.name, error: error)
        }
        guard opened else {
            throw PlaybackError(.parsing, source: input.name, reason: "a link of the chained Ogg file has no sound")
        }
    }
}
