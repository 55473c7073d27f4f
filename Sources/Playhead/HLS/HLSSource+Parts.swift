import Foundation
import PlayheadCore
import PlayheadHLS

/// Where the bytes handed to FFmpeg begin a new part of the input (`beginNextPart`): a new init section, a
/// change of container or codecs, a variant switch. Demux thread.
extension HLSSource {
    /// Whether `segment` must start a new part of the input, which FFmpeg opens afresh (`beginNextPart`): it brings
    /// a new init section (an fMP4 variant switch), or, once this part has had bytes, it follows a discontinuity
    /// in bytes with no init section (MPEG-TS, packed audio), a switch to a variant in other codecs, or goes from
    /// such bytes to fMP4 or back: there the container and the codecs may change (an ad coded otherwise), which
    /// one demuxer cannot follow.
    func beginsNewPart(_ segment: MediaSegment) -> Bool {
        if let map = segment.map, lastMap != nil, !mapSkipped { return !Self.isSame(map, lastMap) }
        // Under the init section the last segments did without (MPEG-TS), the next does without it too.
        let withInit = segment.map.map { !(mapSkipped && Self.isSame($0, lastMap)) } ?? false
        let hadInit = lastMap != nil && !mapSkipped
        return produced > 0 && (segment.discontinuity || codecsChanged || withInit != hadInit)
    }

    /// The FFmpeg decoders a variant's `CODECS` name (profiles and levels left out: H.264 rungs of several profiles
    /// are one codec to a decoder); empty when it lists none.
    static func decoders(of variant: Variant) -> Set<String> {
        Set(variant.codecList.map { CodecSupport.decoderName($0) ?? $0 })
    }

    /// Whether two init sections are the same bytes: the same resolved URL and byte range (a reload of the same
    /// playlist from another URL, such as a blocking request's, changes only their base URL).
    static func isSame(_ a: MediaInitializationSection, _ b: MediaInitializationSection?) -> Bool {
        guard let b else { return false }
        return a.url?.absoluteString == b.url?.absoluteString && a.byteRange == b.byteRange
    }

    /// Continues with `media`'s segment `next` (a variant switch).
    func switchTo(_ media: MediaPlaylist, url: URL, variant: Variant, next: Int) {
        if let from = self.variant, Self.decoders(of: from) != Self.decoders(of: variant) { codecsChanged = true }
        playlist = media
        playlistURL = url
        self.variant = variant
        self.next = next
    }
}
