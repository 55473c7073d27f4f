import Foundation

/// How subtitle files beside a video are named: `Film.srt`, or with a language before the extension
/// (`Film.en.srt`, `Film.pt-BR.ass`, `Film.fre.vtt`), the convention mpv, VLC and media servers read. Pure
/// functions; any thread.
public enum SubtitleFileNames {
    /// The extensions of the subtitle files Playhead reads, in lower case.
    public static let extensions: Set<String> = ["srt", "vtt", "ass", "ssa"]

    /// The language a subtitle file's name gives before its extension (`Film.en.srt`: "en"), nil when the part
    /// there is no language code Foundation knows (`Alien.Day.srt`, `Film.srt`).
    public static func language(of fileName: String) -> String? {
        let parts = fileName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, let code = parts.dropLast().last, looksLikeLanguage(code) else { return nil }
        return String(code)
    }

    /// The names among `names` (a folder's entries) that are subtitles of the media file named `mediaName`: its
    /// name without the extension, then optionally a language, then a subtitle extension (any case). In name
    /// order.
    public static func companions(of mediaName: String, among names: [String]) -> [String] {
        let base = (mediaName as NSString).deletingPathExtension
        guard !base.isEmpty else { return [] }
        return names.filter { name in
            guard name != mediaName, extensions.contains((name as NSString).pathExtension.lowercased()) else {
                return false
            }
            let stem = (name as NSString).deletingPathExtension
            if stem == base { return true }
            guard stem.hasPrefix(base + ".") else { return false }
            return looksLikeLanguage(stem.dropFirst(base.count + 1))
        }.sorted()
    }

    /// Two or three letters, optionally a region or script after a hyphen, that name a language.
    private static func looksLikeLanguage(_ code: Substring) -> Bool {
        let pieces = code.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), (2...3).contains(pieces[0].count),
            pieces[0].allSatisfy({ $0.isASCII && $0.isLetter }),
            pieces.count == 1
                || ((2...4).contains(pieces[1].count)
                    && pieces[1].allSatisfy { $0.isASCII && $0.isLetter || $0.isNumber })
        else { return false }
        return Locale(identifier: "en").localizedString(forLanguageCode: String(code)) != nil
    }
}
