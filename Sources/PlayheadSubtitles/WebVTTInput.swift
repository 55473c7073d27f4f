/// The preprocessing both parsers apply before reading lines: the UTF-8 byte order mark is dropped, NUL becomes
/// U+FFFD, and CR LF and lone CR become LF (W3C WebVTT §6.1). Line numbers are unchanged by it.
enum SubtitleInput {
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    static func normalize<Bytes: Collection<UInt8>>(_ input: Bytes) -> [UInt8] {
        var start = input.startIndex
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { start = input.index(start, offsetBy: 3) }
        let body = input[start...]
        guard body.contains(where: { $0 == 0 || $0 == ASCII.carriageReturn }) else { return Array(body) }
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
}
