import Foundation

/// Writes CEA-608 pop-on (or roll-up) captions into an H.264 Annex B elementary stream, as broadcast encoders carry them: one
/// SEI NAL unit (ATSC A/53 `cc_data` in `user_data_registered_itu_t_t35`, "GA94") per access unit, placed after the
/// access unit's delimiter and parameter sets and before its first slice. Field 1, channel 1 (CC1): one byte pair
/// per frame, control codes sent twice. Pure; any thread.
public enum CEA608Writer {
    /// A pop-on caption: `text` (basic characters: letters, digits, space, punctuation) on row 15 from `start`
    /// seconds; it leaves at `end` (an erase of the displayed memory), or at the next caption's start when that is
    /// the same time (the next caption replaces it on screen). A value type, safe anywhere.
    public struct Caption: Sendable {
        /// The text, one line.
        public var text: String
        /// When it appears, in seconds from the first frame.
        public var start: Double
        /// When it leaves.
        public var end: Double

        /// A caption of `text` from `start` to `end`.
        public init(_ text: String, start: Double, end: Double) {
            self.text = text
            self.start = start
            self.end = end
        }
    }

    static let resumeCaptionLoading: (UInt8, UInt8) = (0x14, 0x20)
    static let eraseNonDisplayed: (UInt8, UInt8) = (0x14, 0x2E)
    static let endOfCaption: (UInt8, UInt8) = (0x14, 0x2F)
    static let eraseDisplayed: (UInt8, UInt8) = (0x14, 0x2C)
    static let row15: (UInt8, UInt8) = (0x14, 0x70)
    static let rollUp2: (UInt8, UInt8) = (0x14, 0x25)
    static let carriageReturn: (UInt8, UInt8) = (0x14, 0x2D)

    /// The byte pair each frame carries (nil: padding), for `frames` frames at `fps` with `captions`.
    static func schedule(_ captions: [Caption], frames: Int, fps: Double) -> [(UInt8, UInt8)?] {
        var pairs = [(UInt8, UInt8)?](repeating: nil, count: frames)
        func frame(_ seconds: Double) -> Int { Int((seconds * fps).rounded()) }
        for (i, caption) in captions.enumerated() {
            var chars = Array(caption.text.utf8)
            if chars.count % 2 == 1 { chars.append(0) }
            var load: [(UInt8, UInt8)] = [
                resumeCaptionLoading, resumeCaptionLoading, eraseNonDisplayed, eraseNonDisplayed, row15, row15,
            ]
            load += stride(from: 0, to: chars.count, by: 2).map { (chars[$0], chars[$0 + 1]) }
            // Loaded into the memory not displayed in the frames before its start; flipped on screen at its start.
            let shown = frame(caption.start)
            for (k, pair) in load.enumerated() { pairs[shown - load.count + k] = pair }
            pairs[shown] = endOfCaption
            pairs[shown + 1] = endOfCaption
            let replaced = i + 1 < captions.count && captions[i + 1].start == caption.end
            if !replaced, frame(caption.end) + 1 < frames {
                pairs[frame(caption.end)] = eraseDisplayed
                pairs[frame(caption.end) + 1] = eraseDisplayed
            }
        }
        return pairs
    }

    /// A byte with odd parity in its top bit.
    static func odd(_ b: UInt8) -> UInt8 {
        let v = b & 0x7F
        return v.nonzeroBitCount % 2 == 0 ? v | 0x80 : v
    }

