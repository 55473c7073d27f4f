/// Parses SubRip cue text into the same tree as WebVTT.
public enum SRTCueTextParser {
    /// Parses SubRip text.
    public static func parse(_ text: String) -> CueText { CueText(nodes: [.text(text)]) }
}
