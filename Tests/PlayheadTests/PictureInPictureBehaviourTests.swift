import Foundation
import Playhead
import PlayheadTestSupport
import PlayheadVideo
import Testing

/// Picture in Picture's behaviour around the person and the app: automatic start, the floating window closed or
/// dragged, a restore handler never called, no display. On an X server of the test's own with openbox.
@MainActor @Suite(.serialized) struct PictureInPictureBehaviourTests {
    /// A playing (or paused) player of the bars with sound in a 320x240 window, its controller and a recorder;
    /// `body` runs with them, everything is closed after.
    static func scene(
        _ title: String, playing: Bool = true,
        _ body: (Player, PlayerWindow, PictureInPictureController, PictureInPictureRecorder, String) async throws
            -> Void
    ) async throws {
        try await withManagedDisplay { display in
            let player = Player()
            player.audioOutputChoice = .disabled
            let item = PlayerItem(url: try Fixtures.barsWithTone())
            player.replaceCurrentItem(with: item)
            defer { player.close() }
            let window = try await PictureInPictureTests.mainWindow(player, title)
            defer { window.close() }
            PictureInPictureController.preferredCorner = .bottomRight
            let pip = PictureInPictureController(playerWindow: window)
            defer { pip.pictureInPictureWindow?.close() }
            let recorder = PictureInPictureRecorder()
            pip.delegate = recorder
            if playing {
                player.play()
                #expect(await eventually { player.currentTime().seconds > 0.5 })
            }
            try await body(player, window, pip, recorder, display)
        }
    }

    @Test func minimizingWhilePlayingStartsItAndWhilePausedDoesNot() async throws {
        try await Self.scene("pip auto") { player, window, pip, recorder, display in
            pip.canStartPictureInPictureAutomaticallyFromInline = true
            try TestDisplay.xdotool(["search", "--name", "^pip auto$", "windowminimize"], on: display)
            #expect(await eventually { pip.isPictureInPictureActive }, "minimized while playing: \(recorder.calls)")
            #expect(player.timeControlStatus == .playing)
            // The main window shown again: back from Picture in Picture.
            window.show()
            #expect(await eventually { !pip.isPictureInPictureActive }, "\(recorder.calls)")
            #expect(recorder.calls == ["willStart", "didStart", "willStop", "restore", "didStop"], "\(recorder.calls)")
            player.pause()
            try await Task.sleep(for: .milliseconds(300))
            try TestDisplay.xdotool(["search", "--name", "^pip auto$", "windowminimize"], on: display)
            try await Task.sleep(for: .seconds(1.5))
            #expect(!pip.isPictureInPictureActive, "minimized while paused started it")
            #expect(player.timeControlStatus == .paused, "a layout change started playback")
        }
    }

    @Test func closingTheFloatingWindowPausesAndBringsTheMainOneBack() async throws {
        try await Self.scene("pip close") { player, _, pip, recorder, display in
            pip.startPictureInPicture()
            #expect(await eventually { pip.isPictureInPictureActive })
            let floating = "pip close (Picture in Picture)"
            _ = try await Task.detached { try TestDisplay.waitForWindow(titled: floating, on: display) }.value
            let close = try Run.command("wmctrl", ["-c", floating], environment: ["DISPLAY": display])
            #expect(close.status == 0, "\(close.stderr)")
            #expect(await eventually { !pip.isPictureInPictureActive }, "\(recorder.calls)")
            #expect(player.timeControlStatus == .paused, "closing the floating window did not pause")
            // No restore was asked: the delegate hears no restore request.
            #expect(recorder.calls == ["willStart", "didStart", "willStop", "didStop"], "\(recorder.calls)")
            let back = try await Task.detached { try TestDisplay.waitForWindow(titled: "pip close", on: display) }.value
            #expect(back != nil, "the main window did not come back")
        }
    }

