// libFuzzer entry point for the PlayheadSubtitles parsers. Built by scripts/fuzz-subtitles.sh together with the
// sources of Sources/PlayheadSubtitles as one module (`swiftc -sanitize=fuzzer,address`), so it is not a SwiftPM
// target. Every input must give a document or an error: any crash, trap or sanitizer report is a bug.

/// The libFuzzer callback: runs both parsers, the cue text parsers and a timeline over one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubtitles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    var documents = [SRTParser.parse(input)]
    if let document = try? WebVTTParser.parse(input) { documents.append(document) }
    for document in documents {
        for cue in document.cues {
            _ = cue.parsedText.plainText
        }
        let timeline = CueTimeline(document)
        for cue in document.cues.prefix(8) {
            let active = timeline.activeCueIndices(at: cue.startTime)
            if cue.endTime > cue.startTime, !active.contains(where: { document.cues[$0] == cue }) {
                fatalError("an active cue is missing from the timeline")
            }
            _ = timeline.nextChange(after: cue.startTime)
        }
    }
    _ = WebVTTCueTextParser.parse(String(decoding: input, as: UTF8.self))
    return 0
}
