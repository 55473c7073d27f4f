// playhead-layout-example: one player kept above every layout, as the guidance for resizable windows asks.
//
//     playhead-layout-example [--breakpoint=PIXELS] FILE...
//
// The app owns one `QueuePlayer` of the files, made before any layout and kept across all of them. Its window
// switches layouts at a width breakpoint (800 pixels by default): below it the compact layout (the video full
// width at the top, the queue below it), from it the expanded one (the video at the left, the queue and the
// item's details at the right). Switching moves the window's `PlayerLayer` (its `frame`) and redraws the queue
// (`contentOverlay`); it never pauses, seeks, reloads or starts the player. Space plays and pauses; closing the
// window quits. Each layout change prints one JSON line on standard output (the layout, the player's position and
// rate, and the process's media opens and decoder creations), which the tests read.
import Foundation
import Playhead

/// The two layouts and where each puts the video and the queue, in the window's drawable pixels. Main actor.
enum Layout: String {
    case compact, expanded

    static func choose(width: Double, breakpoint: Double) -> Layout { width >= breakpoint ? .expanded : .compact }

    /// The video's rectangle and the side panel's (the queue, and the details in the expanded layout).
    func areas(in size: CGSize) -> (video: CGRect, panel: CGRect) {
        switch self {
        case .compact:
            let height = min(size.height * 0.7, size.width * 9 / 16)
            return (
                CGRect(x: 0, y: 0, width: size.width, height: height),
                CGRect(x: 0, y: height, width: size.width, height: size.height - height)
            )
        case .expanded:
            let width = (size.width * 0.6).rounded()
            return (
                CGRect(x: 0, y: 0, width: width, height: size.height),
                CGRect(x: width, y: 0, width: size.width - width, height: size.height)
            )
        }
    }
}

/// The app: the player above everything, the window, the layout in effect. Main actor.
@MainActor final class LayoutApp {
    let player: QueuePlayer
    let window: PlayerWindow
    let breakpoint: Double
    var layout: Layout?

    init(player: QueuePlayer, window: PlayerWindow, breakpoint: Double) {
        self.player = player
        self.window = window
        self.breakpoint = breakpoint
    }

    /// Lays the window out for `size`, switching layouts at the breakpoint.
    func layOut(_ size: CGSize) {
        let chosen = Layout.choose(width: size.width, breakpoint: breakpoint)
        let areas = chosen.areas(in: size)
        window.playerLayer.frame = areas.video
        window.contentOverlay = panel(areas.panel, layout: chosen)
        guard chosen != layout else { return }
        layout = chosen
        report(chosen)
    }

    /// The queue as rows (the current item lit), and in the expanded layout a details block under it.
    func panel(_ area: CGRect, layout: Layout) -> OverlayImage? {
        let (w, h) = (Int(area.width), Int(area.height))
        guard w > 0, h > 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        func fill(_ r: CGRect, _ bgra: (UInt8, UInt8, UInt8, UInt8)) {
            let x0 = max(0, Int(r.minX)), x1 = min(w, Int(r.maxX))
            let y0 = max(0, Int(r.minY)), y1 = min(h, Int(r.maxY))
            guard x0 < x1, y0 < y1 else { return }
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = (y * w + x) * 4
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = bgra
                }
            }
        }
        fill(CGRect(x: 0, y: 0, width: w, height: h), (32, 24, 24, 255))
        let items = player.items()
        let rows = layout == .expanded ? h / 2 : h
        let rowHeight = max(8, min(36, rows / max(1, items.count)))
        for index in items.indices {
            let lit = index == 0
            let colour: (UInt8, UInt8, UInt8, UInt8) = lit ? (220, 150, 60, 255) : (90, 80, 80, 255)
            fill(CGRect(x: 8, y: 8 + index * rowHeight, width: w - 16, height: rowHeight - 6), colour)
        }
        if layout == .expanded {
            fill(CGRect(x: 8, y: rows + 8, width: w - 16, height: h - rows - 16), (60, 60, 60, 255))
        }
        return OverlayImage(width: w, height: h, pixels: pixels, x: Int(area.minX), y: Int(area.minY))
    }

    /// One JSON line: the layout now and what the player did (nothing, if all is well).
    func report(_ layout: Layout) {
        let line: [String: Any] = [
            "layout": layout.rawValue, "position": player.currentTime().seconds, "rate": Double(player.rate),
            "opens": PlaybackCounters.mediaOpens, "decoders": PlaybackCounters.decoderCreations,
        ]
        if let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) {
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }
}

@MainActor func run() async -> Int32 {
    var breakpoint = 800.0
    var files: [String] = []
    for argument in CommandLine.arguments.dropFirst() {
        if argument.hasPrefix("--breakpoint=") {
            guard let value = Double(argument.dropFirst("--breakpoint=".count)), (100...16384).contains(value) else {
                FileHandle.standardError.write(Data("--breakpoint: a width from 100 to 16384 pixels\n".utf8))
                return 2
            }
            breakpoint = value
        } else {
            files.append(argument)
        }
    }
    guard !files.isEmpty else {
        FileHandle.standardError.write(Data("usage: playhead-layout-example [--breakpoint=PIXELS] FILE...\n".utf8))
        return 2
    }
    // The player first, above any layout.
    let player = QueuePlayer(items: files.map { PlayerItem(url: URL(fileURLWithPath: $0)) })
    let window: PlayerWindow
    do {
        window = try await PlayerWindow.open(player: player, title: "Playhead layout example", width: 640, height: 400)
    } catch {
        FileHandle.standardError.write(Data("playhead-layout-example: \(error)\n".utf8))
        return 1
    }
    let app = LayoutApp(player: player, window: window, breakpoint: breakpoint)
    let (closed, closing) = AsyncStream<Void>.makeStream()
    window.closeHandler = { closing.yield() }
    window.sizeChanged = { app.layOut($0) }
    app.layOut(window.size)
    player.play()
    for await _ in closed { break }
    window.close()
    player.close()
    return 0
}

exit(await run())
