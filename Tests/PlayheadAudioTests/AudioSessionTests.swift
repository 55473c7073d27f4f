import Foundation
import PlayheadCore
import PlayheadTestSupport
import Testing

@testable import PlayheadAudio

/// `AudioSession` against the test PulseAudio: roles the server shows, interruptions from cork requests, the
/// preferred output, ducking, and the calls it refuses.
@Suite(.serialized) struct AudioSessionTests {
    @Test func categoryAndModeDecideTheRoleTheServerShows() throws {
        let sink = try TestSink()
        let session = AudioSession.shared
        defer { try? session.setCategory(.soloAmbient) }
        let cases: [(AudioSession.Category, AudioSession.Mode, String)] = [
            (.playback, .default, "music"), (.playback, .moviePlayback, "video"), (.playback, .spokenAudio, "music"),
            (.playAndRecord, .voiceChat, "phone"), (.playAndRecord, .videoChat, "phone"),
            (.playAndRecord, .default, "production"), (.ambient, .default, "event"), (.soloAmbient, .default, "music"),
        ]
        for (category, mode, role) in cases {
            try session.setCategory(category, mode: mode)
            let output = try PulseAudioOutput(device: sink.name)
            try output.start(format: AudioFormat())
            let index = try #require(output.sinkInputIndex)
            #expect(try roleOfSinkInput(index) == role, "\(category) \(mode)")
            output.stop()
        }
        // Changing the category of an open stream changes its role on the server, with a route change event.
        try session.setCategory(.playback)
        let events = EventCollector()
        let output = try PulseAudioOutput(device: sink.name)
        try output.start(format: AudioFormat())
        let index = try #require(output.sinkInputIndex)
        #expect(try roleOfSinkInput(index) == "music")
        try session.setCategory(.playback, mode: .moviePlayback)
        #expect(try roleOfSinkInput(index) == "video")
        #expect(events.waitFor { $0 == .routeChange(.categoryChange, previousRoute: $0.previousRoute) })
        // A role given explicitly is kept.
        let fixed = try PulseAudioOutput(role: "event", device: sink.name)
        try fixed.start(format: AudioFormat())
        #expect(try roleOfSinkInput(try #require(fixed.sinkInputIndex)) == "event")
        fixed.stop()
        output.stop()
    }

