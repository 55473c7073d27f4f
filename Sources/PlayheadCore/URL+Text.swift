import Foundation

extension URL {
    /// A URL from text a user or a file gave (the command line, a playlist, a D-Bus call, a playlist's URI): as it
    /// is when it is valid; else with each byte a URL may not hold percent-encoded and the escapes already there
    /// kept. Foundation's own fallback encodes their "%" again ("a%20b|c" became "a%2520b%7Cc", another file to
    /// the server). Nil when even that is no URL. Pure; any thread.
    public init?(text: String, relativeTo base: URL? = nil) {
        self.init(string: Self.encodingInvalidCharacters(text), relativeTo: base)
    }

    /// `text` with every byte outside RFC 3986's characters percent-encoded; a "%" that starts an escape (two hex
    /// digits) is kept, any other is encoded. Pure.
    public static func encodingInvalidCharacters(_ text: String) -> String {
        let bytes = Array(text.utf8)
        func isHex(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
        }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for (i, b) in bytes.enumerated() {
            let escape = b == UInt8(ascii: "%") && i + 2 < bytes.count && isHex(bytes[i + 1]) && isHex(bytes[i + 2])
            if allowed.contains(b) || escape {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(b >> 4)], digits[Int(b & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
