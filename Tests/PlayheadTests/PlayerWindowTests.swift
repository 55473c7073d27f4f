import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A `PlayerWindow` on the tests' X server: what its screen shows, read back from the server.
@MainActor @Suite(.serialized) struct PlayerWindowTests {
    /// A player showing `url`, silent (the clips have no sound), paused on its first picture.
    static func pausedPlayer(_ url: URL) async -> Player {
        let player = Player()
        player.audioOutputChoice = .disabled
        player.replaceCurrentItem(with: PlayerItem(url: url))
        return player
    }

    /// `TestDisplay.mismatches`, off the main actor (it sleeps between grabs).
    nonisolated static func mismatches(in title: String, _ points: [TestDisplay.ColourCheck]) async throws -> [String] {
        try await Task.detached { try TestDisplay.mismatches(in: title, points) }.value
    }

    static let black = (0, 0, 0)
    static let (red, green, blue, white) = (
        Fixtures.barColours[0], Fixtures.barColours[1], Fixtures.barColours[2], Fixtures.barColours[3]
    )

    /// The 320x240 bars in a 640x240 window and a 240x480 one, for each gravity and encoding: each bar's colour
    /// where the gravity puts it, and black bands exactly where the letterbox goes.
    @Test(arguments: Fixtures.BarEncoding.allCases)
    func colourBarsLandWhereEachGravityPutsThem(_ encoding: Fixtures.BarEncoding) async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = await Self.pausedPlayer(try Fixtures.colourBars(encoding))
        defer { player.close() }
        let (r, g, b, w, k) = (Self.red, Self.green, Self.blue, Self.white, Self.black)
        // Wide: the picture fits the height. Aspect: 320 wide in the middle, black bands of 160 on each side.
        // Fill and resize: twice as wide, each bar 160 pixels.
        let wide: [(VideoGravity, [(x: Int, y: Int, colour: (Int, Int, Int))])] = [
            (
                .resizeAspect,
                [
                    (80, 120, k), (155, 120, k), (200, 120, r), (280, 30, g), (360, 210, b), (440, 120, w),
                    (485, 120, k),
                    (560, 120, k),
                ]
            ),
            (.resizeAspectFill, [(80, 120, r), (240, 5, g), (400, 235, b), (560, 120, w), (5, 120, r), (635, 120, w)]),
            (.resize, [(80, 120, r), (240, 5, g), (400, 235, b), (560, 120, w)]),
        ]
        // Tall: aspect puts a 240x180 picture between black bands of 150; fill shows the middle of a 640x480
        // picture (green, then blue from x 120); resize squeezes the four bars into 60 pixels each, full height.
        let tall: [(VideoGravity, [(x: Int, y: Int, colour: (Int, Int, Int))])] = [
            (
                .resizeAspect,
                [
                    (120, 75, k), (120, 145, k), (30, 240, r), (90, 160, g), (150, 320, b), (210, 240, w),
                    (120, 335, k),
                    (120, 405, k),
                ]
            ),
            (.resizeAspectFill, [(40, 75, g), (40, 405, g), (180, 10, b), (180, 470, b), (100, 240, g)]),
            (.resize, [(30, 10, r), (90, 470, g), (150, 240, b), (210, 75, w)]),
        ]
        for (name, width, height, cases) in [("wide", 640, 240, wide), ("tall", 240, 480, tall)] {
            let title = "bars \(encoding.rawValue) \(name)"
            let window = try await PlayerWindow.open(
                player: player, title: title, width: width, height: height, position: (20, 20))
            window.title = title
            #expect(await eventually { window.playerLayer.isReadyForDisplay }, "no picture in the \(name) window")
            #expect(window.size == CGSize(width: width, height: height), "\(window.size)")
            for (gravity, points) in cases {
                window.playerLayer.videoGravity = gravity
                let wrong = try await Self.mismatches(in: title, points)
                #expect(wrong.isEmpty, "\(encoding) \(name) \(gravity): \(wrong.joined(separator: "; "))")
            }
            window.close()
            #expect(await eventually { (try? TestDisplay.window(titled: title)) == nil }, "the window stayed")
        }
    }

    /// The bars in windows of odd sizes (without a GPU the picture is scaled and converted at an even size one
    /// column or row larger, the rest not drawn): each bar's colour up to the picture's last column and row, and
    /// the letterbox where it goes.
    @Test func colourBarsInWindowsOfOddSizes() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = await Self.pausedPlayer(try Fixtures.colourBars(.bt709Limited))
        defer { player.close() }
        let (r, g, b, w, k) = (Self.red, Self.green, Self.blue, Self.white, Self.black)
        // Resize: 321x241, each bar about 80 pixels wide, red in the first column and the last row, white in the
        // last column. Aspect in 401x241: the picture 321 wide from x 40, black bands of 40 on each side.
        let cases: [(Int, Int, VideoGravity, [TestDisplay.ColourCheck])] = [
            (
                321, 241, .resize,
                [
                    (0, 120, r), (40, 0, r), (120, 120, g), (200, 120, b), (280, 120, w), (320, 120, w), (40, 240, r),
                    (320, 240, w),
                ]
            ),
            (401, 241, .resizeAspect, [(20, 120, k), (80, 240, r), (240, 120, b), (355, 0, w), (380, 120, k)]),
        ]
        for (width, height, gravity, points) in cases {
            let title = "odd bars \(width)x\(height)"
            let window = try await PlayerWindow.open(
                player: player, title: title, width: width, height: height, position: (20, 20))
            window.title = title
            window.playerLayer.videoGravity = gravity
            #expect(await eventually { window.playerLayer.isReadyForDisplay }, "no picture in the \(title) window")
            #expect(window.size == CGSize(width: width, height: height), "\(window.size)")
            let wrong = try await Self.mismatches(in: title, points)
            #expect(wrong.isEmpty, "\(title) \(gravity): \(wrong.joined(separator: "; "))")
            window.close()
            #expect(await eventually { (try? TestDisplay.window(titled: title)) == nil }, "the window stayed")
        }
    }

    /// Pictures a window must still show: one wider than the renderer's largest texture (scaled down to fit it),
    /// one of a single pixel, and a stream whose picture changes size half-way (the new size shown, letterboxed as
    /// it should be).
    @Test func aPictureTooWideForATextureATinyOneAndOneThatChangesSizeAreShown() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let (r, b, k) = (Self.red, Self.blue, Self.black)

        let wide = await Self.pausedPlayer(try Fixtures.widerThanAnyTexture())
        defer { wide.close() }
        let title = "wider than textures"
        let window = try await PlayerWindow.open(player: wide, title: title, width: 820, height: 200)
        defer { window.close() }
        #expect(await eventually { window.playerLayer.isReadyForDisplay }, "the 16400-pixel picture never showed")
        // 10:1 in 820x200: 820x82 between black bands.
        let wrong = try await Self.mismatches(in: title, [(200, 100, r), (620, 100, b), (410, 20, k), (410, 180, k)])
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "; "))")

        // One square pixel, scaled up to the window's height (240x240): red in the middle, black bands beside.
        let tiny = await Self.pausedPlayer(try Fixtures.onePixelVideo())
        defer { tiny.close() }
        let title1 = "one pixel"
        let one = try await PlayerWindow.open(player: tiny, title: title1, width: 320, height: 240)
        defer { one.close() }
        #expect(await eventually { one.playerLayer.isReadyForDisplay }, "the 1x1 picture never showed")
        #expect(try await Self.mismatches(in: title1, [(160, 120, r), (20, 120, k), (300, 120, k)]).isEmpty)

        let changing = Player()
        changing.audioOutputChoice = .disabled
        defer { changing.close() }
        changing.replaceCurrentItem(with: PlayerItem(url: try Fixtures.sizeChangingVideo()))
        let title2 = "size change"
        let second = try await PlayerWindow.open(player: changing, title: title2, width: 640, height: 480)
        defer { second.close() }
        changing.play()
        // 4:3 red fills the 640x480 window; then 16:9 blue, letterboxed (640x360 from y 60).
        #expect(try await Self.mismatches(in: title2, [(320, 30, r), (320, 240, r)]).isEmpty, "no red picture")
        #expect(await eventually { changing.currentTime().seconds >= 2.6 })
        let after = try await Self.mismatches(in: title2, [(320, 240, b), (320, 30, k), (320, 450, k)])
        #expect(after.isEmpty, "after the size change: \(after.joined(separator: "; "))")
    }

    /// A video whose display matrix turns it a quarter: shown upright, in a window of its upright size.
    @Test func aTurnedVideoIsShownUpright() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = await Self.pausedPlayer(try Fixtures.turnedColourBars())
        defer { player.close() }
        #expect(await eventually { player.currentItem?.status == .readyToPlay })
        #expect(player.currentItem?.presentationSize == Size(width: 240, height: 320))
        let title = "turned"
        let window = try await PlayerWindow.open(player: player, title: title)
        defer { window.close() }
        #expect(window.size == CGSize(width: 240, height: 320), "\(window.size)")
        #expect(await eventually { window.playerLayer.isReadyForDisplay })
        // The left edge (red) turned to the bottom, the right one (white) to the top.
        let stripes = Fixtures.barColours.enumerated().map { i, c in (x: 120, y: 280 - i * 80, colour: c) }
        let wrong = try await Self.mismatches(in: title, stripes + [(20, 280, Self.red), (220, 40, Self.white)])
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "; "))")
    }

    /// A window nobody holds closes (its X window goes away) and the player lets go of it.
    @Test func aWindowNobodyHoldsCloses() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = await Self.pausedPlayer(try Fixtures.colourBars())
        defer { player.close() }
        let title = "dropped"
        weak var dropped: PlayerWindow?
        do {
            let window = try await PlayerWindow.open(player: player, title: title, width: 320, height: 240)
            dropped = window
            #expect(await eventually { window.playerLayer.isReadyForDisplay })
        }
        #expect(dropped == nil, "something still holds the window")
        #expect(await eventually { (try? TestDisplay.window(titled: title)) == nil }, "the window is still on screen")
    }
}

