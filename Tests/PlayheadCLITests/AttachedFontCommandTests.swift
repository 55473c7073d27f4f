import Foundation
import PlayheadTestSupport
import Testing

/// ASS subtitles drawn in the font their Matroska file attaches, as mpv does: with the system's fonts limited to
/// DejaVu Sans (a fontconfig file of the test's own), "DejaVu Serif" text is drawn in the attached serif font, the
/// same shape as with the font installed, and not the fallback's.
@Suite(.serialized) struct AttachedFontCommandTests {
    /// The bright (text) pixels of the window showing `file`, one second in, with `environment` added.
    static func textMask(_ file: URL, environment: [String: String]) throws -> Set<Int> {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--no-mpris", "--no-resume", "--length=3", file.path]
        p.environment = TestDisplay.environment(display: try TestDisplay.name()).merging(environment) { $1 }
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        let g = try #require(try TestDisplay.waitForWindow(titled: "\(file.lastPathComponent) - playhead"))
        var mask = Set<Int>()
        for _ in 0..<30 {
            Thread.sleep(forTimeInterval: 0.1)
            mask = try TestDisplay.grab(g).brightPixels(inRows: 0..<g.height)
            if mask.count > 300 { break }
        }
        return mask
    }

    /// How alike two masks are: shared pixels over all pixels of either.
    static func overlap(_ a: Set<Int>, _ b: Set<Int>) -> Double {
        Double(a.intersection(b).count) / Double(max(1, a.union(b).count))
    }

    @Test func anAttachedFontDrawsTheSubtitles() throws {
        let folder = Paths.scratch("attached-font")
        let fonts = folder.appendingPathComponent("fonts")
        try? FileManager.default.removeItem(at: fonts)
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
            to: fonts.appendingPathComponent("DejaVuSans.ttf"))
        let conf = folder.appendingPathComponent("fonts.conf")
        try """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
        <fontconfig><dir>\(fonts.path)</dir><cachedir>\(folder.appendingPathComponent("cache").path)</cachedir></fontconfig>
        """.write(to: conf, atomically: true, encoding: .utf8)
        let sansOnly = ["FONTCONFIG_FILE": conf.path]

        let attached = try Self.textMask(Fixtures.attachedFontSubtitles(attachingFont: true), environment: sansOnly)
        let fallback = try Self.textMask(Fixtures.attachedFontSubtitles(attachingFont: false), environment: sansOnly)
        let installed = try Self.textMask(Fixtures.attachedFontSubtitles(attachingFont: false), environment: [:])
        #expect(
            attached.count > 300 && fallback.count > 300 && installed.count > 300,
            "\(attached.count), \(fallback.count), \(installed.count) text pixels")
        let likeInstalled = Self.overlap(attached, installed)
        let likeFallback = Self.overlap(attached, fallback)
        #expect(likeInstalled > 0.9, "the attached font's text is \(likeInstalled) like the installed serif's")
        #expect(likeFallback < 0.6, "the attached font's text is \(likeFallback) like the fallback's")
    }
}
