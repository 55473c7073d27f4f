import Foundation

/// A straight-alpha BGRA picture that the controls are painted into, with the few shapes they need: rectangles,
/// polygons and circles with smooth edges (4 x 4 samples per pixel), and text pictures tinted and blended in. A
/// value type; used on the display thread.
struct Canvas {
    /// A colour with its opacity, each 0...1.
    struct Colour: Equatable {
        var red: Double, green: Double, blue: Double, alpha: Double

        static func white(_ alpha: Double) -> Colour { Colour(red: 1, green: 1, blue: 1, alpha: alpha) }
        static func black(_ alpha: Double) -> Colour { Colour(red: 0, green: 0, blue: 0, alpha: alpha) }
    }

    let width: Int
    let height: Int
    /// The pixels, B G R A, row after row.
    private(set) var pixels: [UInt8]

    /// A transparent canvas of `width` x `height`.
    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
    }

    /// Paints `colour` over the pixel at (x, y) with `coverage` (0...1) of it.
    mutating func blend(_ x: Int, _ y: Int, _ colour: Colour, coverage: Double = 1) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let a = colour.alpha * coverage
        guard a > 0 else { return }
        let i = (y * width + x) * 4
        if pixels[i + 3] == 0 {
            // Over nothing: the colour itself.
            pixels[i] = UInt8((colour.blue * 255).rounded().clamped(0, 255))
            pixels[i + 1] = UInt8((colour.green * 255).rounded().clamped(0, 255))
            pixels[i + 2] = UInt8((colour.red * 255).rounded().clamped(0, 255))
            pixels[i + 3] = UInt8((a * 255).rounded().clamped(0, 255))
            return
        }
        let da = Double(pixels[i + 3]) / 255
        let outA = a + da * (1 - a)
        func mix(_ source: Double, _ index: Int) -> UInt8 {
            let d = Double(pixels[index]) / 255
            return UInt8(((source * a + d * da * (1 - a)) / outA * 255).rounded().clamped(0, 255))
        }
        pixels[i] = mix(colour.blue, i)
        pixels[i + 1] = mix(colour.green, i + 1)
        pixels[i + 2] = mix(colour.red, i + 2)
        pixels[i + 3] = UInt8((outA * 255).rounded().clamped(0, 255))
    }

    /// Fills `rect` (pixel edges rounded to whole pixels).
    mutating func fill(_ rect: CGRect, _ colour: Colour) {
        let x0 = max(0, Int(rect.minX.rounded()))
        let x1 = min(width, Int(rect.maxX.rounded()))
        let y0 = max(0, Int(rect.minY.rounded()))
        let y1 = min(height, Int(rect.maxY.rounded()))
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 { for x in x0..<x1 { blend(x, y, colour) } }
    }

    /// Draws the outline of `rect`, `thickness` wide, inside it.
    mutating func stroke(_ rect: CGRect, thickness: Double, _ colour: Colour) {
        let t = max(1, thickness.rounded())
        fill(CGRect(x: rect.minX, y: rect.minY, width: rect.width, height: t), colour)
        fill(CGRect(x: rect.minX, y: rect.maxY - t, width: rect.width, height: t), colour)
        fill(CGRect(x: rect.minX, y: rect.minY + t, width: t, height: rect.height - 2 * t), colour)
        fill(CGRect(x: rect.maxX - t, y: rect.minY + t, width: t, height: rect.height - 2 * t), colour)
    }

    /// Fills the convex polygon through `points` (in order, either direction).
    mutating func fillPolygon(_ points: [CGPoint], _ colour: Colour) {
        guard points.count >= 3 else { return }
        let inside = { (p: CGPoint) -> Bool in
            var sign = 0.0
            for i in points.indices {
                let a = points[i]
                let b = points[(i + 1) % points.count]
                let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                if cross != 0 {
                    if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
                }
            }
            return true
        }
        fillSampled(bounding: points, colour, inside: inside)
    }

    /// Fills the circle of `radius` about `centre`.
    mutating func fillCircle(centre: CGPoint, radius: Double, _ colour: Colour) {
        let box = [
            CGPoint(x: centre.x - radius, y: centre.y - radius), CGPoint(x: centre.x + radius, y: centre.y + radius),
        ]
        fillSampled(bounding: box, colour) { p in
            (p.x - centre.x) * (p.x - centre.x) + (p.y - centre.y) * (p.y - centre.y) <= radius * radius
        }
    }

    /// Blends a white-on-transparent text picture (`TextImage`) at (x, y), tinted `colour`.
    mutating func draw(_ text: TextImage, x: Int, y: Int, _ colour: Colour) {
        for row in 0..<text.height {
            for column in 0..<text.width {
                let coverage = Double(text.pixels[(row * text.width + column) * 4 + 3]) / 255
                if coverage > 0 { blend(x + column, y + row, colour, coverage: coverage) }
            }
        }
    }

    /// Fills the pixels whose 4 x 4 sample points are `inside` in part, with that part of `colour`.
    private mutating func fillSampled(bounding points: [CGPoint], _ colour: Colour, inside: (CGPoint) -> Bool) {
        let x0 = max(0, Int(points.map(\.x).min()!.rounded(.down)))
        let x1 = min(width, Int(points.map(\.x).max()!.rounded(.up)))
        let y0 = max(0, Int(points.map(\.y).min()!.rounded(.down)))
        let y1 = min(height, Int(points.map(\.y).max()!.rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 {
                var hits = 0
                for sy in 0..<4 {
                    for sx in 0..<4
                    where inside(CGPoint(x: Double(x) + (Double(sx) + 0.5) / 4, y: Double(y) + (Double(sy) + 0.5) / 4))
                    {
                        hits += 1
                    }
                }
                if hits > 0 { blend(x, y, colour, coverage: Double(hits) / 16) }
            }
        }
    }
}

/// A line of text drawn white on transparent (SDL2_ttf), to be tinted and blended into a `Canvas`. A value type.
struct TextImage {
    let width: Int
    let height: Int
    let pixels: [UInt8]
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(high, Swift.max(low, self)) }
}