    @Test func theFloatingWindowIsDraggedResizedInItsAspectAndItsCornerRemembered() async throws {
        try await Self.scene("pip drag") { _, _, pip, _, display in
            pip.startPictureInPicture()
            #expect(await eventually { pip.isPictureInPictureActive })
            let floating = "pip drag (Picture in Picture)"
            let g = try await Task.detached { try TestDisplay.waitForWindow(titled: floating, on: display) }.value
            let start = try #require(g)
            // Dragged from below its play button (not on a button, not on an edge) towards the top-left corner.
            let (cx, cy) = (start.x + start.width / 2, start.y + start.height - 20)
            // As a person drags: the button held a moment before moving (the window manager takes the move over
            // once the window asks it to), then moved in steps, held again before letting go.
            try TestDisplay.xdotool(["mousemove", "\(cx)", "\(cy)", "mousedown", "1"], on: display)
            try await Task.sleep(for: .milliseconds(300))
            for step in 1...10 {
                try TestDisplay.xdotool(["mousemove", "\(cx - step * 38)", "\(cy - step * 28)"], on: display)
                try await Task.sleep(for: .milliseconds(50))
            }
            try await Task.sleep(for: .milliseconds(300))
            try TestDisplay.xdotool(["mouseup", "1"], on: display)
            try TestDisplay.parkPointer(on: display)
            var moved: TestDisplay.Geometry?
            for _ in 0..<40 {
                moved = try TestDisplay.window(titled: floating, on: display)
                if let m = moved, m.x < 200, m.y < 150 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect((moved?.x ?? 999) < 200 && (moved?.y ?? 999) < 150, "not dragged: \(String(describing: moved))")
            // Resized to a shape that is not the picture's: the height follows the width (4:3).
            try TestDisplay.xdotool(["search", "--name", "^pip drag \\(", "windowsize", "320", "100"], on: display)
            var resized: TestDisplay.Geometry?
            for _ in 0..<40 {
                resized = try TestDisplay.window(titled: floating, on: display)
                if resized?.width == 320, resized?.height == 240 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(resized?.width == 320 && resized?.height == 240, "\(String(describing: resized))")
            pip.stopPictureInPicture()
            #expect(await eventually { !pip.isPictureInPictureActive })
            // The next start goes to the corner it was left nearest to.
            pip.startPictureInPicture()
            #expect(await eventually { pip.isPictureInPictureActive })
            let again = try await Task.detached { try TestDisplay.waitForWindow(titled: floating, on: display) }.value
            #expect(again.map { abs($0.x - 16) <= 2 && abs($0.y - 16) <= 2 } == true, "\(String(describing: again))")
        }
    }

    /// Clicks at `x`, `y` (screen) after moving there, so the controls show first.
    static func click(_ x: Int, _ y: Int, on display: String) async throws {
        try TestDisplay.xdotool(["mousemove", "\(x)", "\(y)"], on: display)
        try await Task.sleep(for: .milliseconds(300))
        try TestDisplay.xdotool(["mousemove", "\(x + 1)", "\(y)", "click", "1"], on: display)
        try await Task.sleep(for: .milliseconds(300))
    }

    @Test func theFloatingWindowsButtonsPlayPauseRestoreAndClose() async throws {
        try await Self.scene("pip buttons") { player, _, pip, recorder, display in
            // The main window's Picture-in-Picture button (the controller set its handler) starts it.
            let main = try #require(try TestDisplay.window(titled: "pip buttons", on: display))
            var controls = ControlsState()
            controls.hasPictureInPicture = true
            controls.duration = 30
            let layout = ControlsLayout(size: CGSize(width: main.width, height: main.height), state: controls)
            let button = try #require(layout.buttons.first { $0.element == .pictureInPicture }?.rect)
            try await Self.click(main.x + Int(button.midX), main.y + Int(button.midY), on: display)
            #expect(await eventually { pip.isPictureInPictureActive }, "the button did not start it")
            let floating = "pip buttons (Picture in Picture)"
            let found = try await Task.detached { try TestDisplay.waitForWindow(titled: floating, on: display) }.value
            let g = try #require(found)
            // 36-pixel buttons 4 pixels in: back at the top left, close at the top right, play/pause in the middle.
            let (backX, closeX, topY) = (g.x + 22, g.x + g.width - 22, g.y + 22)
            let (middleX, middleY) = (g.x + g.width / 2, g.y + g.height / 2)
            try await Self.click(middleX, middleY, on: display)
            #expect(await eventually { player.timeControlStatus == .paused }, "the middle button did not pause")
            // The close button is drawn while the controls show: white pixels in its place.
            try TestDisplay.xdotool(["mousemove", "\(middleX)", "\(middleY + 5)"], on: display)
            try await Task.sleep(for: .milliseconds(300))
            let shot = try TestDisplay.grab(g, on: display)
            let white = (g.width - 36...g.width - 8).contains { x in
                let p = shot.pixel(x, 22)
                return p.r > 200 && p.g > 200 && p.b > 200
            }
            #expect(white, "no close button drawn")
            try await Self.click(middleX, middleY, on: display)
            #expect(await eventually { player.timeControlStatus == .playing }, "the middle button did not play")
            try await Self.click(backX, topY, on: display)
            #expect(await eventually { !pip.isPictureInPictureActive }, "back did not stop: \(recorder.calls)")
            #expect(recorder.calls == ["willStart", "didStart", "willStop", "restore", "didStop"], "\(recorder.calls)")
            #expect(player.timeControlStatus == .playing)
            pip.startPictureInPicture()
            #expect(await eventually { pip.isPictureInPictureActive })
            _ = try await Task.detached { try TestDisplay.waitForWindow(titled: floating, on: display) }.value
            try await Self.click(closeX, topY, on: display)
            #expect(await eventually { !pip.isPictureInPictureActive }, "close did not stop: \(recorder.calls)")
            #expect(recorder.calls.suffix(2) == ["willStop", "didStop"], "\(recorder.calls)")
            #expect(player.timeControlStatus == .paused, "close did not pause")
            try TestDisplay.parkPointer(on: display)
        }
    }

    @Test func aRestoreHandlerNeverCalledIsWaitedForOnlyUntilItsTimeOut() async throws {
        try await Self.scene("pip timeout") { player, _, pip, recorder, _ in
            recorder.answersRestore = false
            let logged = LogLines()
            pip.logHandler = { logged.lines.append($0) }
            pip.restoreTimeout = .milliseconds(500)
            pip.startPictureInPicture()
            #expect(await eventually { pip.isPictureInPictureActive })
            let asked = ContinuousClock.now
            pip.stopPictureInPicture()
            #expect(await eventually { !pip.isPictureInPictureActive }, "\(recorder.calls)")
            let waited = ContinuousClock.now - asked
            #expect(waited >= .milliseconds(450) && waited < .seconds(3), "stopped after \(waited)")
            #expect(recorder.calls.suffix(3) == ["willStop", "restore", "didStop"], "\(recorder.calls)")
            #expect(logged.lines.count == 1 && logged.lines[0].contains("did not finish restoring"), "\(logged.lines)")
            #expect(player.timeControlStatus == .playing)
        }
    }

    @Test func withoutADisplayItIsNotSupportedAndStartingFailsClearly() async throws {
        try await Self.scene("pip nodisplay", playing: false) { _, _, pip, recorder, _ in
            TestDisplay.leave()
            unsetenv("WAYLAND_DISPLAY")
            #expect(!PictureInPictureController.isPictureInPictureSupported())
            #expect(!pip.isPictureInPicturePossible)
            pip.startPictureInPicture()
            #expect(recorder.calls.count == 1 && recorder.calls[0].contains("needs a display"), "\(recorder.calls)")
            #expect(!pip.isPictureInPictureActive)
        }
    }
}

/// Lines a log handler was given. Main actor.
@MainActor final class LogLines {
    var lines: [String] = []
}
