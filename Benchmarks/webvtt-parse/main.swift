// Parse-time benchmark for PlayheadSubtitles. Built in release mode by run.sh; prints one line per measurement:
// `name median_ms min_ms (check)`. Usage: webvtt-parse-bench FILE.vtt FILE.srt LONG.vtt [ITERATIONS]
import Foundation
import PlayheadSubtitles

func measure(_ name: String, iterations: Int, _ body: () throws -> Int) rethrows {
    var times: [Double] = []
    var check = 0
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        check &+= try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    print(String(format: "%@ %.3f %.3f", name, times[times.count / 2], times[0]), "(\(check / iterations))")
}

let arguments = CommandLine.arguments
let vtt = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
let srt = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
let long = try Data(contentsOf: URL(fileURLWithPath: arguments[3]))
let iterations = arguments.count > 4 ? Int(arguments[4])! : 50

let document = try WebVTTParser.parse(vtt)
try measure("webvtt-parse", iterations: iterations) { try WebVTTParser.parse(vtt).cues.count }
try measure("webvtt-parse+cue-text", iterations: iterations) {
    try WebVTTParser.parse(vtt).cues.reduce(0) { $0 + $1.parsedText.nodes.count }
}
try measure("webvtt-parse-40h", iterations: max(iterations / 3, 3)) { try WebVTTParser.parse(long).cues.count }
measure("srt-parse", iterations: iterations) { SRTParser.parse(srt).cues.count }
measure("timeline-build", iterations: iterations) { CueTimeline(document).cues.count }
let timeline = CueTimeline(document)
measure("timeline-10000-queries", iterations: iterations) {
    var found = 0
    for step in 0..<10_000 { found += timeline.activeCueIndices(at: Double(step) * 0.72).count }
    return found
}