extension PlayerWindowTests {
    /// A request the X server refuses (a window destroyed meanwhile: BadWindow) ends the process under Xlib's
    /// default error handler, and SDL's safety net ends in it: a race in the window system killed a whole test run.
    /// Once a window has opened, such an error is ignored and the window goes on. Xlib's handler is process-wide,
    /// so a request of another connection of this process that names no window stands for one.
    @Test func aRefusedXRequestDoesNotEndTheProgram() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = await Self.pausedPlayer(try Fixtures.colourBars())
        defer { player.close() }
        let window = try await PlayerWindow.open(player: player, title: "refused", width: 320, height: 240)
        #expect(await eventually { window.playerLayer.isReadyForDisplay })
        let x11 = try #require(dlopen("libX11.so.6", RTLD_NOW), "libX11 is not loaded")
        typealias Open = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
        typealias Map = @convention(c) (OpaquePointer?, UInt) -> Int32
        typealias Sync = @convention(c) (OpaquePointer?, Int32) -> Int32
        typealias Close = @convention(c) (OpaquePointer?) -> Int32
        let open = unsafeBitCast(try #require(dlsym(x11, "XOpenDisplay")), to: Open.self)
        let map = unsafeBitCast(try #require(dlsym(x11, "XMapWindow")), to: Map.self)
        let sync = unsafeBitCast(try #require(dlsym(x11, "XSync")), to: Sync.self)
        let close = unsafeBitCast(try #require(dlsym(x11, "XCloseDisplay")), to: Close.self)
        let display = try #require(open(try TestDisplay.name()), "cannot open the test display")
        // No window has this id: the server answers BadWindow.
        _ = map(display, 0x7fff_fff0)
        _ = sync(display, 0)
        _ = close(display)
        dlclose(x11)
        // Still here (Xlib's default handler would have ended the process), and the window still on screen.
        #expect(window.playerLayer.isReadyForDisplay)
        #expect((try? TestDisplay.window(titled: "refused")) != nil, "the window is gone")
    }
}