    /// The SEI NAL unit (with its start code) carrying `pair` for field 1 and a padding triplet.
    static func sei(_ pair: (UInt8, UInt8)?) -> [UInt8] {
        let ccCount: UInt8 = 2
        var payload: [UInt8] = [0xB5, 0x00, 0x31, 0x47, 0x41, 0x39, 0x34, 0x03, 0x40 | ccCount, 0xFF]
        if let pair {
            payload += [0xFC, odd(pair.0), odd(pair.1)]
        } else {
            payload += [0xF8, 0x80, 0x80]
        }
        // Field 2, nothing valid.
        payload += [0xF9, 0x80, 0x80]
        payload.append(0xFF)  // marker bits
        var rbsp: [UInt8] = [0x04, UInt8(payload.count)] + payload
        rbsp.append(0x80)  // rbsp trailing bits
        var nal: [UInt8] = [0, 0, 0, 1, 0x06]
        var zeros = 0
        for b in rbsp {
            if zeros >= 2 && b <= 3 {
                nal.append(3)
                zeros = 0
            }
            nal.append(b)
            zeros = b == 0 ? zeros + 1 : 0
        }
        return nal
    }

    /// The NAL units of an Annex B stream: (offset of the start code, NAL type).
    static func nalUnits(_ data: [UInt8]) -> [(start: Int, type: UInt8)] {
        var units: [(Int, UInt8)] = []
        var i = 0
        while i + 3 < data.count {
            if data[i] == 0, data[i + 1] == 0, data[i + 2] == 1 {
                let start = i > 0 && data[i - 1] == 0 ? i - 1 : i
                units.append((start, data[i + 3] & 0x1F))
                i += 3
            } else {
                i += 1
            }
        }
        return units
    }

    /// `annexB` (H.264 with access unit delimiters, no B-frames, at `fps`) with `captions` written in.
    public static func insert(_ captions: [Caption], into annexB: [UInt8], fps: Double) -> [UInt8] {
        insert(into: annexB) { schedule(captions, frames: $0, fps: fps) }
    }

    /// `annexB` with roll-up captions two rows deep written in: each line's last characters arrive at its `start`
    /// (one pair of characters a frame before), a carriage return rolling the earlier line up first; the screen is
    /// erased at the last line's `end`.
    public static func insert(rollUp lines: [Caption], into annexB: [UInt8], fps: Double) -> [UInt8] {
        insert(into: annexB) { frames in
            var pairs = [(UInt8, UInt8)?](repeating: nil, count: frames)
            func frame(_ seconds: Double) -> Int { Int((seconds * fps).rounded()) }
            for (i, line) in lines.enumerated() {
                var chars = Array(line.text.utf8)
                if chars.count % 2 == 1 { chars.append(0) }
                var sent: [(UInt8, UInt8)] = i == 0 ? [rollUp2, rollUp2] : []
                sent += [carriageReturn, carriageReturn, row15, row15]
                sent += stride(from: 0, to: chars.count, by: 2).map { (chars[$0], chars[$0 + 1]) }
                let last = frame(line.start)
                for (k, pair) in sent.enumerated() { pairs[last - sent.count + 1 + k] = pair }
            }
            if let end = lines.last.map({ frame($0.end) }), end + 1 < frames {
                pairs[end] = eraseDisplayed
                pairs[end + 1] = eraseDisplayed
            }
            return pairs
        }
    }

    /// `annexB` with the byte pair `schedule(frames)` gives each of its `frames` frames written in.
    static func insert(into annexB: [UInt8], schedule: (Int) -> [(UInt8, UInt8)?]) -> [UInt8] {
        let units = nalUnits(annexB)
        // An access unit starts at each delimiter (type 9); its SEI goes before its first slice (1 or 5).
        let frames = units.filter { $0.type == 9 }.count
        let pairs = schedule(frames)
        var out: [UInt8] = []
        out.reserveCapacity(annexB.count + frames * 24)
        var frame = -1
        var inserted = true
        for (k, unit) in units.enumerated() {
            let end = k + 1 < units.count ? units[k + 1].start : annexB.count
            if unit.type == 9 {
                frame += 1
                inserted = false
            }
            if !inserted, unit.type == 1 || unit.type == 5, frame >= 0 {
                out += sei(frame < pairs.count ? pairs[frame] : nil)
                inserted = true
            }
            out += annexB[unit.start..<end]
        }
        return out
    }
}
