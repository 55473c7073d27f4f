import Foundation
import Playhead
import PlayheadTestSupport
import PlayheadVideo
import Testing

/// `PlayerWindow.raise()` (MPRIS's Raise: "show me the player") brings back a minimized window; on an X server of
/// the test's own with openbox, which carries out minimizing.
@MainActor @Suite(.serialized) struct WindowRaiseTests {
    /// Whether the window's hidden state became `hidden` within 3 s.
    static func hidden(_ window: PlayerWindow, is hidden: Bool) async -> Bool {
        for _ in 0..<60 {
            if await window.placement()?.isHidden == hidden { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func raisingAMinimizedWindowRestoresIt() async throws {
        try await withManagedDisplay { _ in
            let player = Player()
            player.audioOutputChoice = .disabled
            defer { player.close() }
            player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.barsWithTone()))
            let window = try await PictureInPictureTests.mainWindow(player, "raise")
            defer { window.close() }
            window.minimize()
            #expect(await Self.hidden(window, is: true), "not minimized")
            window.raise()
            #expect(await Self.hidden(window, is: false), "still minimized after raise()")
        }
    }
}
