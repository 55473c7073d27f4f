import Foundation
import Testing

@testable import PlayheadAudio

/// The underflow log that tells a writer held back from a writer with nothing to write.
@Suite(.serialized) struct AudioCountersTests {
    /// An underflow 0.2 s after the last write is logged as about 0.2 s, and counted.
    @Test func anUnderflowRecordsTheTimeSinceTheLastWrite() {
        let before = AudioCounters.underflows
        AudioCounters.wrote()
        Thread.sleep(forTimeInterval: 0.2)
        AudioCounters.underflowed()
        #expect(AudioCounters.underflows == before + 1)
        let since = AudioCounters.secondsSinceWriteAtUnderflows.last ?? -1
        #expect(since >= 0.2 && since < 1, "logged \(since) s")
        #expect(AudioCounters.secondsSinceWriteAtUnderflows.count <= 32)
    }
}
