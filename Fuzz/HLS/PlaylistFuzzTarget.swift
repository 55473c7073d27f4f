// libFuzzer entry point for the HLS playlist parser. Built by scripts/fuzz-hls.sh together with the sources of
// Sources/PlayheadHLS into one module (swiftc -sanitize=fuzzer,address), so it calls internal API directly.
import Foundation

/// Runs every entry point on one input: lenient and strict parse, write and re-parse, JSON, report, delta merge.
/// Each must return a value or throw; libFuzzer reports crashes, sanitizer errors and hangs (-timeout).
@_cdecl("LLVMFuzzerTestOneInput")
public func playlistFuzzTarget(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let url = URL(string: "https://example.com/live/index.m3u8?x=1&token=t")
    let modes = [PlaylistParserOptions.lenient, .strict, PlaylistParserOptions(importedVariables: ["y": "1"])]
    for options in modes {
        guard let playlist = try? PlaylistParser(options: options).parse(data, url: url) else { continue }
        let text = PlaylistWriter().write(playlist)
        _ = try? PlaylistParser(options: options).parse(text, url: url)
        if options == .lenient {
            _ = PlaylistJSON.data(for: playlist)
            _ = ProbeReport.text(for: playlist)
        }
        if let media = playlist.media { _ = try? media.applyingDeltaUpdate(to: media) }
    }
    return 0
}
