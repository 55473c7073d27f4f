import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `PlayerItemVideoOutput`: an app's drawing loop asks for the picture of each refresh and gets the one the
/// clock says, in the layout it chose.
@MainActor @Suite(.serialized) struct PlayerItemVideoOutputTests {
    /// The frame number `Fixtures.numberedVideo` draws, read from a copied picture's Y plane or BGRA plane.
    nonisolated static func number(in buffer: PixelBuffer) -> Int {
        let plane = buffer.planes[0]
        let bytes = buffer.format == .bgra ? 4 : 1
        return Fixtures.frameNumber { x, y in plane.bytes[y * plane.bytesPerRow + x * bytes] }
    }

    /// A loop like an app's display refresh (every 16 ms, asking for the time the next refresh shows) copies each
    /// new picture once: its content is the frame its time says, and that time is the one due (within a frame).
    /// Right after a copy nothing is new for the same time, unless a later picture arrived in between (the video
    /// thread announces the next picture once it has shown the one before): that one is copied and checked too.
    @Test(arguments: [PixelBuffer.Format.yuv420Planar, .bgra])
    func aDrawingLoopGetsThePictureTheClockSays(_ format: PixelBuffer.Format) async throws {
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.numberedVideo())
        let output = PlayerItemVideoOutput(pixelFormat: format)
        item.add(output)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        let result = await Task.detached { () -> (copies: Int, wrong: [String]) in
            var copies = 0
            var wrong: [String] = []
            let end = PlayerItemVideoOutput.currentHostTime + 2
            while PlayerItemVideoOutput.currentHostTime < end {
                let due = output.itemTime(forHostTime: PlayerItemVideoOutput.currentHostTime + 0.016)
                var previous: Double?
                while output.hasNewPixelBuffer(forItemTime: due), let buffer = output.copyPixelBuffer(forItemTime: due)
                {
                    copies += 1
                    let time = buffer.presentationTime.seconds
                    if let previous, time <= previous {
                        wrong.append("the same picture again at \(time) s")
                        break
                    }
                    previous = time
                    let number = Self.number(in: buffer)
                    if number != Int((time * 25).rounded()) % 256 { wrong.append("frame \(number) at \(time) s") }
                    if time > due.seconds + 0.001 || time < due.seconds - 0.08 {
                        wrong.append("a picture of \(time) s for \(due.seconds) s")
                    }
                    let planes = buffer.format == .bgra ? 1 : 3
                    if buffer.planes.count != planes || buffer.width != 320 || buffer.height != 240 {
                        wrong.append("\(buffer.planes.count) planes of \(buffer.width)x\(buffer.height)")
                    }
                }
                try? await Task.sleep(for: .milliseconds(16))
            }
            return (copies, wrong)
        }.value
        #expect(result.copies >= 30, "\(result.copies) pictures in 2 s of 25 fps")
        #expect(result.wrong.isEmpty, "\(result.wrong.prefix(5))")
    }

    /// Paused, the item time stands still and the picture on screen is copied once; an output of another item, or
    /// one removed, hands out nothing.
    @Test func pausedOrOfAnotherItemNothingNew() async throws {
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.numberedVideo())
        let output = PlayerItemVideoOutput(pixelFormat: .yuv420Planar)
        item.add(output)
        let other = PlayerItemVideoOutput()
        let otherItem = PlayerItem(url: try Fixtures.numberedVideo())
        otherItem.add(other)
        player.replaceCurrentItem(with: item)
        _ = await player.seek(
            to: MediaTime(seconds: 2, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(await eventually { output.copyPixelBuffer(forItemTime: player.currentTime()) != nil }, "no picture")
        let now = PlayerItemVideoOutput.currentHostTime
        let (a, b) = (output.itemTime(forHostTime: now), output.itemTime(forHostTime: now + 1))
        #expect(a == b && abs(a.seconds - 2) < 0.05, "paused at \(a.seconds) s, a second later \(b.seconds) s")
        let buffer = try #require(output.copyPixelBuffer(forItemTime: b))
        #expect(Self.number(in: buffer) == 50, "frame \(Self.number(in: buffer)) at 2 s")
        #expect(!output.hasNewPixelBuffer(forItemTime: b), "a new picture while paused")
        #expect(other.copyPixelBuffer(forItemTime: b) == nil, "another item's output got a picture")
        #expect(!other.itemTime(forHostTime: now).isValid)
        item.remove(output)
        otherItem.remove(other)
        #expect(output.copyPixelBuffer(forItemTime: b) == nil, "a removed output got a picture")
    }
}
