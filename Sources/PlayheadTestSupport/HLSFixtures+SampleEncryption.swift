import Foundation

/// The SAMPLE-AES and SAMPLE-AES-CTR streams: one clear audio-only fMP4 stream and two copies of it under MP4
/// Common Encryption, `cenc` (AES-CTR) and `cbcs` (AES-CBC, one block in ten), encrypted by `openssl enc` and boxed
/// by `protectSampleEntry` / `addEncryptionBoxes`.
extension KeyFixtures {
    /// The constant IV of the `cbcs` stream.
    public static let cbcsIV: [UInt8] = [
        0x0F, 0x1E, 0x2D, 0x3C, 0x4B, 0x5A, 0x69, 0x78, 0x87, 0x96, 0xA5, 0xB4, 0xC3, 0xD2, 0xE1, 0xF0,
    ]

    /// Makes (once) in `dir` (a key set's folder) an audio-only fMP4 stream of `seconds` in 1 s fragments, as byte
    /// ranges of one file: `cenc-clear.m3u8` over `cenc-clear.mp4`; `cenc.m3u8` over `cenc.mp4`, the same
    /// fragments with every sample encrypted (`cenc`: AES-CTR, whole samples, 16-byte IVs) with `keyOne`, under
    /// `EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="key1.bin"`; and `cbcs.m3u8` over `cbcs.mp4` (`cbcs`: AES-CBC of every
    /// whole block, the constant IV `cbcsIV`, the partial last block clear), under `METHOD=SAMPLE-AES`.
    static func makeCommonEncryption(in dir: URL, seconds: Int) throws {
        let done = dir.appendingPathComponent("cbcs.m3u8")
        if FileManager.default.fileExists(atPath: done.path) { return }
        let clearFile = dir.appendingPathComponent("cenc-clear.mp4")
        let r = try Run.command(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                "aevalsrc='0.3*sin(2*PI*(200*t+40*t*t))':s=48000:d=\(seconds)", "-c:a", "aac", "-ac", "2", "-b:a",
                "128k", "-fflags", "+bitexact", "-movflags", "empty_moov+default_base_moof", "-frag_duration",
                "1000000", clearFile.path,
            ], timeout: 120)
        guard r.status == 0 else { throw TestSupportError("ffmpeg failed making \(clearFile.path): \(r.stderr)") }
        let clear = try Data(contentsOf: clearFile)
        let top = boxes(clear, 0..<clear.count)
        guard let moov = top.first(where: { $0.type == "moov" }) else { throw TestSupportError("no moov") }
        let fragments = zip(top, top.dropFirst()).filter { $0.0.type == "moof" && $0.1.type == "mdat" }
        var samples: [[(offset: Int, size: Int)]] = []
        for (moof, _) in fragments { samples.append(try sampleRanges(clear, moof)) }
        let durations = samples.map { Double($0.count) * 1024 / 48_000 }
        let clearRanges = fragments.map { ($0.0.range.lowerBound, $0.1.range.upperBound - $0.0.range.lowerBound) }
        try playlist("cenc-clear.mp4", initLength: moov.range.upperBound, clearRanges, durations, method: nil).write(
            to: dir.appendingPathComponent("cenc-clear.m3u8"), atomically: true, encoding: .utf8)

