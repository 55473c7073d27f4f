import Foundation
import PlayheadFFmpeg
import PlayheadTestSupport
import Testing

/// Chained Ogg files read link by link: the links found from the pages, their lengths, their time line.
struct OggChainSourceTests {
    @Test func findsTheLinksOfSongsJoinedEndToEnd() throws {
        let songs = try Fixtures.oggSongs()
        let chain = try #require(OggChainSource(path: try Fixtures.chainedOgg().path))
        let sizes = try songs.map { Int64(try Data(contentsOf: $0).count) }
        #expect(chain.links.map { $0.bytes.count } == sizes.map { Int($0) })
        #expect(chain.links.map { $0.bytes.lowerBound } == [0, sizes[0], sizes[0] + sizes[1]])
        for (i, link) in chain.links.enumerated() {
            #expect(abs(link.duration - 4) < 0.05, "link \(i): \(link)")
            #expect(abs(link.start - (chain.links[0].start + 4 * Double(i))) < 0.1, "link \(i): \(link)")
        }
        #expect(abs(chain.end - chain.links[0].start - 12) < 0.1)
    }

    /// One link, or (read no further than its first and last pages) a song joined to itself: FFmpeg plays those
    /// as they are.
    @Test func aSingleOggFileIsNoChain() throws {
        let twice = Paths.scratch("ogg-twice").appendingPathComponent("twice.ogg")
        try FileManager.default.createDirectory(
            at: twice.deletingLastPathComponent(), withIntermediateDirectories: true)
        let song = try Data(contentsOf: try Fixtures.oggSongs()[0])
        try (song + song).write(to: twice)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: twice.path)
        #expect(OggChainSource(path: twice.path) == nil)
        #expect(OggChainSource(path: try Fixtures.oggSongs()[0].path) == nil)
        #expect(OggChainSource(path: try Fixtures.tone(seconds: 1, ext: "ogg").path) == nil)
        #expect(OggChainSource(path: try Fixtures.tone(seconds: 1, ext: "flac").path) == nil)
    }
}

extension OggChainSourceTests {
    /// Read through as one input, the links' time stamps go on from one link to the next (FFmpeg's own start
    /// again at each: 4 s back), every packet is on the first link's stream, and the last ends at the chain's end.
    @Test func theLinksReadAsOneTimeline() throws {
        let path = try Fixtures.chainedOggOfMixedCodings().path
        let chain = try #require(OggChainSource(path: path))
        #expect(chain.links.map { ($0.duration * 10).rounded() / 10 } == [4, 3, 3], "\(chain.links)")
        let input = try MediaInput(source: chain, name: path)
        var last = -Double.infinity
        var backwards = 0
        var end = 0.0
        while let packet = try input.readPacket() {
            #expect(packet.streamIndex == 0)
            let stream = input.streams[packet.streamIndex]
            guard let pts = packet.pts else { continue }
            let seconds = stream.seconds(pts)
            // A link's first packet may start before the link by the pre-roll its decoder drops (Opus: 6.5 ms).
            if seconds < last - 0.01 { backwards += 1 }
            last = seconds
            end = max(end, seconds + stream.seconds(max(packet.duration, 0)))
        }
        #expect(backwards == 0)
        #expect(abs(end - chain.end) < 0.05, "read to \(end), the chain ends at \(chain.end)")
    }
}
