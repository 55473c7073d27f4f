import Foundation

/// The human-readable summary of a playlist printed by `playhead probe`: variants (bandwidth, resolution, codecs,
/// frame rate), renditions by group and language, segment count, total duration, live or not, keys and warnings.
/// A stateless namespace: safe from any thread.
public enum ProbeReport {
    /// The report text for `playlist`, ending with a newline.
    public static func text(for playlist: Playlist) -> String {
        var lines: [String] = []
        switch playlist {
        case .media(let media): describe(media, into: &lines)
        case .multivariant(let multivariant): describe(multivariant, into: &lines)
        }
        let warnings = playlist.warnings
        if !warnings.isEmpty {
            lines.append("warnings (\(warnings.count)):")
            lines += warnings.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ playlist: MultivariantPlaylist, into lines: inout [String]) {
        lines.append("HLS multivariant playlist" + (playlist.url.map { ": \($0.absoluteString)" } ?? ""))
        if let version = playlist.version { lines.append("  version: \(version)") }
        lines.append("  variants: \(playlist.variants.count)")
        for (index, variant) in playlist.variants.enumerated() {
            var groups: [String] = []
            if let audio = variant.audio { groups.append("audio \"\(audio)\"") }
            if let video = variant.video { groups.append("video \"\(video)\"") }
            if let subtitles = variant.subtitles { groups.append("subtitles \"\(subtitles)\"") }
            if let captions = variant.closedCaptions { groups.append("captions \"\(captions)\"") }
            let suffix = groups.isEmpty ? "" : ", " + groups.joined(separator: ", ")
            lines.append("    \(index + 1). \(stream(variant.stream))\(suffix)  \(variant.uri)")
        }
        if !playlist.iFrameVariants.isEmpty {
            lines.append("  I-frame variants: \(playlist.iFrameVariants.count)")
            for (index, variant) in playlist.iFrameVariants.enumerated() {
                lines.append("    \(index + 1). \(stream(variant.stream))  \(variant.uri)")
            }
        }
        for type in [MediaType.audio, .video, .subtitles, .closedCaptions] {
            for (group, renditions) in playlist.renditionGroups(of: type) {
                lines.append("  \(type.rawValue.lowercased()) group \"\(group)\":")
                for rendition in renditions {
                    var flags: [String] = []
                    if rendition.isDefault { flags.append("default") }
                    if rendition.autoselect { flags.append("autoselect") }
                    if rendition.forced { flags.append("forced") }
                    if let channels = rendition.channels { flags.append("\(channels) ch") }
                    if let id = rendition.instreamID { flags.append(id) }
                    let language = rendition.language.map { " [\($0)]" } ?? ""
                    let flagText = flags.isEmpty ? "" : " (" + flags.joined(separator: ", ") + ")"
                    let uri = rendition.uri.map { "  \($0)" } ?? ""
                    lines.append("    \(rendition.name)\(language)\(flagText)\(uri)")
                }
            }
        }
        for data in playlist.sessionData {
            lines.append("  session data \(data.dataID): \(data.value ?? data.uri ?? "")")
        }
        for key in playlist.sessionKeys { lines.append("  session key: \(describe(key))") }
        // Pathways in the order they first appear (RFC 8216bis 4.4.6.6: a variant without PATHWAY-ID is in ".").
        var pathways: [String] = []
        for variant in playlist.variants where !pathways.contains(variant.stream.pathwayID ?? ".") {
            pathways.append(variant.stream.pathwayID ?? ".")
        }
        if pathways.count > 1 || playlist.contentSteering != nil {
            let counts = pathways.map { p in
                let n = playlist.variants.filter { ($0.stream.pathwayID ?? ".") == p }.count
                return "\(p) (\(n) variant\(n == 1 ? "" : "s"))"
            }
            lines.append("  pathways: " + counts.joined(separator: ", "))
        }
        if let steering = playlist.contentSteering {
            lines.append("  content steering: \(steering.serverURI)" + (steering.pathwayID.map { " (\($0))" } ?? ""))
        }
    }

    static func stream(_ stream: StreamAttributes) -> String {
        var parts: [String] = []
        if let bandwidth = stream.bandwidth { parts.append(String(format: "%.0f kb/s", Double(bandwidth) / 1000)) }
        if let average = stream.averageBandwidth {
            parts.append(String(format: "avg %.0f kb/s", Double(average) / 1000))
        }
        if let resolution = stream.resolution { parts.append(resolution.description) }
        if let rate = stream.frameRate { parts.append("\(PlaylistWriter.decimal(rate)) fps") }
        if let codecs = stream.codecs { parts.append(codecs) }
        if let range = stream.videoRange { parts.append(range) }
        if let pathway = stream.pathwayID { parts.append("pathway \(pathway)") }
        if let stable = stream.stableVariantID { parts.append("stable ID \(stable)") }
        return parts.isEmpty ? "(no attributes)" : parts.joined(separator: ", ")
    }

    static func describe(_ playlist: MediaPlaylist, into lines: inout [String]) {
        lines.append("HLS media playlist" + (playlist.url.map { ": \($0.absoluteString)" } ?? ""))
        var header: [String] = []
        if let version = playlist.version { header.append("version \(version)") }
        if let target = playlist.targetDuration { header.append("target duration \(target) s") }
        header.append("media sequence \(playlist.mediaSequence)")
        lines.append("  " + header.joined(separator: ", "))
        let kind: String
        if playlist.isLive {
            kind = playlist.playlistType == .event ? "live (EVENT)" : "live"
        } else {
            kind = playlist.playlistType == .vod ? "video on demand (VOD)" : "ended (EXT-X-ENDLIST)"
        }
        lines.append("  type: \(kind)")
        lines.append("  segments: \(playlist.segments.count), total duration \(duration(playlist.totalDuration))")
        let discontinuities = playlist.segments.filter(\.discontinuity).count
        if discontinuities > 0 { lines.append("  discontinuities: \(discontinuities)") }
        var keyCounts: [(String, Int)] = []
        for segment in playlist.segments {
            let text = segment.keys.isEmpty ? "none" : segment.keys.map(describe).joined(separator: " + ")
            if let index = keyCounts.firstIndex(where: { $0.0 == text }) {
                keyCounts[index].1 += 1
            } else {
                keyCounts.append((text, 1))
            }
        }
        if keyCounts.contains(where: { $0.0 != "none" }) {
            lines.append("  keys:")
            lines += keyCounts.map { "    \($0.0): \($0.1) segment\($0.1 == 1 ? "" : "s")" }
        } else {
            lines.append("  keys: none (not encrypted)")
        }
        let maps = Set(playlist.segments.compactMap(\.map?.uri))
        if !maps.isEmpty { lines.append("  initialization sections: " + maps.sorted().joined(separator: ", ")) }
        if let first = playlist.segments.first?.programDateTime, let last = playlist.segments.last?.programDateTime {
            lines.append("  program date-time: \(ISO8601.format(first)) ... \(ISO8601.format(last))")
        }
        if let control = playlist.serverControl {
            var features: [String] = []
            if control.canBlockReload { features.append("blocking reload") }
            if let until = control.canSkipUntil { features.append("delta updates (skip until \(until) s)") }
            if let target = playlist.partInformation?.partTarget { features.append("parts of \(target) s") }
            lines.append("  low latency: " + (features.isEmpty ? "server control" : features.joined(separator: ", ")))
        }
        if let skip = playlist.skip { lines.append("  delta update: \(skip.skippedSegments) segments skipped") }
        if !playlist.dateRanges.isEmpty { lines.append("  date ranges: \(playlist.dateRanges.count)") }
    }

    static func describe(_ key: SegmentKey) -> String {
        var text = key.method.rawValue
        if let uri = key.uri { text += " \(uri)" }
        if let format = key.keyFormat { text += " (\(format))" }
        return text
    }

    /// `h:mm:ss.mmm (N s)`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds) s" }
        let millis = Int((seconds * 1000).rounded())
        let clock = String(
            format: "%d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
        return "\(clock) (\(PlaylistWriter.decimal((seconds * 1000).rounded() / 1000)) s)"
    }
}