    @Test func invalidCallsThrowClearErrors() throws {
        let session = AudioSession()
        #expect { try session.setActive(true) } throws: { "\($0)".contains("before setCategory") }
        let rejected: [(AudioSession.Category, AudioSession.Mode, AudioSession.CategoryOptions, String)] = [
            (.ambient, .default, .duckOthers, ".duckOthers"),
            (.soloAmbient, .default, .mixWithOthers, ".mixWithOthers"),
            (.playback, .default, .defaultToSpeaker, ".defaultToSpeaker"),
            (.playback, .default, .allowBluetoothHFP, ".allowBluetoothHFP"),
            (.playback, .voiceChat, [], ".voiceChat"), (.ambient, .moviePlayback, [], ".moviePlayback"),
            (.record, .spokenAudio, [], ".spokenAudio"),
        ]
        for (category, mode, options, word) in rejected {
            do {
                try session.setCategory(category, mode: mode, options: options)
                Issue.record("\(category) \(mode) \(options) was accepted")
            } catch {
                #expect(
                    error.description.contains(word) && error.description.contains(".\(category.rawValue)"), "\(error)")
            }
        }
        #expect(session.category == .soloAmbient, "a rejected call changed nothing")
        try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.defaultToSpeaker, .allowBluetoothHFP])
        let unknown = AudioSession.PortDescription(portName: "x", portType: .other, uid: "no_such_sink")
        #expect { try session.setPreferredOutput(unknown) } throws: {
            "\($0)".contains("no output named 'no_such_sink'")
        }
    }

    /// Observers hear an event in the order they were added (as `NotificationCenter` calls its observers): an app's
    /// observer added before a player's logs an interruption's end before the resumption the player makes.
    @Test func observersAreCalledInTheOrderTheyWereAdded() {
        let session = AudioSession.shared
        let heard = Locked<[Int]>([])
        let tokens = (0..<32).map { i in session.addObserver { _ in heard.withLock { $0.append(i) } } }
        session.removeObserver(tokens[5])
        session.deliver(.resumptionRecommendation(.shouldResume))
        for token in tokens { session.removeObserver(token) }
        session.deliver(.resumptionRecommendation(.shouldResume))
        #expect(heard.current == Array(0..<32).filter { $0 != 5 }, "\(heard.current)")
    }

    @Test func aCorkRequestIsAnInterruptionAndTheUncorkEndsItWithShouldResume() throws {
        let sink = try TestSink()
        let session = AudioSession.shared
        defer { try? session.setCategory(.soloAmbient) }
        try session.setCategory(.playback)
        let events = EventCollector()
        let notified = Locked<[UInt]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: AudioSession.interruptionNotification, object: nil, queue: nil
        ) { n in
            if let t = n.userInfo?[AudioSession.interruptionTypeKey] as? UInt { notified.withLock { $0.append(t) } }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let writer = try ToneWriter(PulseAudioOutput(device: sink.name))
        defer { writer.stop() }
        let phone = try startPhone(on: sink.name)
        #expect(events.waitFor { $0 == .interruption(.began, options: []) })
        #expect(session.isInterrupted)
        Run.kill(phone)
        #expect(events.waitFor { $0 == .interruption(.ended, options: .shouldResume) }, "\(events.all)")
        #expect(events.waitFor { $0 == .resumptionRecommendation(.shouldResume) })
        #expect(notified.withLock { $0 } == [1, 0])

        // With .mixWithOthers a call is not an interruption.
        try session.setCategory(.playback, options: .mixWithOthers)
        let mixed = EventCollector()
        let phone2 = try startPhone(on: sink.name)
        Thread.sleep(forTimeInterval: 1)
        Run.kill(phone2)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!mixed.all.contains { if case .interruption = $0 { true } else { false } }, "\(mixed.all)")
    }

    /// A call that ends as it begins (the phone's stream gone before this output's cork reached the server): the
    /// server unmutes the stream it muted and sends no `request-uncork` (the stream was not corked yet), so the
    /// output must notice that the interruption is over by itself, or the player stays interrupted for good.
    @Test func aCallThatEndsAsItBeginsEndsTheInterruption() throws {
        let sink = try TestSink()
        let session = AudioSession.shared
        defer { try? session.setCategory(.soloAmbient) }
        try session.setCategory(.playback)
        let writer = try ToneWriter(PulseAudioOutput(device: sink.name))
        defer { writer.stop() }
        let phonePID = Locked<pid_t>(0)
        let token = session.addObserver { event in
            // Hang up the moment the interruption is heard: before the output's cork left this process.
            if event == .interruption(.began, options: []) { phonePID.withLock { _ = kill($0, SIGKILL) } }
        }
        defer { session.removeObserver(token) }
        for round in 1...12 {
            let events = EventCollector()
            let phone = try startPhone(on: sink.name)
            phonePID.withLock { $0 = phone.processIdentifier }
            #expect(events.waitFor { $0 == .interruption(.began, options: []) }, "round \(round)")
            phone.waitUntilExit()
            #expect(events.waitFor { $0 == .interruption(.ended, options: .shouldResume) }, "round \(round)")
            #expect(waitFor { !session.isInterrupted }, "round \(round): still interrupted")
            // The player resumes as told: the sound comes back (the server's mute is gone too).
            writer.output.setPaused(false)
            #expect(
                waitFor { AudioAnalysis.audibleSeconds(Array(sink.samplesSoFar.suffix(4_800))) > 0.05 },
                "round \(round): silent after the call")
            // And it stays: nothing mutes or corks it again.
            Thread.sleep(forTimeInterval: 0.5)
            #expect(
                waitFor { AudioAnalysis.audibleSeconds(Array(sink.samplesSoFar.suffix(24_000))) > 0.4 },
                "round \(round): the sound went again after the call")
            guard !session.isInterrupted else { return }
        }
    }

    @Test func preferredOutputMovesTheStreamAndNewSinksAreAnnounced() throws {
        let first = try TestSink()
        let chosen = try TestSink()
        let session = AudioSession.shared
        defer { try? session.setPreferredOutput(nil) }
        let outputs = session.availableOutputs
        #expect(outputs.contains { $0.uid == chosen.name && $0.portType == .null }, "\(outputs)")
        let events = EventCollector()
        let writer = try ToneWriter(PulseAudioOutput(device: first.name))
        defer { writer.stop() }
        #expect(waitFor { AudioAnalysis.audibleSeconds(first.samplesSoFar) > 0.5 })
        let port: AudioSession.PortDescription = try #require(session.port(named: chosen.name))
        try session.setPreferredOutput(port)
        let movedAt = first.recordedSeconds
        #expect(waitFor { AudioAnalysis.audibleSeconds(chosen.samplesSoFar) > 0.5 }, "no sound on the chosen sink")
        Thread.sleep(forTimeInterval: 0.3)
        let firstSamples = first.stopRecording()
        #expect(AudioAnalysis.audibleSeconds(Array(firstSamples.dropFirst(Int((movedAt + 0.1) * 48_000)))) == 0)
        #expect(session.currentRoute.outputs.map(\.uid) == [chosen.name])
        #expect(events.waitFor { if case .routeChange(.override, _) = $0 { true } else { false } })
        let added = try TestSink(fresh: true)
        #expect(events.waitFor { if case .routeChange(.newDeviceAvailable, _) = $0 { true } else { false } })
        #expect(session.availableOutputs.contains { $0.uid == added.name })
    }

    @Test func duckOthersLowersOtherStreamsWhileActiveAndRestoresThem() throws {
        let sink = try TestSink()
        let session = AudioSession.shared
        defer { try? session.setCategory(.soloAmbient) }
        let music = try Fixtures.tone(seconds: 20, ext: "wav")
        #expect(!session.isOtherAudioPlaying, "nothing else plays yet")
        let other = Process()
        other.executableURL = URL(fileURLWithPath: try Run.which("paplay"))
        other.arguments = ["--device=\(sink.name)", music.path]
        try Run.start(other)
        defer { Run.kill(other) }
        #expect(waitFor { AudioAnalysis.audibleSeconds(sink.samplesSoFar) > 1 })
        func level() -> Float {
            Thread.sleep(forTimeInterval: 0.6)
            let now = sink.recordedSeconds
            return peak(sink.samplesSoFar, from: now - 0.3, to: now)
        }
        let before = level()
        #expect(session.isOtherAudioPlaying)
        try session.setCategory(.playback, options: .duckOthers)
        try session.setActive(true)
        let ducked = level()
        // A stream that starts while the session is active is ducked as well.
        let laterSink = try TestSink()
        let later = Process()
        later.executableURL = other.executableURL
        later.arguments = ["--device=\(laterSink.name)", music.path]
        try Run.start(later)
        defer { Run.kill(later) }
        #expect(waitFor { AudioAnalysis.audibleSeconds(laterSink.samplesSoFar) > 0.5 })
        Thread.sleep(forTimeInterval: 0.4)
        let laterLevel = peak(
            laterSink.samplesSoFar, from: laterSink.recordedSeconds - 0.3, to: laterSink.recordedSeconds)
        try session.setActive(false)
        let after = level()
        let laterAfter = peak(
            laterSink.samplesSoFar, from: laterSink.recordedSeconds - 0.3, to: laterSink.recordedSeconds)
        #expect(before > 0.05 && ducked < before * 0.4, "level \(before) before, \(ducked) while ducking")
        #expect(abs(after - before) < before * 0.1, "level \(after) after, \(before) before")
        #expect(laterLevel < before * 0.4, "a stream started while ducking plays at \(laterLevel)")
        #expect(abs(laterAfter - before) < before * 0.1, "the later stream is at \(laterAfter) after deactivation")
    }

    /// Whether `condition` held at some moment within `timeout` seconds. (It was asked again after holding, and a
    /// condition on the latest recorded sound can hold and then not, a recorded chunk later: the sound came back
    /// after a call, then a moment of silence followed it, and the test said it never came back.)
    private func waitFor(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    private func startPhone(on sink: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Run.which("pacat"))
        p.arguments = ["--property=media.role=phone", "--device=\(sink)", "/dev/zero"]
        try Run.start(p)
        return p
    }
}

extension AudioSession.Event {
    /// The previous route of a route change (an empty route otherwise), for matching.
    var previousRoute: AudioSession.RouteDescription {
        if case .routeChange(_, let r) = self { return r }
        return AudioSession.RouteDescription(outputs: [])
    }
}
