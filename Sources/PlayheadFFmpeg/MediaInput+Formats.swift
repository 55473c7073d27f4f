import CFFmpeg

extension MediaInput {
    /// The demuxer FFmpeg lists for the extension of `name` (`"mulaw"` for `x.ul`), or nil when none does or the
    /// name has no extension. FFmpeg's probe scores a matching extension too, which a path without one (a name in
    /// another encoding than UTF-8, opened as `/proc/self/fd/N`) loses. Any thread.
    static func formatKnownByExtension(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/"), name.index(after: dot) < name.endIndex
        else { return nil }
        var opaque: UnsafeMutableRawPointer? = nil
        while let format = av_demuxer_iterate(&opaque) {
            guard let extensions = format.pointee.extensions, av_match_ext(name, extensions) != 0 else { continue }
            return String(cString: format.pointee.name)
        }
        return nil
    }
}
