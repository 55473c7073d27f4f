import Foundation
import PlayheadAudio
import Testing

@testable import Playhead

/// The audio renderer keeps its output as its state says.
@Suite struct AudioRendererTests {
    /// A renderer starts its output corked, as its state says (until a period plays): a paused player's first
    /// sound written to a null output started that output's clock before the cork came, and under load its time
    /// read 0.75 ms while it had never played.
    @Test func theOutputStartsCorkedUntilAPeriodPlays() throws {
        let output = NullAudioOutput()
        try output.start(format: AudioFormat())
        let renderer = AudioRenderer(output: output)
        renderer.start()
        defer { renderer.shutDown() }
        // What a paused player writes ahead (its pre-roll), as the renderer's thread would.
        let samples = [Float](repeating: 0, count: 2 * 2400)
        _ = try samples.withUnsafeBufferPointer { try output.write($0) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(output.playPosition == 0, "\(output.playPosition) frames played while corked")
        renderer.setCorked(false)
        Thread.sleep(forTimeInterval: 0.03)
        #expect(output.playPosition > 0, "nothing played once uncorked")
    }
}
