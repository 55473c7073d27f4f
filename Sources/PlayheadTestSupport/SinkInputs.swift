import Foundation

/// A playback stream as the sound server shows it (`pactl list sink-inputs`): what a user sees in a volume mixer.
/// A value type, safe anywhere.
public struct SinkInput: Sendable {
    /// The stream's index on the server.
    public var index: String
    /// The name of the sink it plays on.
    public var sink: String
    /// Its volume as a linear amplitude factor (1 at 100 %), from the first channel.
    public var volume: Double?
    /// Its properties (`media.role`, `application.process.id`, ...).
    public var properties: [String: String]

    /// The `media.role` property: music, video, phone...
    public var role: String? { properties["media.role"] }
    /// The process that opened the stream.
    public var processID: Int32? { properties["application.process.id"].flatMap { Int32($0) } }

    /// Every stream on the server now (from `pactl`; the test's thread waits for it).
    public static func all() throws -> [SinkInput] {
        var sinkNames: [String: String] = [:]
        for line in try Run.command("pactl", ["list", "short", "sinks"], timeout: 10).stdout.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count > 1 { sinkNames[String(fields[0])] = String(fields[1]) }
        }
        let text = try Run.command("pactl", ["list", "sink-inputs"], timeout: 10).stdout
        return text.components(separatedBy: "Sink Input #").dropFirst().map { block in
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            var input = SinkInput(index: lines.first ?? "", sink: "", volume: nil, properties: [:])
            for line in lines {
                if line.hasPrefix("Sink: ") {
                    let index = String(line.dropFirst("Sink: ".count))
                    input.sink = sinkNames[index] ?? index
                } else if line.hasPrefix("Volume: "), input.volume == nil {
                    // "Volume: front-left: 38322 /  58% / -14.0 dB, ...": the raw value is cubic in amplitude.
                    let words = line.split(separator: " ")
                    if words.count > 2, let raw = Double(words[2]) { input.volume = pow(raw / 65536, 3) }
                } else if let eq = line.range(of: " = \"") {
                    let key = String(line[..<eq.lowerBound])
                    input.properties[key] = String(line[eq.upperBound...].dropLast())
                }
            }
            return input
        }
    }

    /// The streams process `pid` plays on the server now.
    public static func of(process pid: Int32) throws -> [SinkInput] { try all().filter { $0.processID == pid } }
}
