import PlayheadCore
import PlayheadFFmpeg
import Testing

@testable import Playhead

/// Which kept packets of another sound track a switch decodes: from just before the point it needs, not the
/// seconds before it (decoding them delays the first new sample past what the output holds on a busy machine).
@Suite struct AudioSwitchPacketsTests {
    /// MPEG-TS stamps only the first AAC frame of each PES packet: packets without a stamp go with the one before.
    @Test func aSwitchStartsAtTheLastStampBeforeItsPoint() throws {
        var alternates = PlaybackEngine.AlternateAudio()
        let stamps: [Double?] = [0.0, nil, nil, 0.5, nil, nil, 1.0, nil]
        for seconds in stamps {
            alternates.add(MediaSample(track: 2, packet: try Packet(), seconds: seconds), playHead: 0)
        }
        #expect(alternates.packets(of: 2, from: 0.6).map(\.seconds) == [0.5, nil, nil, 1.0, nil])
        #expect(alternates.packets(of: 2, from: 1.0).map(\.seconds) == [1.0, nil])
        #expect(alternates.packets(of: 2, from: 0.2).count == 8)
        #expect(alternates.packets(of: 2, from: -1).count == 8, "none stamped before: all of them")
        #expect(alternates.packets(of: 3, from: 0).isEmpty)
    }
}