        for scheme in ["cenc", "cbcs"] {
            let (encrypted, ivs) =
                scheme == "cenc"
                ? try ctrSamples(clear, samples, in: dir) : try cbcsSamples(clear, samples, in: dir)
            var out = Data(clear[0..<moov.range.upperBound])
            try protectSampleEntry(&out, moov: moov, scheme: scheme)
            let initLength = out.count
            var ranges: [(Int, Int)] = []
            for (k, (moof, mdat)) in fragments.enumerated() {
                var fragment = Data(clear[moof.range.lowerBound..<mdat.range.upperBound])
                for (j, s) in samples[k].enumerated() {
                    let at = s.offset - moof.range.lowerBound
                    fragment.replaceSubrange(at..<(at + s.size), with: encrypted[k][j])
                }
                try addEncryptionBoxes(&fragment, ivs: ivs[k], ivSize: scheme == "cenc" ? 16 : 0)
                ranges.append((out.count, fragment.count))
                out.append(fragment)
            }
            try out.write(to: dir.appendingPathComponent("\(scheme).mp4"))
            let method = scheme == "cenc" ? "SAMPLE-AES-CTR" : "SAMPLE-AES"
            try playlist("\(scheme).mp4", initLength: initLength, ranges, durations, method: method).write(
                to: dir.appendingPathComponent("\(scheme).m3u8"), atomically: true, encoding: .utf8)
        }
    }

    /// A VOD playlist of `file`'s init section and fragments (byte ranges), under `method` with key 1 when given.
    static func playlist(
        _ file: String, initLength: Int, _ ranges: [(Int, Int)], _ durations: [Double], method: String?
    ) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
        if let method { lines.append("#EXT-X-KEY:METHOD=\(method),URI=\"key1.bin\",KEYFORMAT=\"identity\"") }
        lines.append("#EXT-X-MAP:URI=\"\(file)\",BYTERANGE=\"\(initLength)@0\"")
        for (i, (offset, length)) in ranges.enumerated() {
            lines += [String(format: "#EXTINF:%.5f,", durations[i]), "#EXT-X-BYTERANGE:\(length)@\(offset)", file]
        }
        return (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
    }

    /// `cenc`: every sample, padded to whole blocks, in one AES-CTR stream from counter 0, so a sample's IV is the
    /// counter of its first block. The encrypted samples and their IVs, by fragment.
    static func ctrSamples(_ clear: Data, _ samples: [[(offset: Int, size: Int)]], in dir: URL) throws
        -> (samples: [[Data]], ivs: [[[UInt8]]])
    {
        var plain = Data()
        var ivs: [[[UInt8]]] = []
        for fragment in samples {
            ivs.append(
                fragment.map { s in
                    let iv = sequenceIV(plain.count / 16)
                    plain.append(clear[s.offset..<(s.offset + s.size)])
                    plain.append(Data(count: (16 - s.size % 16) % 16))
                    return iv
                })
        }
        let cipher = try openssl(["-aes-128-ctr", "-iv", hex([UInt8](repeating: 0, count: 16))], plain, in: dir)
        var cursor = 0
        let encrypted = samples.map { fragment in
            fragment.map { s in
                defer { cursor += s.size + (16 - s.size % 16) % 16 }
                return Data(cipher[cursor..<(cursor + s.size)])
            }
        }
        return (encrypted, ivs)
    }

    /// `cbcs` for sound: in each sample, every whole block encrypted as one AES-CBC chain from the constant IV (one
    /// `openssl` run per sample; no pattern: that is for video), a partial last block clear. No IVs.
    static func cbcsSamples(_ clear: Data, _ samples: [[(offset: Int, size: Int)]], in dir: URL) throws
        -> (samples: [[Data]], ivs: [[[UInt8]]])
    {
        var encrypted: [[Data]] = []
        for fragment in samples {
            var out: [Data] = []
            for s in fragment {
                var sample = Data(clear[s.offset..<(s.offset + s.size)])
                let whole = s.size / 16 * 16
                if whole > 0 {
                    let cipher = try openssl(
                        ["-aes-128-cbc", "-nopad", "-iv", hex(cbcsIV)], Data(sample[0..<whole]), in: dir)
                    sample.replaceSubrange(0..<whole, with: cipher)
                }
                out.append(sample)
            }
            encrypted.append(out)
        }
        return (encrypted, samples.map { $0.map { _ in [] } })
    }

    /// `plain` through `openssl enc` with `options` (the cipher and IV) under `keyOne`.
    static func openssl(_ options: [String], _ plain: Data, in dir: URL) throws -> Data {
        let input = dir.appendingPathComponent("sample-encryption-plain.tmp")
        let output = dir.appendingPathComponent("sample-encryption-cipher.tmp")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try plain.write(to: input)
        let r = try Run.command(
            "openssl", ["enc"] + options + ["-K", hex(keyOne), "-in", input.path, "-out", output.path])
        guard r.status == 0 else { throw TestSupportError("openssl failed: \(r.stderr)") }
        return try Data(contentsOf: output)
    }
}
