/// The preprocessing both parsers apply before reading lines: the UTF-8 byte order mark is dropped, NUL becomes
/// U+FFFD, and CR LF and lone CR become LF (W3C WebVTT §6.1). Line numbers are unchanged by it.
enum SubtitleInput {
    static func normalize<Bytes: Collection<UInt8>>(_ input: Bytes) -> [UInt8] {
        // One bulk copy (contiguous collections such as `Data` copy with memcpy), then concrete byte loops.
        normalize(bytes: Array(input))
    }

    static func normalize(bytes input: [UInt8]) -> [UInt8] {
        var body = input
        if body.count >= 3, body[0] == 0xEF, body[1] == 0xBB, body[2] == 0xBF { body.removeFirst(3) }
        let (nulls, carriageReturns) = body.withUnsafeBufferPointer { buffer in
            var counts = (0, 0)
            for byte in buffer {
                if byte == 0 { counts.0 += 1 } else if byte == ASCII.carriageReturn { counts.1 += 1 }
            }
            return counts
        }
        guard nulls + carriageReturns > 0 else { return body }
        // A NUL grows into the three bytes of U+FFFD; everything else keeps or loses bytes.
        return [UInt8](unsafeUninitializedCapacity: body.count + 2 * nulls) { output, written in
            body.withUnsafeBufferPointer { input in
                var count = 0
                var previousWasCR = false
                for byte in input {
                    switch byte {
                    case 0:
                        output[count] = 0xEF
                        output[count + 1] = 0xBF
                        output[count + 2] = 0xBD
                        count += 3
                    case ASCII.carriageReturn:
                        output[count] = ASCII.lineFeed
                        count += 1
                    case ASCII.lineFeed where previousWasCR:
                        break  // the LF of a CR LF pair: the CR already ended the line
                    default:
                        output[count] = byte
                        count += 1
                    }
                    previousWasCR = byte == ASCII.carriageReturn
                }
                written = count
            }
        }
    }

    /// Whether the bytes are valid UTF-8.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        let isASCII = bytes.withUnsafeBufferPointer { buffer in buffer.allSatisfy { $0 < 0x80 } }
        if isASCII { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Windows-1252 bytes transcoded to UTF-8 (the legacy encoding of many SubRip files). Bytes 0x81, 0x8D, 0x8F,
    /// 0x90 and 0x9D, undefined there, map to the C1 controls of the same value, as the WHATWG encoding does.
    static func utf8FromWindows1252(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                let scalar = HTMLCharacterReference.replacement(forCodePoint: UInt32(byte))
                output.append(contentsOf: Character(scalar).utf8)
            }
        }
        return output
    }
}
