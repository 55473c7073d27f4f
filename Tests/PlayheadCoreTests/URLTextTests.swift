import Foundation
import PlayheadCore
import Testing

/// URLs from text users and files give (`URL(text:)`).
struct URLTextTests {
    @Test func validTextStaysAsItIs() {
        for text in [
            "http://h/p?a=First%20song%7Cx", "https://[::1]:8080/a/b.m3u8#t=3", "file:///tmp/a%20b.mp3",
            "http://h/~u/a-b_c.d?x=1&y=(2)*,;=!$'+@:",
        ] {
            #expect(URL(text: text)?.absoluteString == text)
        }
    }

    @Test func invalidCharactersAreEncodedAndEscapesKept() {
        #expect(URL(text: "http://h/p?a=First%20song|x")?.absoluteString == "http://h/p?a=First%20song%7Cx")
        #expect(URL(text: "http://h/two words/ä.mp3")?.absoluteString == "http://h/two%20words/%C3%A4.mp3")
        // A "%" that starts no escape is itself encoded.
        #expect(URL(text: "http://h/100%|x%2")?.absoluteString == "http://h/100%25%7Cx%252")
        #expect(
            URL(text: "a b|c", relativeTo: URL(string: "http://h/d/e.m3u8"))?.absoluteString == "http://h/d/a%20b%7Cc")
    }
}
