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

    /// The sound's sample entry (`mp4a`) becomes `enca` with a `sinf`: original format, scheme `cenc` or `cbcs`
    /// 1.0, and a `tenc` under key ID 1: for `cenc`, samples protected with 16-byte IVs of their own; for `cbcs`,
    /// no pattern (sound: every whole block) and the constant IV `cbcsIV`.
    static func protectSampleEntry(_ data: inout Data, moov: Box, scheme: String) throws {
        var path = [moov]
        for type in ["trak", "mdia", "minf", "stbl", "stsd"] {
            guard let next = child(data, path.last!, type) else { throw TestSupportError("no \(type) in moov") }
            path.append(next)
        }
        // stsd: version and flags, an entry count, then the entries.
        guard let entry = child(data, path.last!, "mp4a", skip: 8) else { throw TestSupportError("no mp4a entry") }
        let kid = [UInt8](repeating: 1, count: 16)
        let tenc =
            scheme == "cbcs"
            ? box("tenc", [1, 0, 0, 0] + [0, 0, 1, 0] + kid + [16] + cbcsIV)
            : box("tenc", [0, 0, 0, 0] + [0, 0, 1, 16] + kid)
        let sinf = box(
            "sinf",
            box("frma", Array("mp4a".utf8)) + box("schm", [0, 0, 0, 0] + Array(scheme.utf8) + uint32(0x10000))
                + box("schi", tenc))
        insert(
            sinf, into: &data, at: entry.range.upperBound,
            ancestors: path.map(\.range.lowerBound) + [entry.range.lowerBound])
        data.replaceSubrange((entry.range.lowerBound + 4)..<(entry.range.lowerBound + 8), with: Array("enca".utf8))
    }

    /// Adds `saiz`, `saio` and `senc` (the samples' IVs, each `ivSize` bytes: none for `cbcs`'s constant IV) after
    /// the fragment's `trun`, and moves the `trun`'s data offset past them. `fragment` starts with its `moof`.
    static func addEncryptionBoxes(_ fragment: inout Data, ivs: [[UInt8]], ivSize: Int) throws {
        guard let moof = boxes(fragment, 0..<fragment.count).first, let traf = child(fragment, moof, "traf"),
            let trun = child(fragment, traf, "trun")
        else { throw TestSupportError("a fragment without moof/traf/trun") }
        // A zero default size is followed by each sample's size (all zero: nothing but the constant IV).
        let saiz = box(
            "saiz",
            [0, 0, 0, 0, UInt8(ivSize)] + uint32(ivs.count)
                + (ivSize == 0 ? [UInt8](repeating: 0, count: ivs.count) : []))
        let saioSize = 20
        let ivStart = trun.range.upperBound + saiz.count + saioSize + 16
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
}
