import Foundation
import Playhead
import PlayheadTestSupport
import Testing

@testable import PlayheadAudio

/// `Player` and the audio session: a call pauses it, the call's end resumes it only if it was playing and nobody
/// changed its rate meanwhile.
@MainActor @Suite(.serialized) struct AudioSessionPlayerTests {
    @Test func aCallPausesThePlayerAndOnlyAPlayingPlayerResumes() async throws {
        try AudioSession.shared.setCategory(.playback)
        defer { try? AudioSession.shared.setCategory(.soloAmbient) }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 20)))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(300))

        var phone = try call(on: sink.name)
        #expect(await eventually { player.isInterruptedByAudioSession && player.timeControlStatus == .paused })
        let pausedAt = player.currentTime().seconds
        try await Task.sleep(for: .milliseconds(500))
        #expect(abs(player.currentTime().seconds - pausedAt) < 0.01, "time moved during the call")
        Run.kill(phone)
        #expect(await eventually { !player.isInterruptedByAudioSession && player.timeControlStatus == .playing })

        // Paused by the app before the call: the call's end does not start it.
        player.pause()
        phone = try call(on: sink.name)
        try await Task.sleep(for: .milliseconds(500))
        Run.kill(phone)
        try await Task.sleep(for: .milliseconds(700))
        #expect(player.timeControlStatus == .paused && player.rate == 0)

        // Paused by the app during the call: it stays paused too.
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        phone = try call(on: sink.name)
        #expect(await eventually { player.isInterruptedByAudioSession })
        player.pause()
        Run.kill(phone)
        #expect(await eventually { !player.isInterruptedByAudioSession })
        try await Task.sleep(for: .milliseconds(700))
        #expect(player.timeControlStatus == .paused && player.rate == 0)
    }

    /// A call interrupts what is heard: a player whose sound goes nowhere (a null output) plays on through it
    /// while the one heard on the sink pauses.
    @Test func aCallLeavesAPlayerHeardNowherePlaying() async throws {
        try AudioSession.shared.setCategory(.playback)
        defer { try? AudioSession.shared.setCategory(.soloAmbient) }
        let sink = try TestSink()
        let heard = Player.onSink(sink)
        defer { heard.close() }
        heard.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 20)))
        let silent = Player()
        silent.audioOutputChoice = .null(untimed: false)
        defer { silent.close() }
        silent.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 20)))
        heard.play()
        silent.play()
        #expect(await eventually { heard.timeControlStatus == .playing && silent.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(300))
        let phone = try call(on: sink.name)
        defer { Run.kill(phone) }
        #expect(await eventually { heard.isInterruptedByAudioSession && heard.timeControlStatus == .paused })
        try await Task.sleep(for: .milliseconds(300))
        #expect(silent.timeControlStatus == .playing && !silent.isInterruptedByAudioSession, "the silent player paused")
    }

    /// Rule 17: an interruption that ends without `.shouldResume` does not resume the player. On this platform the
    /// session ends one so when the sound server goes away during the call; here the session is told to end it
    /// while the call still holds the stream corked (`endInterruption(shouldResume: false)`, internal).
    @Test func aCallThatEndsWithoutShouldResumeLeavesThePlayerPaused() async throws {
        try AudioSession.shared.setCategory(.playback)
        defer { try? AudioSession.shared.setCategory(.soloAmbient) }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let ends = Locked([AudioSession.InterruptionOptions]())
        let token = AudioSession.shared.addObserver { event in
            if case .interruption(.ended, let options) = event { ends.withLock { $0.append(options) } }
        }
        defer { AudioSession.shared.removeObserver(token) }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 20)))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        let phone = try call(on: sink.name)
        defer { Run.kill(phone) }
        #expect(await eventually { player.isInterruptedByAudioSession && player.timeControlStatus == .paused })
        AudioSession.shared.endInterruption(shouldResume: false)
        #expect(await eventually { !player.isInterruptedByAudioSession })
        #expect(ends.current == [[]], "\(ends.current)")
        try await Task.sleep(for: .milliseconds(700))
        #expect(player.timeControlStatus == .paused && player.rate == 0)
        Run.kill(phone)
        try await Task.sleep(for: .milliseconds(700))
        #expect(player.timeControlStatus == .paused && player.rate == 0, "the call's end resumed it")
    }

    /// The exception to rule 17 for a program nothing can resume: with `resumesAfterInterruptionWithoutAdvice` a call
    /// that ends without `.shouldResume` resumes the player as one with it does.
    @Test func aPlayerNothingCouldResumeResumesAfterACallEndedWithoutAdvice() async throws {
        try AudioSession.shared.setCategory(.playback)
        defer { try? AudioSession.shared.setCategory(.soloAmbient) }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        player.resumesAfterInterruptionWithoutAdvice = true
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 20)))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        let phone = try call(on: sink.name)
        defer { Run.kill(phone) }
        #expect(await eventually { player.isInterruptedByAudioSession && player.timeControlStatus == .paused })
        let pausedAt = player.currentTime().seconds
        AudioSession.shared.endInterruption(shouldResume: false)
        #expect(await eventually { player.timeControlStatus == .playing && player.rate == 1 })
        #expect(await eventually { player.currentTime().seconds > pausedAt + 0.3 }, "the clock stands")
    }

    /// Rule 17: with `resumesAfterInterruption` false the player stays paused even when the call ends with
    /// `.shouldResume`; the app resumes it (here at once, as an app that asks its user would later).
    @Test func anAppThatOptsOutOfResumingResumesItself() async throws {
        try AudioSession.shared.setCategory(.playback)
        defer { try? AudioSession.shared.setCategory(.soloAmbient) }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        #expect(player.resumesAfterInterruption, "the default resumes, as before")
        player.resumesAfterInterruption = false
        let ends = Locked([AudioSession.InterruptionOptions]())
        let token = AudioSession.shared.addObserver { event in
            if case .interruption(.ended, let options) = event { ends.withLock { $0.append(options) } }
        }
        defer { AudioSession.shared.removeObserver(token) }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 20)))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        let phone = try call(on: sink.name)
        #expect(await eventually { player.isInterruptedByAudioSession && player.timeControlStatus == .paused })
        Run.kill(phone)
        #expect(await eventually { !player.isInterruptedByAudioSession })
        #expect(ends.current == [.shouldResume], "\(ends.current)")
        try await Task.sleep(for: .milliseconds(700))
        #expect(player.timeControlStatus == .paused && player.rate == 0, "it resumed by itself")
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
    }

    /// Rule 45: `play()` activates the session, as AVPlayer does, so the app's category works with no
    /// `setActive` call: with `.duckOthers` chosen, another program's stream is lowered on the server as soon as
    /// the player plays, and the player's stream has the category's role. A player whose sound does not go to the
    /// server (a null output) activates nothing.
    @Test func playingActivatesTheSessionSoDuckingWorksWithoutAppCode() async throws {
        let session = AudioSession.shared
        try session.setActive(false)  // a player of an earlier test activated it
        try session.setCategory(.playback, options: .duckOthers)
        defer {
            try? session.setActive(false)
            try? session.setCategory(.soloAmbient)
        }
        let sink = try TestSink()
        let otherSink = try TestSink()
        let other = Process()
        other.executableURL = URL(fileURLWithPath: try Run.which("paplay"))
        other.arguments = ["--device=\(otherSink.name)", try Fixtures.tone(seconds: 20, ext: "wav").path]
        try Run.start(other)
        defer { Run.kill(other) }
        func otherVolume() -> Double? { (try? SinkInput.of(process: other.processIdentifier))?.first?.volume }
        #expect(
            await eventually { otherVolume() == 1 }, "the other program's stream: \(String(describing: otherVolume()))")

        let silent = Player()
        silent.audioOutputChoice = .null(untimed: false)
        defer { silent.close() }
        silent.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 20)))
        silent.play()
        #expect(await eventually { silent.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(500))
        #expect(!session.isActive, "a player on a null output activated the session")
        #expect(otherVolume() == 1, "the other stream at \(String(describing: otherVolume())) with no sound of ours")
        silent.close()

        let player = Player.onSink(sink)
        defer { player.close() }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 20)))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        #expect(await eventually { session.isActive }, "play() did not activate the session")
        #expect(
            await eventually { abs((otherVolume() ?? 1) - AudioSession.duckingFactor) < 0.01 },
            "the other stream at \(String(describing: otherVolume())) while the player plays: not ducked")
        let ours = try SinkInput.all().filter { $0.sink == sink.name }
        #expect(ours.map(\.role) == ["music"], "the player's stream: \(ours.map(\.properties))")
        // Pausing keeps the session active (AVPlayer leaves deactivation to the app); deactivating restores.
        player.pause()
        try await Task.sleep(for: .milliseconds(300))
        #expect(session.isActive && abs((otherVolume() ?? 1) - AudioSession.duckingFactor) < 0.01)
        try session.setActive(false)
        #expect(otherVolume() == 1, "the other stream at \(String(describing: otherVolume())) after deactivation")
    }

    /// A call: a `pacat` playing silence with `media.role=phone` on `sink` (`module-role-cork` corks the others).
    func call(on sink: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Run.which("pacat"))
        p.arguments = ["--property=media.role=phone", "--device=\(sink)", "/dev/zero"]
        try Run.start(p)
        return p
    }
}
