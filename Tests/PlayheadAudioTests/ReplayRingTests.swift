import Testing

@testable import PlayheadAudio

/// The frames an output keeps to play again after a server loss.
struct ReplayRingTests {
    /// Stereo frames whose left sample is the frame number and right sample its negative.
    static func frames(_ range: Range<Int>) -> [Float] {
        range.flatMap { [Float($0), -Float($0)] }
    }

    /// Every frame of `range`, read back through `withFrames` in as many pieces as the ring's wrap makes.
    static func read(_ ring: ReplayRing, _ range: Range<Int64>, piece: Int = .max) -> [Float] {
        var out: [Float] = []
        var next = range.lowerBound
        while next < range.upperBound {
            let got = ring.withFrames(from: next, limit: min(piece, Int(range.upperBound - next))) { Array($0) }
            #expect(!got.isEmpty, "nothing from frame \(next)")
            if got.isEmpty { break }
            out += got
            next += Int64(got.count / 2)
        }
        return out
    }

    @Test func theNewestFramesAreHeldAcrossTheWrap() {
        var ring = ReplayRing()
        ring.reset(channels: 2, frames: 100)
        for start in stride(from: 0, to: 250, by: 30) {
            let chunk = Self.frames(start..<start + 30)
            chunk.withUnsafeBufferPointer { ring.record($0.baseAddress!, frames: 30, at: Int64(start)) }
        }
        #expect(ring.end == 270)
        #expect(ring.holds(170..<270))
        #expect(!ring.holds(169..<270), "more than the ring's size")
        #expect(!ring.holds(200..<271), "past what was written")
        #expect(Self.read(ring, 170..<270) == Self.frames(170..<270))
        #expect(Self.read(ring, 185..<260, piece: 7) == Self.frames(185..<260))
    }

    @Test func aWriteLongerThanTheRingKeepsItsEnd() {
        var ring = ReplayRing()
        ring.reset(channels: 2, frames: 64)
        let chunk = Self.frames(0..<1000)
        chunk.withUnsafeBufferPointer { ring.record($0.baseAddress!, frames: 1000, at: 0) }
        #expect(ring.holds(936..<1000) && !ring.holds(935..<1000))
        #expect(Self.read(ring, 936..<1000) == Self.frames(936..<1000))
    }

    /// After a flush the writer goes back: what it writes again replaces the old frames, and what came before
    /// stays; a jump forward leaves nothing older held.
    @Test func goingBackReplacesAndGoingForwardForgets() {
        var ring = ReplayRing()
        ring.reset(channels: 2, frames: 100)
        Self.frames(0..<80).withUnsafeBufferPointer { ring.record($0.baseAddress!, frames: 80, at: 0) }
        let other: [Float] = Array(repeating: 7, count: 20)
        other.withUnsafeBufferPointer { ring.record($0.baseAddress!, frames: 10, at: 50) }
        #expect(ring.end == 60 && ring.holds(0..<60) && !ring.holds(0..<61))
        #expect(Self.read(ring, 40..<60) == Self.frames(40..<50) + other)
        Self.frames(90..<95).withUnsafeBufferPointer { ring.record($0.baseAddress!, frames: 5, at: 90) }
        #expect(ring.holds(90..<95) && !ring.holds(89..<95))
    }
}
