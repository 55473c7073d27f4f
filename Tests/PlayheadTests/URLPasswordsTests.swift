import Foundation
import Playhead
import Testing

/// `URLPasswords`: a URL's password masked wherever a text quotes it, and taken out with the user of a key.
@Suite struct URLPasswordsTests {
    @Test func passwordsAreMaskedWhereverTheyAreQuoted() {
        let text = "http://ann:s3cret@h:8080/a.m3u8: HTTP 401 (via https://bob:p%40ss@cdn/x?u=http://c:d@e/)"
        #expect(
            URLPasswords.masked(text)
                == "http://ann:***@h:8080/a.m3u8: HTTP 401 (via https://bob:***@cdn/x?u=http://c:***@e/)")
        // No password, a user alone, an address in words, a port: as they are.
        for same in ["http://h:8080/a@b.mp3", "http://ann@h/a.mp3", "write to ann@example.org", "/music/a:b@c.mp3"] {
            #expect(URLPasswords.masked(same) == same)
        }
    }

    @Test func aKeyHasNeitherUserNorPassword() {
        #expect(URLPasswords.removed(from: "http://ann:s3cret@h:8080/a.mp3?x=1") == "http://h:8080/a.mp3?x=1")
        #expect(URLPasswords.removed(from: "https://ann@h/a.mp3") == "https://h/a.mp3")
        #expect(URLPasswords.removed(from: "http://h/a.mp3") == "http://h/a.mp3")
    }
}
