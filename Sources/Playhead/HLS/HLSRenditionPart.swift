import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// What an HLS rendition that is a part of an item's `MergedSource` keeps, sound (`HLSRenditionSource`) or
/// subtitles (`HLSSubtitleSource`): the rendition, the variant's client (whose input's time stamp 0 is
/// `mainStart`), whether it is the part's default track, how its requests are made, and the engine once attached.
///
/// Threads: as `MediaSource` (the demux thread; `cancelled` from any thread).
class HLSRenditionPart: @unchecked Sendable {
    /// The identifier of the rendition's one track (within its part).
    static let trackID = 0

    let rendition: Rendition
    let main: HLSSource
    let mainStart: Double
    let isPreferred: Bool
    let options: HLSClientOptions
    let stopping: (@Sendable () -> Bool)?
    /// The engine, once attached.
    private(set) var host: SourceHost?
    let cancelled = Locked(false)
    /// The rendition could not be opened (or its segments could not be had): nothing more is tried for this
    /// item's engine.
    var failed = false

    init(
        rendition: Rendition, main: HLSSource, mainStart: Double, isPreferred: Bool, options: HLSClientOptions,
        stopping: (@Sendable () -> Bool)?
    ) {
        self.rendition = rendition
        self.main = main
        self.mainStart = mainStart
        self.isPreferred = isPreferred
        self.options = options
        self.stopping = stopping
    }

    /// The file or URL, as errors name it.
    var name: String { rendition.url?.absoluteString ?? rendition.name }

    func attach(_ host: SourceHost) { self.host = host }

    /// The rendition's one track as the playlist describes it: its language, its `NAME` as the title, its
    /// characteristics.
    func describedStream(_ type: StreamInfo.MediaType, codec: String, isDecodable: Bool, channels: Int = 0)
        -> StreamInfo
    {
        var stream = StreamInfo(
            describing: type, index: Self.trackID, codecName: codec, isDecodable: isDecodable, channels: channels,
            language: rendition.language, title: rendition.name.isEmpty ? nil : rendition.name)
        stream.characteristics = Self.characteristics(of: rendition)
        stream.group = rendition.groupID
        return stream
    }

    /// `CHARACTERISTICS` (comma-separated UTIs), and "public.subtitles.forced-only" for `FORCED=YES`.
    static func characteristics(of rendition: Rendition) -> [String] {
        let listed = (rendition.characteristics ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        return listed + (rendition.forced ? ["public.subtitles.forced-only"] : [])
    }
}
