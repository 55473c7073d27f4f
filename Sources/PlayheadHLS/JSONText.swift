import Foundation

/// A small JSON writer for the `[String: Any]` trees of ``PlaylistJSON``: pretty-printed, sorted keys, slashes
/// unescaped. Foundation's `JSONSerialization` costs about 0.4 ms per segment on Linux, which made
/// `probe --json` of a long live playlist take seconds. A stateless namespace: safe from any thread.
enum JSONText {
    static func encode(_ value: Any) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        return out
    }

    private static func write(_ value: Any, indent: Int, into out: inout String) {
        // Dispatch on the dynamic type first: a chain of `as?` casts costs tens of microseconds per segment.
        let type = Swift.type(of: value)
        if type == String.self {
            string(value as! String, into: &out)
        } else if type == Int.self {
            out += String(value as! Int)
        } else if type == Bool.self {
            out += (value as! Bool) ? "true" : "false"
        } else if type == Double.self {
            let number = value as! Double
            out += number.isFinite ? "\(number)" : "null"
        } else if type == NSNull.self {
            out += "null"
        } else if type == [String: Any].self {
            object(value as! [String: Any], indent: indent, into: &out)
        } else if type == [[String: Any]].self {
            array(value as! [[String: Any]], indent: indent, into: &out)
        } else if type == [String].self {
            array(value as! [String], indent: indent, into: &out)
        } else if let values = value as? [Any] {
            array(values, indent: indent, into: &out)
        } else if let dictionary = value as? [String: Any] {
            object(dictionary, indent: indent, into: &out)
        } else {
            string(String(describing: value), into: &out)
        }
    }

    private static func object(_ object: [String: Any], indent: Int, into out: inout String) {
        if object.isEmpty {
            out += "{}"
            return
        }
        out += "{\n"
        let entries = object.sorted { $0.key < $1.key }
        let inner = spaces(indent + 2)
        for (index, entry) in entries.enumerated() {
            out += inner
            string(entry.key, into: &out)
            out += ": "
            write(entry.value, indent: indent + 2, into: &out)
            out += index + 1 < entries.count ? ",\n" : "\n"
        }
        out += spaces(indent)
        out += "}"
    }

    private static func array(_ values: [Any], indent: Int, into out: inout String) {
        if values.isEmpty {
            out += "[]"
            return
        }
        out += "[\n"
        let inner = spaces(indent + 2)
        for (index, element) in values.enumerated() {
            out += inner
            write(element, indent: indent + 2, into: &out)
            out += index + 1 < values.count ? ",\n" : "\n"
        }
        out += spaces(indent)
        out += "]"
    }

    private static let indentation: [String] = (0..<16).map { String(repeating: " ", count: $0 * 2) }

    private static func spaces(_ count: Int) -> String {
        count / 2 < indentation.count ? indentation[count / 2] : String(repeating: " ", count: count)
    }

    private static func string(_ text: String, into out: inout String) {
        out += "\""
        var plain = true
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            plain = false
            break
        }
        if plain {
            out += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case let control where control.value < 0x20:
                    let hex = String(control.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
