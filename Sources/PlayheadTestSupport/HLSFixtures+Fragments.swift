import Foundation

extension HLSFixtures {
    /// The top-level MP4 boxes of `data` as (offset, type, size), from their headers.
    static func boxes(_ data: Data) -> [(offset: Int, type: String, size: Int)] {
        var out: [(offset: Int, type: String, size: Int)] = []
        var offset = 0
        let bytes = [UInt8](data)
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if size == 1, offset + 16 <= bytes.count {
                size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= 8 else { break }
            out.append((offset, type, size))
            offset += size
        }
        return out
    }

    /// FFmpeg 5's HLS muxer, given a fragment duration, writes the first segment's fragments into `init.mp4`
    /// (after its `moov`) and leaves `seg00.m4s` a bare `styp`: moves them back to the segment, so the init section
    /// is `ftyp` + `moov` alone. Does nothing when the init section is already clean.
    static func moveFirstSegmentOutOfInit(in folder: URL) throws {
        let initURL = folder.appendingPathComponent("init.mp4")
        let first = folder.appendingPathComponent("seg00.m4s")
        let data = try Data(contentsOf: initURL)
        guard let moov = boxes(data).first(where: { $0.type == "moov" }) else {
            throw TestSupportError("\(initURL.path) has no moov box")
        }
        let end = moov.offset + moov.size
        guard end < data.count else { return }
        var segment = try Data(contentsOf: first)
        segment.append(data[end...])
        try segment.write(to: first)
        try data[..<end].write(to: initURL)
    }
}
