import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Encrypted HLS (issue 15): AES-128 streams play to the same sound as their clear versions (recorded at the
/// sink), each key is asked for once, and keys that cannot be had or used fail with one clear line.
@MainActor @Suite(.serialized) struct HLSKeyTests {
    /// What the sink heard of each clear stream, recorded once per run and compared with its encrypted copies.
    nonisolated static let clearRecordings = Locked<[String: [Float]]>([:])

    /// The streams played to their end: the key set made of 4 s streams (in `keys-4s/`; the sound is compared
    /// sample for sample, whatever its length). The failures are `keys/`'s.
    nonisolated static let played = "keys-4s"

    /// Makes `played`'s key set.
    func makePlayed() throws { try KeyFixtures.make(Self.played, seconds: 4) }

    /// Plays `item` on a fresh sink to its end; returns what the sink heard.
    func play(_ item: PlayerItem) async throws -> [Float] {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually(timeout: 15) { player.timeControlStatus == .paused }, "did not end")
        #expect(item.error == nil, "\(String(describing: item.error))")
        try await Task.sleep(for: .milliseconds(200))
        player.close()
        return sink.stopRecording()
    }

    /// The recording of the clear stream at `path` (under `played`), from its first sound.
    func clearRecording(_ path: String) async throws -> [Float] {
        if let known = Self.clearRecordings.current[path] { return known }
        let recording = try await play(PlayerItem(url: try HLSFixtures.url("\(Self.played)/" + path)))
        let span = try #require(AudioAnalysis.soundSpan(recording), "the clear stream \(path) was silent")
        let sound = Array(recording[span])
        Self.clearRecordings.withLock { $0[path] = sound }
        return sound
    }

    /// Expects `recording` to hold `clear` sample for sample (but for the sink monitor's first milliseconds).
    func expectSameSound(_ recording: [Float], as clear: [Float], _ name: String) {
        #expect(abs(AudioAnalysis.soundSeconds(clear) - 4) < 0.3, "clear: \(AudioAnalysis.soundSeconds(clear)) s")
        guard let match = GaplessFixtures.match(recording, clear) else {
            Issue.record("\(name): the clear stream's sound is not in the recording")
            return
        }
        #expect(match.missingStart < 960, "\(name): the first \(match.missingStart) samples were not heard")
        let first = match.mismatches.prefix(3)
        #expect(
            match.differingSamples == 0,
            "\(name): \(match.mismatches.count) samples differ from the clear stream's, first at \(first)")
    }

    nonisolated static let encrypted: [(playlist: String, clear: String, keys: [String: Int])] = [
        ("aes.m3u8", "clear/index.m3u8", ["key1.bin": 1]),
        ("rotate.m3u8", "clear/index.m3u8", ["key1.bin": 1, "key2.bin": 1]),
        ("fmp4.m3u8", "clear-fmp4/index.m3u8", ["key1.bin": 1, "key2.bin": 1]),
        ("cenc.m3u8", "cenc-clear.m3u8", ["key1.bin": 1]),
        ("cbcs.m3u8", "cenc-clear.m3u8", ["key1.bin": 1]),
    ]

    /// AES-128 with the IV from the media sequence number; rotation every 3 segments (explicit IV after it) over
    /// byte ranges of one file; an fMP4 init section under its own key; SAMPLE-AES-CTR and SAMPLE-AES (fMP4 Common
    /// Encryption, `cenc` and `cbcs`, the samples decrypted by the demuxer): each sounds exactly as its clear
    /// version, and each key was asked for once.
    @Test(arguments: 0..<encrypted.count)
    func encryptedStreamPlaysLikeItsClearVersion(_ index: Int) async throws {
        let f = Self.encrypted[index]
        try makePlayed()
        let clear = try await clearRecording(f.clear)
        let before = try HLSFixtures.requestCount()
        let recording = try await play(PlayerItem(url: try HLSFixtures.url("\(Self.played)/" + f.playlist)))
        expectSameSound(recording, as: clear, f.playlist)
        let requests = try HLSFixtures.requests(since: before)
        for (key, count) in f.keys {
            #expect(requests.filter { $0 == "/\(Self.played)/" + key }.count == count, "\(key): \(requests)")
        }
        #expect(requests.filter { $0.hasSuffix(".bin") }.count == f.keys.values.reduce(0, +), "\(requests)")
    }

    /// A key URI with the app's own scheme, answered by the asset's resource loader delegate, plays as the clear
    /// stream; the delegate is asked once, for that URL.
    @Test func aCustomKeySchemeIsAnsweredByTheResourceLoaderDelegate() async throws {
        try makePlayed()
        let clear = try await clearRecording("clear/index.m3u8")
        let asset = URLAsset(url: try HLSFixtures.url("\(Self.played)/custom-key.m3u8"))
        let delegate = KeyDelegate(key: Data(KeyFixtures.keyOne))
        asset.resourceLoader.setDelegate(delegate, queue: nil)
        let recording = try await play(PlayerItem(asset: asset))
        expectSameSound(recording, as: clear, "custom-key.m3u8")
        #expect(delegate.asked.current == ["myapp-key://key1"])
    }

    /// SAMPLE-AES-CTR under the wrong key: the samples decrypt to noise no decoder takes; the item fails in one
    /// line naming the method and the key URI, never playing noise.
    @Test func aWrongSampleEncryptionKeyIsOneClearLine() async throws {
        try makePlayed()
        let dir = try HLSFixtures.root().appendingPathComponent(Self.played)
        let text = try String(contentsOf: dir.appendingPathComponent("cenc.m3u8"), encoding: .utf8)
        try text.replacingOccurrences(of: "key1.bin", with: "key2.bin").write(
            to: dir.appendingPathComponent("wrong-cenc.m3u8"), atomically: true, encoding: .utf8)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try HLSFixtures.url("\(Self.played)/wrong-cenc.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 15) { item.status == .failed }, "did not fail")
        player.close()
        let heard = sink.stopRecording()
        let message = item.error?.description ?? ""
        let key = try HLSFixtures.url("\(Self.played)/key2.bin").absoluteString
        #expect(message.contains("METHOD=SAMPLE-AES-CTR, key \(key)") && message.contains("a wrong key?"), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
        #expect(AudioAnalysis.audibleSeconds(heard) < 0.1, "\(AudioAnalysis.audibleSeconds(heard)) s of noise heard")
    }

    /// A key in a `data:` URI: the stream opens (its tracks are found in the decrypted first segment).
    @Test func aKeyInADataURIOpens() async throws {
        try KeyFixtures.make()
        let asset = URLAsset(url: try HLSFixtures.url("keys/data-key.m3u8"))
        let tracks = try await asset.load(.tracks)
        #expect(Set(tracks.map(\.mediaType)) == [.audio, .video], "\(tracks)")
    }

    /// A key that answers 403 fails the item at once, with one line naming the key URI and the status.
    @Test func aForbiddenKeyFailsClearly() async throws {
        try KeyFixtures.make()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: origin.url("keys/forbidden-key.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 10) { item.status == .failed }, "did not fail")
        let message = item.error?.description ?? ""
        #expect(message.hasPrefix(origin.url("keys/key1.bin").absoluteString + "?status=403"), "\(message)")
        #expect(message.contains("HTTP 403") && !message.contains("\n"), "\(message)")
        // No segment was fetched for a stream it cannot decrypt.
        #expect(!origin.requests.contains { $0.contains(".ts") }, "\(origin.requests)")
    }

    /// A key server that never answers: its request times out and is asked once more, not once per retry (it was
    /// 1 + `hlsRetries` time-outs: 47 s by default with nothing playing); the item fails naming the key.
    @Test func aKeyServerThatNeverAnswersIsAskedTwice() async throws {
        let dir = try KeyFixtures.make()
        let text = try String(contentsOf: dir.appendingPathComponent("aes.m3u8"), encoding: .utf8)
        try text.replacingOccurrences(of: "key1.bin", with: "key1.bin?first_byte_delay=30").write(
            to: dir.appendingPathComponent("silent-key.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let asset = URLAsset(url: origin.url("keys/silent-key.m3u8"), options: [.networkTimeout: 1])
        let item = PlayerItem(asset: asset)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .failed }, "did not fail")
        let message = item.error?.description ?? ""
        #expect(
            message.hasPrefix(origin.url("keys/key1.bin").absoluteString + "?first_byte_delay=30")
                && message.hasSuffix("no data for 1 s (timed out)"), "\(message)")
        let asked = origin.requests.filter { $0.contains("key1.bin") }
        #expect(asked.count == 2, "\(origin.requests)")
    }

    nonisolated static let badKeys: [(playlist: String, culprit: String, words: String)] = [
        ("wrong-key.m3u8", "keys/key2.bin", "wrong key or IV: seg00.ts does not decrypt"),
        ("short-key.m3u8", "keys/short.bin", "a key must be 16 bytes; this one is 15"),
        ("html-key.m3u8", "keys/page.html", "an HTML page, not a 16-byte key"),
        ("long-iv.m3u8", "keys/key1.bin", "the IV is 17 bytes; AES-128 needs 16"),
        ("unreadable-iv.m3u8", "keys/key1.bin", "the IV \"zzzz\" is not hexadecimal"),
        ("custom-key.m3u8", "myapp-key://key1", "no resource loader delegate answered"),
        ("sample-aes.m3u8", "keys/aes/seg00.ts", "METHOD=SAMPLE-AES in MPEG-TS segments, which is not supported"),
        ("sample-aes-ctr.m3u8", "keys/aes/seg00.ts", "METHOD=SAMPLE-AES-CTR, which needs fMP4 segments"),
        ("aes-256.m3u8", "keys/aes/seg00.ts", "METHOD=AES-256, which is not an HLS method"),
        ("fairplay.m3u8", "keys/aes/seg00.ts", "KEYFORMAT \"com.apple.streamingkeydelivery\" (DRM)"),
    ]

    /// Each bad key or method: the asset fails to load with one line naming the culprit; never a crash, a hang,
    /// or encrypted bytes handed to the demuxer.
    @Test(arguments: 0..<badKeys.count)
    func aBadKeyOrMethodIsOneClearLine(_ index: Int) async throws {
        let f = Self.badKeys[index]
        try KeyFixtures.make()
        let asset = URLAsset(url: try HLSFixtures.url("keys/" + f.playlist))
        let culprit = f.culprit.contains("://") ? f.culprit : try HLSFixtures.url(f.culprit).absoluteString
        do {
            _ = try await asset.load(.tracks)
            Issue.record("\(f.playlist) loaded")
        } catch let error as PlaybackError {
            #expect(error.source == culprit, "\(f.playlist): \(error)")
            #expect(error.reason.contains(f.words), "\(f.playlist): \(error)")
            #expect(!error.description.contains("\n"), "\(error)")
        }
    }
}

/// A resource loader delegate that answers every key request with `key`, and notes the URLs asked for.
final class KeyDelegate: AssetResourceLoaderDelegate {
    let key: Data
    let asked = Locked([String]())

    init(key: Data) { self.key = key }

    func resourceLoader(
        _ resourceLoader: AssetResourceLoader,
        shouldWaitForLoadingOfRequestedResource loadingRequest: AssetResourceLoadingRequest
    ) -> Bool {
        asked.withLock { $0.append(loadingRequest.url.absoluteString) }
        guard loadingRequest.url.scheme == "myapp-key" else { return false }
        loadingRequest.finishLoading(with: key)
        return true
    }
}
