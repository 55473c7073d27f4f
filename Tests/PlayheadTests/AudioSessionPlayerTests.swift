import Foundation
import Playhead
import PlayheadTestSupport
import Testing

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

    private func call(on sink: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Run.which("pacat"))
        p.arguments = ["--property=media.role=phone", "--device=\(sink)", "/dev/zero"]
        try p.run()
        return p
    }
}
