import Foundation

/// A call the library refuses because it breaks a rule of the API (where AVFoundation raises an exception): said in
/// one line on standard error, so that a developer sees why nothing happened, and the app goes on. Any thread.
enum LibraryWarning {
    static func say(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data("Playhead: \(text)\n".utf8))
    }
}
