import Foundation

/// Columns of text in a terminal, by glibc's `wcwidth` in a UTF-8 character locale of its own (2 for a wide East
/// Asian character, 0 for a combining mark), so that a status line fits the terminal's width whatever it quotes.
enum TerminalWidth {
    /// `C.UTF-8`'s character classes (nil where the C library has no such locale: each scalar counts 1).
    nonisolated(unsafe) private static let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
    /// The C library's `wcwidth` (Swift's Glibc module leaves it out: it is an X/Open extension of `wchar.h`).
    private static let wcwidth = dlsym(nil, "wcwidth").map {
        unsafeBitCast($0, to: (@convention(c) (wchar_t) -> Int32).self)
    }

    /// The columns `text` takes: its control characters count 1 (`terminalSafe` shows them as `?`). Any thread: the
    /// locale is set for the calling thread only, and put back.
    static func columns(_ text: String) -> Int {
        withLocale { text.reduce(0) { $0 + width($1) } }
    }

    /// `text` cut to at most `limit` columns, with `…` in place of what is cut. Any thread.
    static func truncate(_ text: String, to limit: Int) -> String {
        withLocale {
            guard text.reduce(0, { $0 + width($1) }) > limit else { return text }
            var out = ""
            var used = 0
            for c in text {
                let w = width(c)
                if used + w > limit - 1 { break }
                out.append(c)
                used += w
            }
            return limit > 0 ? out + "…" : ""
        }
    }

    private static func withLocale<T>(_ body: () -> T) -> T {
        guard let utf8 else { return body() }
        let previous = uselocale(utf8)
        defer { uselocale(previous) }
        return body()
    }

    /// One character's columns: the widest of its scalars (a base and its combining marks take the base's).
    private static func width(_ c: Character) -> Int {
        guard let wcwidth else { return 1 }
        var widest = 0
        for s in c.unicodeScalars {
            let w = Int(wcwidth(wchar_t(bitPattern: s.value)))
            widest = max(widest, w < 0 ? 1 : w)
        }
        return max(widest, 1)
    }
}
