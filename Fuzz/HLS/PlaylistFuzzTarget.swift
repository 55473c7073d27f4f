// libFuzzer entry point for the HLS playlist parser. Built by scripts/fuzz-hls.sh together with the sources of
// Sources/PlayheadHLS into one module (swiftc -sanitize=fuzzer,address), so it calls internal API directly.
import Foundation

/// Runs every entry point on one input: lenient and strict parse, write and re-parse, JSON, report, delta merge.
/// Each must return a value or throw; libFuzzer reports crashes, sanitizer errors and hangs (-timeout). Writing
/// must round-trip: a written playlist parses back to an equal value (unless a value itself contains `{$`, which
/// HLS cannot escape); a difference stops the run like a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func playlistFuzzTarget(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let url = URL(string: "https://example.com/live/index.m3u8?x=1&token=t")
    let modes = [PlaylistParserOptions.lenient, .strict, PlaylistParserOptions(importedVariables: ["y": "1"])]
    for options in modes {
        guard let playlist = try? PlaylistParser(options: options).parse(data, url: url) else { continue }
        let text = PlaylistWriter().write(playlist)
        let again = try? PlaylistParser(options: modes[2]).parse(text, url: url)
        if !text.contains("{$"), again.map(withoutWarnings) != withoutWarnings(playlist) {
            fatalError("parse → write → parse differs for:\n\(text)")
        }
        if options == .lenient {
            _ = PlaylistJSON.data(for: playlist)
            _ = ProbeReport.text(for: playlist)
        }
        if let media = playlist.media { _ = try? media.applyingDeltaUpdate(to: media) }
    }
    return 0
}

private func withoutWarnings(_ playlist: Playlist) -> Playlist {
    switch playlist {
    case .media(var media):
        media.warnings = []
        return .media(media)
    case .multivariant(var multivariant):
        multivariant.warnings = []
        return .multivariant(multivariant)
    }
}
