import Testing

@testable import Playhead

/// The playback loop's state machine alone: for each command the player sends, what is done to which period and in
/// which order. The order is the behaviour: a period gets the volume before it starts and the rate after, a queued
/// period is stopped before the one that plays, the output goes to a promoted period before it presents.
@Suite struct PlaybackTimelineTests {
    final class Period: CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        var description: String { name }
    }

    typealias Timeline = PlaybackTimeline<Period>

    /// Effects as text, so a wrong order reads plainly in a failure.
    static func text(_ effects: [Timeline.Effect]) -> [String] {
        effects.map { e in
            switch e {
            case .play(let p): "play \(p)"
            case .enqueue(let p): "enqueue \(p)"
            case .start(let p, let at): "start \(p) at \(at.map { "\($0)" } ?? "start")"
            case .activate(let p): "activate \(p)"
            case .setRate(let p, let r): "rate \(p) \(r)"
            case .setVolume(let p, let v, let m): "volume \(p) \(v)\(m ? " muted" : "")"
            case .seek(let p, let s, let exact, let id): "seek \(p) \(s)\(exact ? " exact" : "") #\(id)"
            case .stop(let p): "stop \(p)"
            case .closeOutput: "close output"
            }
        }
    }

    @Test func aPeriodGetsTheOutputAndTheVolumeBeforeItStartsAndTheRateAfter() {
        var t = Timeline()
        let a = Period("a")
        #expect(Self.text(t.apply(.setVolume(0.5, muted: false))).isEmpty)
        #expect(Self.text(t.apply(.setRate(1))).isEmpty)
        #expect(
            Self.text(t.apply(.begin(a, at: 3))) == ["play a", "volume a 0.5", "start a at 3.0", "rate a 1.0"])
        #expect(t.playing === a && t.rate == 1)
    }

    @Test func beginningAnotherPeriodStopsTheOneThatPlayedFirst() {
        var t = Timeline()
        let (a, b) = (Period("a"), Period("b"))
        _ = t.apply(.begin(a, at: nil))
        #expect(
            Self.text(t.apply(.begin(b, at: nil))) == [
                "stop a", "play b", "volume b 1.0", "start b at start", "rate b 0.0",
            ])
        #expect(t.periods.map(\.name) == ["b"])
    }

    @Test func aPreloadedPeriodIsQueuedOnceStartedAndFollowsTheRateAndVolume() {
        var t = Timeline()
        let (a, b, c) = (Period("a"), Period("b"), Period("c"))
        _ = t.apply(.begin(a, at: nil))
        _ = t.apply(.setRate(2))
        #expect(
            Self.text(t.apply(.preload(b, at: nil))) == [
                "volume b 1.0", "start b at start", "rate b 2.0", "enqueue b",
            ])
        #expect(Self.text(t.apply(.setRate(0))) == ["rate a 0.0", "rate b 0.0"])
        #expect(Self.text(t.apply(.setVolume(0.25, muted: true))) == ["volume a 0.25 muted", "volume b 0.25 muted"])
        // A different next item: the one preloaded before stops first.
        #expect(
            Self.text(t.apply(.preload(c, at: 1))) == [
                "stop b", "volume c 0.25 muted", "start c at 1.0", "rate c 0.0", "enqueue c",
            ])
        #expect(Self.text(t.apply(.discardNext)) == ["stop c"])
        #expect(Self.text(t.apply(.discardNext)).isEmpty)
    }

    @Test func promotingStopsThePeriodThatPlayedThenHandsTheOutputOnAndPresents() {
        var t = Timeline()
        let (a, b) = (Period("a"), Period("b"))
        _ = t.apply(.begin(a, at: nil))
        _ = t.apply(.preload(b, at: nil))
        #expect(Self.text(t.apply(.promote)) == ["stop a", "play b", "activate b"])
        #expect(t.playing === b && t.next == nil)
        // Nothing queued: nothing to promote.
        #expect(Self.text(t.apply(.promote)).isEmpty)
    }

    @Test func seeksGoToThePlayingPeriodOnly() {
        var t = Timeline()
        let (a, b) = (Period("a"), Period("b"))
        #expect(Self.text(t.apply(.seek(to: 4, exact: true, id: 1))).isEmpty)
        _ = t.apply(.begin(a, at: nil))
        _ = t.apply(.preload(b, at: nil))
        #expect(Self.text(t.apply(.seek(to: 4, exact: true, id: 2))) == ["seek a 4.0 exact #2"])
    }

    @Test func closingStopsTheQueuedPeriodBeforeThePlayingOneThenClosesTheOutputOnce() {
        var t = Timeline()
        let (a, b, c) = (Period("a"), Period("b"), Period("c"))
        _ = t.apply(.begin(a, at: nil))
        _ = t.apply(.preload(b, at: nil))
        #expect(Self.text(t.apply(.close)) == ["stop b", "stop a", "close output"])
        #expect(t.closed && t.periods.isEmpty)
        #expect(Self.text(t.apply(.close)).isEmpty)
        // A period begun after a close plays again (the player opened its sound anew).
        #expect(Self.text(t.apply(.begin(c, at: nil))).first == "play c")
        #expect(!t.closed)
    }

    @Test func stoppingThePlayingPeriodLeavesNothingPlaying() {
        var t = Timeline()
        let a = Period("a")
        #expect(Self.text(t.apply(.stopPlaying)).isEmpty)
        _ = t.apply(.begin(a, at: nil))
        #expect(Self.text(t.apply(.stopPlaying)) == ["stop a"])
        #expect(Self.text(t.apply(.setRate(1))).isEmpty)
    }
}
