import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Records what a `PictureInPictureController` tells its delegate, in order; answers the restore request at once,
/// or never when `answersRestore` is false.
@MainActor final class PictureInPictureRecorder: PictureInPictureControllerDelegate {
    var calls: [String] = []
    var answersRestore = true

    func pictureInPictureControllerWillStartPictureInPicture(_ controller: PictureInPictureController) {
        calls.append("willStart")
    }
    func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController) {
        calls.append("didStart")
    }
    func pictureInPictureController(
        _ controller: PictureInPictureController, failedToStartPictureInPictureWithError error: any Error
    ) { calls.append("failed: \(error)") }
    func pictureInPictureControllerWillStopPictureInPicture(_ controller: PictureInPictureController) {
        calls.append("willStop")
    }
    func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController) {
        calls.append("didStop")
    }
    func pictureInPictureController(
        _ controller: PictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler:
            @escaping @Sendable (Bool)
            -> Void
    ) {
        calls.append("restore")
        if answersRestore { completionHandler(true) }
    }
}

/// Picture in Picture on an X server of the test's own with a window manager (openbox, 640x480): the floating
/// window's place, size and state read back from the server, the player carried over without a reopen.
@MainActor @Suite(.serialized) struct PictureInPictureTests {
    /// Whether the window titled `title` on `display` is mapped (shown), and its `_NET_WM_STATE`.
    nonisolated static func state(of title: String, on display: String) throws -> (mapped: Bool, wmState: String) {
        let info = try Run.command("xwininfo", ["-display", display, "-name", title], timeout: 10)
        let prop = try Run.command("xprop", ["-display", display, "-name", title, "_NET_WM_STATE"], timeout: 10)
        return (info.stdout.contains("IsViewable"), prop.stdout)
    }

    /// Opens `player` in a 320x240 window titled `title` at (40, 40) on the managed server.
    static func mainWindow(_ player: Player, _ title: String) async throws -> PlayerWindow {
        let window = try await PlayerWindow.open(
            player: player, title: title, width: 320, height: 240, position: (40, 40))
        #expect(await eventually { window.playerLayer.isReadyForDisplay }, "no picture in the main window")
        return window
    }

    @Test func startsInACornerAboveTheOthersAndRestoresInOrderWithoutAReload() async throws {
        try await withManagedDisplay { display in try await startsAndRestores(on: display) }
    }

    func startsAndRestores(on display: String) async throws {
        let sink = try TestSink()
        let player = Player()
        player.audioOutputChoice = .pulse(device: sink.name)
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.barsWithTone()))
        defer { player.close() }
        let title = "pip main"
        let window = try await Self.mainWindow(player, title)
        defer { window.close() }
        PictureInPictureController.preferredCorner = .bottomRight
        let pip = PictureInPictureController(playerWindow: window)
        let recorder = PictureInPictureRecorder()
        pip.delegate = recorder
        player.play()
        #expect(await eventually { player.currentTime().seconds > 1 })
        let (opens, decoders) = (PlaybackCounters.mediaOpens, PlaybackCounters.decoderCreations)
        #expect(PictureInPictureController.isPictureInPictureSupported())
        #expect(pip.isPictureInPicturePossible)
        let before = player.currentTime().seconds
        let mainBefore = try #require(try TestDisplay.window(titled: title, on: display))

        pip.startPictureInPicture()
        #expect(await eventually { pip.isPictureInPictureActive }, "\(recorder.calls)")
        let floatingTitle = "pip main (Picture in Picture)"
        let g = try await Task.detached { try TestDisplay.waitForWindow(titled: floatingTitle, on: display) }.value
        let floating = try #require(g, "no floating window")
        // A quarter of the 640-pixel screen wide, the bars' 4:3, in the bottom-right corner 16 pixels in.
        #expect(floating.width == 160 && floating.height == 120, "\(floating)")
        #expect(abs(floating.x - 464) <= 2 && abs(floating.y - 344) <= 2, "\(floating)")
        let floatingState = try Self.state(of: floatingTitle, on: display)
        #expect(floatingState.wmState.contains("_NET_WM_STATE_ABOVE"), "\(floatingState.wmState)")
        // Borderless: the window manager draws no frame around it.
        let extents = try Run.command(
            "xprop", ["-display", display, "-name", floatingTitle, "_NET_FRAME_EXTENTS"], timeout: 10)
        #expect(extents.stdout.contains("= 0, 0, 0, 0"), "frame: \(extents.stdout)")
        #expect(await eventually { (try? Self.state(of: title, on: display).mapped) == false }, "main window shown")
        #expect(await eventually { pip.pictureInPictureWindow?.playerLayer.isReadyForDisplay == true })
        let bars = try await Task.detached {
            try TestDisplay.grab(floating, on: display)
        }.value
        // smptebars' first bar (grey-white) at the left, and its blue at the right of the top band.
        let left = bars.pixel(8, 30)
        #expect(left.r > 150 && left.g > 150 && left.b > 150, "left of the floating picture: \(left)")
        // The floating window's title follows the main window's (the next entry of a playlist).
        window.title = "pip next"
        let renamed = try await Task.detached {
            try TestDisplay.waitForWindow(titled: "pip next (Picture in Picture)", on: display, seconds: 5)
        }.value
        #expect(renamed != nil, "the floating window kept its first title")
        window.title = title

        try await Task.sleep(for: .seconds(1))
        pip.stopPictureInPicture()
        #expect(await eventually { !pip.isPictureInPictureActive }, "\(recorder.calls)")
        #expect(recorder.calls == ["willStart", "didStart", "willStop", "restore", "didStop"], "\(recorder.calls)")
        let back = try await Task.detached { try TestDisplay.waitForWindow(titled: title, on: display) }.value
        #expect(back?.width == 320 && back?.height == 240, "the main window came back as \(String(describing: back))")
        #expect(
            back.map { abs($0.x - mainBefore.x) <= 2 && abs($0.y - mainBefore.y) <= 2 } == true,
            "the main window came back at \(String(describing: back)), was \(mainBefore)")
        #expect(try TestDisplay.window(titled: floatingTitle, on: display) == nil, "the floating window stayed")
        #expect(await eventually { window.playerLayer.isReadyForDisplay })

        // Playing all along: never paused, never sought back, nothing opened or decoded again.
        #expect(player.timeControlStatus == .playing)
        #expect(player.currentTime().seconds > before + 1.5, "\(player.currentTime().seconds) after \(before)")
        #expect(PlaybackCounters.mediaOpens == opens && PlaybackCounters.decoderCreations == decoders)
        player.pause()
        let heard = sink.stopRecording()
        let gap = AudioAnalysis.longestGap(heard)
        #expect(gap < 0.005, "a gap of \(gap) s in the sound across the moves")
    }
}

/// Runs `body` with an X server of its own managed by openbox as this process's display, then waits for the
/// windows `body` closed to be gone from it (the display thread's connection closed) before stopping the server:
/// a server that ends under an open connection is a lost display, and no window opens again in the process.
@MainActor func withManagedDisplay(_ body: (String) async throws -> Void) async throws {
    let x = try TestDisplay.startManagedServer()
    setenv("DISPLAY", x.display, 1)
    var failure: (any Error)?
    do { try await body(x.display) } catch { failure = error }
    let closed = await PlayerWindow.waitUntilDisplayClosed(upTo: 5)
    TestDisplay.leave()
    x.stop()
    if let failure { throw failure }
    #expect(closed, "a window stayed open: the display connection was not closed")
}
