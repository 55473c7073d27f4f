import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` on encrypted HLS: the keys it uses never reach a file it writes (its event log, its sound file, its
/// state), nor its output; a wrong key is one line naming the key URI.
@Suite(.serialized) struct HLSKeyCommandTests {
    /// Every form a key could be written in: its bytes, hexadecimal either case, base64.
    func forms(of key: [UInt8]) -> [Data] {
        let hex = KeyFixtures.hex(key)
        return [Data(key), Data(hex.utf8), Data(hex.uppercased().utf8), Data(Data(key).base64EncodedString().utf8)]
    }

    @Test func theKeysAreNeverInAFileTheProcessWrites() throws {
        try KeyFixtures.make()
        let home = Paths.scratch("keys-home")
        let environment = [
            "HOME": home.path, "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path, "TMPDIR": home.path,
        ]
        var outputs = Data()
        // A rotating stream (both keys), the key in a data: URI, and a wrong key (the error path).
        for (name, length) in [("rotate.m3u8", "5"), ("data-key.m3u8", "1"), ("wrong-key.m3u8", "1")] {
            let log = home.appendingPathComponent("\(name).jsonl")
            let wav = home.appendingPathComponent("\(name).wav")
            let r = try Run.command(
                Paths.playheadBinary(),
                [
                    "--ao=wav:\(wav.path)", "--vo=null", "--no-mpris", "-v", "--log-json=\(log.path)",
                    "--length=\(length)", try HLSFixtures.url("keys/" + name).absoluteString,
                ], environment: environment, timeout: 40)
            outputs.append(Data(r.stdout.utf8))
            outputs.append(Data(r.stderr.utf8))
            if name == "wrong-key.m3u8" {
                #expect(r.status == 1, "exit \(r.status): \(r.stderr)")
                let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
                #expect(lines.count == 1, "\(r.stderr)")
                let culprit = try HLSFixtures.url("keys/key2.bin").absoluteString
                #expect(lines.first?.contains("\(culprit): wrong key or IV") == true, "\(r.stderr)")
            } else {
                #expect(r.status == 0, "\(name): exit \(r.status): \(r.stderr)")
                let size = (try? FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 0
                #expect(size > 48_000, "\(name): \(size) bytes of sound written")
            }
        }
        var files: [URL] = []
        if let walk = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil) {
            for case let url as URL in walk where !url.hasDirectoryPath { files.append(url) }
        }
        #expect(files.contains { $0.lastPathComponent == "rotate.m3u8.jsonl" }, "\(files)")
        for key in [KeyFixtures.keyOne, KeyFixtures.keyTwo] {
            for form in forms(of: key) {
                for file in files {
                    let data = (try? Data(contentsOf: file)) ?? Data()
                    #expect(data.range(of: form) == nil, "a key is in \(file.lastPathComponent)")
                }
                #expect(outputs.range(of: form) == nil, "a key is in the output")
            }
        }
    }
}
