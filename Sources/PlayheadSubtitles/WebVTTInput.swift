/// The preprocessing both parsers apply before reading lines: the UTF-8 byte order mark is dropped, NUL becomes
/// U+FFFD, and CR LF and lone CR become LF (W3C WebVTT §6.1). Line numbers are unchanged by it.
enum SubtitleInput {
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    static func normalize<Bytes: Collection<UInt8>>(_ input: Bytes) -> [UInt8] {
        // One bulk copy (contiguous collections such as `Data` copy with memcpy), then concrete byte loops.
        normalize(bytes: Array(input))
    }

    static func normalize(bytes input: [UInt8]) -> [UInt8] {
        var body = input
        if body.count >= 3, body[0] == 0xEF, body[1] == 0xBB, body[2] == 0xBF { body.removeFirst(3) }
        let needsRewrite = body.withUnsafeBufferPointer { buffer in
            buffer.contains { $0 == 0 || $0 == ASCII.carriageReturn }
        }
        guard needsRewrite else { return body }
        var output: [UInt8] = []
        output.reserveCapacity(body.count + 16)
        var previousWasCR = false
        for byte in body {
            switch byte {
            case 0:
                output.append(contentsOf: replacementCharacter)
            case ASCII.carriageReturn:
                output.append(ASCII.lineFeed)
            case ASCII.lineFeed where previousWasCR:
                break  // the LF of a CR LF pair: the CR already ended the line
            default:
                output.append(byte)
            }
            previousWasCR = byte == ASCII.carriageReturn
        }
        return output
    }

    /// Whether the bytes are valid UTF-8.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
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
