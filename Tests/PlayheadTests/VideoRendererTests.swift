import PlayheadCore
import PlayheadFFmpeg
import PlayheadVideo
import Testing

@testable import Playhead

/// The picture a drawing loop gets for each refresh (`VideoRenderer.frame(dueAt:)`) never steps back, even when the
/// video thread drops a late picture it had announced.
@Suite struct VideoRendererTests {
    static func picture(_ seconds: Double) throws -> VideoFrame {
        VideoFrame(frame: try Frame(), time: MediaTime(seconds: seconds, preferredTimescale: 1_000))
    }

    @Test func thePictureDueIsTheWaitingOneOnceItsTimeComes() throws {
        let renderer = VideoRenderer(outputs: [])
        renderer.present(try Self.picture(0.24))
        renderer.setUpcoming(try Self.picture(0.28))
        #expect(renderer.frame(dueAt: 0.27)?.time.seconds == 0.24)
        #expect(renderer.frame(dueAt: 0.29)?.time.seconds == 0.28)
        renderer.present(try Self.picture(0.28))
        renderer.setUpcoming(try Self.picture(0.32))
        #expect(renderer.frame(dueAt: 0.29)?.time.seconds == 0.28)
    }

    /// 0.32 was handed out as due, then dropped as late, and 0.36 waits: a refresh before 0.36 keeps 0.32 (it was
    /// drawn) instead of stepping back to 0.28. A dropped picture nobody drew changes nothing.
    @Test func aDrawnPictureDroppedAsLateStaysInsteadOfTheOneBefore() throws {
        let renderer = VideoRenderer(outputs: [])
        renderer.present(try Self.picture(0.28))
        renderer.setUpcoming(try Self.picture(0.32))
        #expect(renderer.frame(dueAt: 0.33)?.time.seconds == 0.32)
        renderer.setUpcoming(try Self.picture(0.36))
        #expect(renderer.frame(dueAt: 0.33)?.time.seconds == 0.32, "the picture stepped back")
        #expect(renderer.frame(dueAt: 0.37)?.time.seconds == 0.36)
        renderer.present(try Self.picture(0.36))
        renderer.setUpcoming(try Self.picture(0.40))
        renderer.setUpcoming(try Self.picture(0.44))
        #expect(renderer.frame(dueAt: 0.41)?.time.seconds == 0.36, "a dropped picture nobody drew was shown")
        // A seek: nothing waits, and the picture on screen stays until the seek's first one.
        renderer.setUpcoming(nil)
        #expect(renderer.frame(dueAt: 5)?.time.seconds == 0.36)
    }

    /// The video thread stops announcing a picture once its time comes, a moment before it shows it: a refresh in
    /// that moment keeps the picture it was handed.
    @Test func aDrawnPictureWhoseTimeCameStaysUntilItIsShown() throws {
        let renderer = VideoRenderer(outputs: [])
        renderer.present(try Self.picture(0.04))
        renderer.setUpcoming(try Self.picture(0.08))
        #expect(renderer.frame(dueAt: 0.09)?.time.seconds == 0.08)
        renderer.setUpcoming(nil)
        #expect(renderer.frame(dueAt: 0.09)?.time.seconds == 0.08, "the picture stepped back")
        renderer.present(try Self.picture(0.08))
        #expect(renderer.frame(dueAt: 0.09)?.time.seconds == 0.08)
    }
}
