// HLS playlist parsing benchmark (see run.sh): generates a 10,000-segment live media playlist and times
// PlaylistParser on it and on the files given on the command line.
//
//   hls-parse-bench generate OUT.m3u8        writes the generated live playlist
//   hls-parse-bench time FILE... [--runs N]  prints "<file> <median ms> <min ms> <segments>" per file
import Foundation
import PlayheadHLS

func generateLivePlaylist(segments: Int) -> String {
    var text = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:1000000
        #EXT-X-DISCONTINUITY-SEQUENCE:12
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MAP:URI="init-v1.mp4"

        """
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var seconds = 1_700_000_000
    for index in 0..<segments {
        let sequence = 1_000_000 + index
        if index % 1000 == 0 {
            text += "#EXT-X-KEY:METHOD=AES-128,URI=\"https://keys.example.com/k/\(sequence / 1000).bin\"\n"
        }
        if index % 100 == 0 {
            let date = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            text += "#EXT-X-PROGRAM-DATE-TIME:\(date)\n"
        }
        text += "#EXTINF:6.006,\nseg-\(sequence).m4s\n"
        seconds += 6
    }
    return text
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "generate":
    let text = generateLivePlaylist(segments: 10_000)
    try text.write(toFile: arguments[1], atomically: true, encoding: .utf8)
case "time":
    var files = Array(arguments.dropFirst())
    var runs = 20
    if let index = files.firstIndex(of: "--runs") {
        runs = Int(files[index + 1]) ?? runs
        files.removeSubrange(index...(index + 1))
    }
    for file in files {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let url = URL(string: "https://cdn.example.com/live/index.m3u8")
        var times: [Double] = []
        var segments = 0
        for _ in 0..<runs {
            times.append(
                try milliseconds {
                    let playlist = try PlaylistParser().parse(data, url: url)
                    segments = playlist.media?.segments.count ?? 0
                })
        }
        times.sort()
        print(file, String(format: "%.3f %.3f", times[times.count / 2], times[0]), segments)
    }
default:
    print("usage: hls-parse-bench generate OUT | time FILE... [--runs N]")
}
