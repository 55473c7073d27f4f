import Foundation

/// `--vo`, `--fs`, `--ontop` and `--geometry`: whether and how pictures are shown. Parsed and validated before
/// anything plays.
struct VideoOptions: Equatable {
    enum Output: Equatable {
        /// A window when a display is named (`DISPLAY`, `WAYLAND_DISPLAY`) and the media has pictures.
        case auto
        /// A window; a failure to open one is said.
        case sdl
        /// No window: pictures are decoded and paced, and shown to no one.
        case null
    }
    var output = Output.auto
    /// Start in fullscreen (`--fs`).
    var fullscreen = false
    /// Keep the window above the others (`--ontop`).
    var onTop = false
    /// Start in Picture in Picture (`--pip`).
    var pictureInPicture = false
    /// The window's size and position (`--geometry=WxH[+X+Y]`).
    var size: (width: Int, height: Int)?
    var position: (x: Int, y: Int)?

    static func == (a: VideoOptions, b: VideoOptions) -> Bool {
        a.output == b.output && a.fullscreen == b.fullscreen && a.onTop == b.onTop
            && a.pictureInPicture == b.pictureInPicture
            && a.size.map { [$0.width, $0.height] } == b.size.map { [$0.width, $0.height] }
            && a.position.map { [$0.x, $0.y] } == b.position.map { [$0.x, $0.y] }
    }

    /// Takes a video option; false for any other.
    mutating func parse(_ name: String, _ value: String?) throws(Options.UsageError) -> Bool {
        switch name {
        case "--vo":
            switch try Options.need(name, value) {
            case "auto": output = .auto
            case "sdl", "gpu", "x11": output = .sdl
            case "null": output = .null
            case let v: throw Options.UsageError(description: "--vo: unknown video output '\(v)' (auto, sdl, null)")
            }
        case "--fs", "--fullscreen": fullscreen = value.map { $0 != "no" } ?? true
        case "--ontop": onTop = value.map { $0 != "no" } ?? true
        case "--pip": pictureInPicture = value.map { $0 != "no" } ?? true
        case "--geometry": try parseGeometry(Options.need(name, value))
        default: return false
        }
        return true
    }

    /// `WxH`, `WxH+X+Y` or `+X+Y`: sizes from 64x36 to 16384x16384, positions within ±65535.
    private mutating func parseGeometry(_ v: String) throws(Options.UsageError) {
        let bad = Options.UsageError(description: "--geometry: expected WxH, WxH+X+Y or +X+Y, got '\(v)'")
        var rest = Substring(v)
        if let x = rest.firstIndex(of: "x") {
            let sizeEnd = rest[x...].firstIndex(where: { $0 == "+" || $0 == "-" }) ?? rest.endIndex
            guard let w = Int(rest[..<x]), let h = Int(rest[rest.index(after: x)..<sizeEnd]) else { throw bad }
            guard (64...16384).contains(w), (36...16384).contains(h) else {
                throw Options.UsageError(description: "--geometry: a window from 64x36 to 16384x16384, got '\(v)'")
            }
            size = (w, h)
            rest = rest[sizeEnd...]
        }
        guard !rest.isEmpty else { return }
        // +X+Y or -X-Y style offsets: two signed numbers.
        var numbers: [Int] = []
        var i = rest.startIndex
        while i < rest.endIndex {
            guard rest[i] == "+" || rest[i] == "-" else { throw bad }
            let start = i
            i = rest.index(after: i)
            while i < rest.endIndex, rest[i].isASCII, rest[i].isNumber { i = rest.index(after: i) }
            guard let n = Int(rest[start..<i]), abs(n) <= 65535 else { throw bad }
            numbers.append(n)
        }
        guard numbers.count == 2 else { throw bad }
        position = (numbers[0], numbers[1])
    }

    static let help = """
          --vo=auto|sdl|null             video output (auto: a window when there is a display; null: show nothing)
          --fs                           start in fullscreen
          --ontop                        keep the window above the others
          --pip                          start in Picture in Picture (key i toggles it)
          --geometry=WxH[+X+Y]           the window's size and position
        """
}
