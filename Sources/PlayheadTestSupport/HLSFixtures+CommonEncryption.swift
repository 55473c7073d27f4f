import Foundation

/// MP4 Common Encryption (`cenc`) for the SAMPLE-AES-CTR fixtures: FFmpeg 5.1's MP4 muxer writes no encryption
/// boxes in fragments (its output does not decrypt), so the boxes are written here, over a clear fragmented file
/// FFmpeg makes, and the samples are encrypted by `openssl enc -aes-128-ctr`.
extension KeyFixtures {
    /// A box of an MP4 file: its type and where it lies (header included).
    struct Box {
        var type: String
        var range: Range<Int>
        /// Where its children begin, for the containers walked here.
        var body: Int { range.lowerBound + 8 }
    }

    /// The boxes one after another in `data[range]`.
    static func boxes(_ data: Data, _ range: Range<Int>) -> [Box] {
        var out: [Box] = []
        var i = range.lowerBound
        while i + 8 <= range.upperBound {
            let size = Int(readUInt32(data, i))
            guard size >= 8, i + size <= range.upperBound else { break }
            out.append(Box(type: String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self), range: i..<(i + size)))
            i += size
        }
        return out
    }

    static func readUInt32(_ data: Data, _ i: Int) -> UInt32 {
        data[i..<(i + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func uint32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }

    /// A box of `type` holding `payload`.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        uint32(8 + payload.count) + Array(type.utf8) + payload
    }

    /// `data` with `bytes` inserted at `offset`, and the size of each box starting at `ancestors` grown by them.
    static func insert(_ bytes: [UInt8], into data: inout Data, at offset: Int, ancestors: [Int]) {
        data.insert(contentsOf: bytes, at: offset)
        for a in ancestors {
            let size = Int(readUInt32(data, a)) + bytes.count
            data.replaceSubrange(a..<(a + 4), with: uint32(size))
        }
    }

    /// The first child of `type` inside `parent` (whose children start after `skip` bytes of its body).
    static func child(_ data: Data, _ parent: Box, _ type: String, skip: Int = 0) -> Box? {
        boxes(data, (parent.body + skip)..<parent.range.upperBound).first { $0.type == type }
    }

    /// Makes (once) in `dir` (a key set's folder) an audio-only fMP4 stream of `seconds` in 1 s fragments, as byte
    /// ranges of one file, twice: `cenc-clear.m3u8` over `cenc-clear.mp4`, and `cenc.m3u8` over `cenc.mp4`, the
    /// same fragments with every sample encrypted (`cenc`: AES-CTR, whole samples, 16-byte IVs) with `keyOne`,
    /// under `EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="key1.bin"`.
    static func makeCommonEncryption(in dir: URL, seconds: Int) throws {
        let done = dir.appendingPathComponent("cenc.m3u8")
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

        // Every sample, padded to whole blocks, in one AES-CTR stream from counter 0: a sample's IV is the counter
        // of its first block.
        var plain = Data()
        var ivs: [[[UInt8]]] = []
        for fragment in samples {
            var fragmentIVs: [[UInt8]] = []
            for s in fragment {
                fragmentIVs.append(sequenceIV(plain.count / 16))
                plain.append(clear[s.offset..<(s.offset + s.size)])
                plain.append(Data(count: (16 - s.size % 16) % 16))
            }
            ivs.append(fragmentIVs)
        }
        let cipher = try ctrEncrypt(plain, in: dir)

        var out = Data(clear[0..<moov.range.upperBound])
        try protectSampleEntry(&out, moov: moov)
        let initLength = out.count
        var cursor = 0
        var ranges: [(offset: Int, length: Int)] = []
        for (k, (moof, mdat)) in fragments.enumerated() {
            var fragment = Data(clear[moof.range.lowerBound..<mdat.range.upperBound])
            for s in samples[k] {
                let at = s.offset - moof.range.lowerBound
                fragment.replaceSubrange(at..<(at + s.size), with: cipher[cursor..<(cursor + s.size)])
                cursor += s.size + (16 - s.size % 16) % 16
            }
            try addEncryptionBoxes(&fragment, ivs: ivs[k])
            ranges.append((out.count, fragment.count))
            out.append(fragment)
        }
        try out.write(to: dir.appendingPathComponent("cenc.mp4"))
        let clearRanges = fragments.map { ($0.0.range.lowerBound, $0.1.range.upperBound - $0.0.range.lowerBound) }
        let durations = samples.map { Double($0.count) * 1024 / 48_000 }
        func text(_ file: String, initLength: Int, _ ranges: [(Int, Int)], key: Bool) -> String {
            var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD"]
            if key {
                lines.append("#EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI=\"key1.bin\",KEYFORMAT=\"identity\"")
            }
            lines.append("#EXT-X-MAP:URI=\"\(file)\",BYTERANGE=\"\(initLength)@0\"")
            for (i, (offset, length)) in ranges.enumerated() {
                lines += [String(format: "#EXTINF:%.5f,", durations[i]), "#EXT-X-BYTERANGE:\(length)@\(offset)", file]
            }
            return (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"
        }
        try text("cenc-clear.mp4", initLength: moov.range.upperBound, clearRanges, key: false).write(
            to: dir.appendingPathComponent("cenc-clear.m3u8"), atomically: true, encoding: .utf8)
        try text("cenc.mp4", initLength: initLength, ranges.map { ($0.offset, $0.length) }, key: true).write(
            to: done, atomically: true, encoding: .utf8)
    }

    /// Where each sample of fragment `moof` lies in `data` (its `trun`'s sizes from its data offset).
    static func sampleRanges(_ data: Data, _ moof: Box) throws -> [(offset: Int, size: Int)] {
        guard let traf = child(data, moof, "traf"), let trun = child(data, traf, "trun"),
            let tfhd = child(data, traf, "tfhd")
        else { throw TestSupportError("a fragment without traf/trun/tfhd") }
        let flags = Int(readUInt32(data, trun.body)) & 0xFF_FFFF
        let count = Int(readUInt32(data, trun.body + 4))
        var i = trun.body + 8
        guard flags & 1 != 0 else { throw TestSupportError("trun without a data offset") }
        var offset = moof.range.lowerBound + Int(Int32(bitPattern: readUInt32(data, i)))
        i += 4
        if flags & 4 != 0 { i += 4 }
        // tfhd's default sample size, for a trun without sizes.
        let tfhdFlags = Int(readUInt32(data, tfhd.body)) & 0xFF_FFFF
        var t = tfhd.body + 8 + (tfhdFlags & 1 != 0 ? 8 : 0) + (tfhdFlags & 2 != 0 ? 4 : 0)
        t += tfhdFlags & 8 != 0 ? 4 : 0
        let defaultSize = tfhdFlags & 0x10 != 0 ? Int(readUInt32(data, t)) : 0
        var out: [(Int, Int)] = []
        for _ in 0..<count {
            if flags & 0x100 != 0 { i += 4 }
            var size = defaultSize
            if flags & 0x200 != 0 {
                size = Int(readUInt32(data, i))
                i += 4
            }
            if flags & 0x400 != 0 { i += 4 }
            if flags & 0x800 != 0 { i += 4 }
            out.append((offset, size))
            offset += size
        }
        return out
    }

    /// The sound's sample entry (`mp4a`) becomes `enca` with a `sinf`: original format, scheme `cenc` 1.0, and a
    /// `tenc` saying samples are protected with 16-byte IVs under key ID 1.
    static func protectSampleEntry(_ data: inout Data, moov: Box) throws {
        var path = [moov]
        for type in ["trak", "mdia", "minf", "stbl", "stsd"] {
            guard let next = child(data, path.last!, type) else { throw TestSupportError("no \(type) in moov") }
            path.append(next)
        }
        // stsd: version and flags, an entry count, then the entries.
        guard let entry = child(data, path.last!, "mp4a", skip: 8) else { throw TestSupportError("no mp4a entry") }
        let tenc = box("tenc", [0, 0, 0, 0] + [0, 0, 1, 16] + [UInt8](repeating: 1, count: 16))
        let sinf = box(
            "sinf",
            box("frma", Array("mp4a".utf8)) + box("schm", [0, 0, 0, 0] + Array("cenc".utf8) + uint32(0x10000))
                + box("schi", tenc))
        insert(
            sinf, into: &data, at: entry.range.upperBound,
            ancestors: path.map(\.range.lowerBound) + [entry.range.lowerBound])
        data.replaceSubrange((entry.range.lowerBound + 4)..<(entry.range.lowerBound + 8), with: Array("enca".utf8))
    }

    /// Adds `saiz`, `saio` and `senc` (the samples' IVs) after the fragment's `trun`, and moves the `trun`'s data
    /// offset past them. `fragment` starts with its `moof`.
    static func addEncryptionBoxes(_ fragment: inout Data, ivs: [[UInt8]]) throws {
        guard let moof = boxes(fragment, 0..<fragment.count).first, let traf = child(fragment, moof, "traf"),
            let trun = child(fragment, traf, "trun")
        else { throw TestSupportError("a fragment without moof/traf/trun") }
        let saizSize = 17
        let saioSize = 20
        let ivStart = trun.range.upperBound + saizSize + saioSize + 16
        let saiz = box("saiz", [0, 0, 0, 0, 16] + uint32(ivs.count))
        let saio = box("saio", [0, 0, 0, 0] + uint32(1) + uint32(ivStart))
        let senc = box("senc", [0, 0, 0, 0] + uint32(ivs.count) + ivs.flatMap { $0 })
        let added = saiz + saio + senc
        insert(
            added, into: &fragment, at: trun.range.upperBound,
            ancestors: [moof.range.lowerBound, traf.range.lowerBound])
        let dataOffset = trun.body + 8
        let moved = Int(readUInt32(fragment, dataOffset)) + added.count
        fragment.replaceSubrange(dataOffset..<(dataOffset + 4), with: uint32(moved))
    }

    /// `plain` encrypted with AES-128-CTR under `keyOne` from counter 0 (`openssl enc`).
    static func ctrEncrypt(_ plain: Data, in dir: URL) throws -> Data {
        let input = dir.appendingPathComponent("cenc-plain.tmp")
        let output = dir.appendingPathComponent("cenc-cipher.tmp")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        try plain.write(to: input)
        let r = try Run.command(
            "openssl",
            [
                "enc", "-aes-128-ctr", "-K", hex(keyOne), "-iv", hex([UInt8](repeating: 0, count: 16)), "-in",
                input.path, "-out", output.path,
            ])
        guard r.status == 0 else { throw TestSupportError("openssl failed: \(r.stderr)") }
        return try Data(contentsOf: output)
    }
}
