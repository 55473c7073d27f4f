/// A WebVTT region (`REGION` block, W3C WebVTT §3.5 and §6.4): a rectangle of the viewport that cues can be
/// placed in and scroll through. Defaults are the specification's.
///
/// A value type, safe to use from any thread.
public struct WebVTTRegion: Sendable, Hashable {
    /// `id:` — the identifier cues name in their `region:` setting. Empty when the block has none.
    public var id: String = ""
    /// `width:` — the width of the region as a percentage of the viewport. Default 100.
    public var width: Double = 100
    /// `lines:` — the height of the region in lines. Default 3. The specification sets no upper bound, so the
    /// value is kept as a `Double` (as a browser's number would be); `lineCount` gives it as a clamped `Int`.
    public var lines: Double = 3
    /// `regionanchor:` — the anchor point in the region, x as a percentage of the region width. Default 0.
    public var regionAnchorX: Double = 0
    /// `regionanchor:` — the anchor point in the region, y as a percentage of the region height. Default 100.
    public var regionAnchorY: Double = 100
    /// `viewportanchor:` — where the region anchor sits, x as a percentage of the viewport width. Default 0.
    public var viewportAnchorX: Double = 0
    /// `viewportanchor:` — where the region anchor sits, y as a percentage of the viewport height. Default 100.
    public var viewportAnchorY: Double = 100
    /// `scroll:` — whether cues scroll up inside the region. Default `.none`.
    public var scroll: RegionScroll = .none
    /// The 1-based line of the block's `REGION` line; it tells apart two regions that have the same settings.
    public var sourceLine: Int = 0

    /// Creates a region with the default settings.
    public init() {}

    /// `lines` as an `Int`, clamped to `0...Int.max`.
    public var lineCount: Int {
        lines >= Double(Int.max) ? Int.max : Int(lines)
    }
}

/// The scrolling behaviour of a region. Raw values are the strings of `VTTRegion.scroll`.
///
/// A value type, safe to use from any thread.
public enum RegionScroll: String, Sendable, Hashable, CaseIterable {
    /// Cues do not scroll.
    case none = ""
    /// `scroll:up` — cues move up as new cues arrive.
    case up
}

extension WebVTTRegion {
    /// The WebVTT "collect WebVTT region settings" algorithm (§6.4) over a region block's text.
    mutating func applySettings(_ block: ArraySlice<UInt8>) {
        for setting in block.splitOnWhitespace() {
            guard let (name, value) = setting.splitSetting() else { continue }
            if name.equals("id") {
                id = value.string
            } else if name.equals("width") {
                if let percentage = value.parseWebVTTPercentage() { width = percentage }
            } else if name.equals("lines") {
                guard value.allSatisfy(ASCII.isDigit), let number = Double(value.string) else { continue }
                lines = number
            } else if name.equals("regionanchor") {
                if let (x, y) = Self.parseAnchor(value) { (regionAnchorX, regionAnchorY) = (x, y) }
            } else if name.equals("viewportanchor") {
                if let (x, y) = Self.parseAnchor(value) { (viewportAnchorX, viewportAnchorY) = (x, y) }
            } else if name.equals("scroll") {
                if value.equals("up") { scroll = .up }
            }
        }
    }

    private static func parseAnchor(_ value: ArraySlice<UInt8>) -> (Double, Double)? {
        let (xText, yText) = value.splitAtFirstComma()
        guard let yText, let x = xText.parseWebVTTPercentage(), let y = yText.parseWebVTTPercentage() else {
            return nil
        }
        return (x, y)
    }
}
