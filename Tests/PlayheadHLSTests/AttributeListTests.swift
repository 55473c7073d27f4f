import Foundation
import Testing

@testable import PlayheadHLS

@Suite("Attribute lists (RFC 8216bis 4.2)")
struct AttributeListTests {
    @Test("quoted strings keep commas and equals signs; order is kept")
    func quotedStrings() throws {
        let list = try AttributeList(parsing: #"CODECS="avc1.4d401f,mp4a.40.2",NAME="a=b",BANDWIDTH=1"#)
        #expect(list.quotedString("CODECS") == "avc1.4d401f,mp4a.40.2")
        #expect(list.quotedString("NAME") == "a=b")
        #expect(list.entries.map(\.name) == ["CODECS", "NAME", "BANDWIDTH"])
        #expect(list.quotedString("BANDWIDTH") == nil, "an unquoted value is not a quoted-string")
        #expect(list.description == #"CODECS="avc1.4d401f,mp4a.40.2",NAME="a=b",BANDWIDTH=1"#)
    }

    @Test("decimal-integer: digits only, at most 20, within Int")
    func decimalInteger() throws {
        let list = try AttributeList(
            parsing: "A=0,B=18446744073709551615,C=-1,D=1.5,E=12345678901234567890123,F=9223372036854775807,G=")
        #expect(list.decimalInteger("A") == 0)
        #expect(list.decimalInteger("B") == nil, "beyond Int")
        #expect(list.decimalInteger("C") == nil)
        #expect(list.decimalInteger("D") == nil)
        #expect(list.decimalInteger("E") == nil)
        #expect(list.decimalInteger("F") == Int.max)
        #expect(list.decimalInteger("G") == nil)
    }

    @Test("decimal-floating-point and signed-decimal-floating-point")
    func floats() throws {
        let list = try AttributeList(parsing: "A=4.00008,B=-2.5,C=1e3,D=10,E=.5,F=1.2.3,G=0.1")
        #expect(list.decimalFloatingPoint("A") == 4.00008)
        #expect(list.decimalFloatingPoint("B") == nil)
        #expect(list.signedDecimalFloatingPoint("B") == -2.5)
        #expect(list.decimalFloatingPoint("C") == nil, "no exponent in the grammar")
        #expect(list.decimalFloatingPoint("D") == 10)
        #expect(list.decimalFloatingPoint("E") == 0.5)
        #expect(list.decimalFloatingPoint("F") == nil)
        #expect(list.decimalFloatingPoint("G") == 0.1, "correctly rounded")
    }

    @Test("long decimals are correctly rounded")
    func longDecimals() throws {
        let text = "0.1234567890123456789012345"
        let list = try AttributeList(parsing: "A=\(text)")
        #expect(list.decimalFloatingPoint("A") == Double(text))
    }

    @Test("hexadecimal-sequence: 0x or 0X, odd digit counts padded")
    func hexadecimal() throws {
        let list = try AttributeList(parsing: "IV=0x0102,B=0XaBc,C=0x,D=12,E=0xZZ")
        #expect(list.hexadecimalSequence("IV") == [1, 2])
        #expect(list.hexadecimalSequence("B") == [0x0A, 0xBC])
        #expect(list.hexadecimalSequence("C") == nil)
        #expect(list.hexadecimalSequence("D") == nil)
        #expect(list.hexadecimalSequence("E") == nil)
    }

    @Test("enumerated-string and decimal-resolution")
    func enumeratedAndResolution() throws {
        let list = try AttributeList(parsing: #"TYPE=AUDIO,Q="AUDIO",RESOLUTION=1920x1080,R2=1920X1080,R3=x5"#)
        #expect(list.enumeratedString("TYPE") == "AUDIO")
        #expect(list.enumeratedString("Q") == nil)
        #expect(list.decimalResolution("RESOLUTION") == Resolution(width: 1920, height: 1080))
        #expect(list.decimalResolution("R2") == nil, "the separator is a lowercase x")
        #expect(list.decimalResolution("R3") == nil)
        #expect(list.yesNo("TYPE") == nil)
    }

    @Test(
        "grammar violations are errors when parsed strictly",
        arguments: [
            #"A="unterminated"#, "A=1, B=2", "a=1", "A=1,A=2", #"A="x"y"#, "=1",
        ])
    func strictGrammar(text: String) {
        #expect(throws: PlaylistParseError.self) { try AttributeList(parsing: text) }
    }

    @Test("subscript sets, replaces and removes")
    func editing() throws {
        var list = try AttributeList(parsing: "A=1,B=2")
        list["A"] = AttributeValue("x", quoted: true)
        list["C"] = AttributeValue("3", quoted: false)
        list["B"] = nil
        #expect(list.description == #"A="x",C=3"#)
    }
}
