import Foundation
import PlayheadFFmpeg
import PlayheadSubtitles

/// Makes the cues of the caption track shown from the pictures the video decode thread decodes: each picture's
/// `cc_data` goes to FFmpeg's CEA-608 decoder (`CaptionDecoder`, created when captions are first shown and dropped
/// when they no longer are: nothing is decoded while they are not shown), and each change of the caption on screen
/// ends the cue showing (at that picture's time) and starts the next one.
///
/// A cue starts at the time of the picture that put it on screen, ahead of the clock as the pictures are, and its
/// end is not known until the screen changes again: until then it lasts `openSeconds`. The text renderer keeps the
/// cues across seeks; a cue made again after a seek back is the one kept (same start and text), given its end
/// again. A seek or the end of the video ends the cue on screen where the pictures read so far end (a seek back
/// before it opens it again).
///
/// Video decode thread only.
final class CaptionCueMaker {
    /// How long a caption lasts while its end is not known yet (CEA-608 captions stay until erased).
    static let openSeconds: Double = 3600

    private var decoder: CaptionDecoder?
    /// The caption track the decoder reads for.
    private var track: Int?
    /// No CEA-608 decoder in this FFmpeg: captions stay off.
    private var unavailable = false
    /// The cue on screen, its end not known yet.
    private var open: SubtitleCue?
    /// Where the pictures read since the last flush end, in item time.
    private var seenUntil: Double?

    /// Reads the captions of a picture shown at `seconds` for `duration`, when `shown` (the item's text track now)
    /// is a caption track; with `end`, captions that start at or after it are not shown. True when a cue was added or
    /// changed (the text thread must look again).
    func take(
        _ frame: Frame, seconds: Double, duration: Double, shown: MediaTrack?, into text: TextRenderer, end: Double?
    ) -> Bool {
        guard let shown, shown.isClosedCaptions, shown.stream.isDecodable, !unavailable else {
            if decoder != nil { forget() }
            return false
        }
        if track != shown.id {
            forget()
            track = shown.id
        }
        if decoder == nil {
            do {
                decoder = try CaptionDecoder()
            } catch {
                unavailable = true
                return false
            }
        }
        seenUntil = seconds + duration
        guard let data = frame.closedCaptionData, let decoder, let event = try? decoder.decode(data, seconds: seconds)
        else { return false }
        var changed = false
        if var ending = open {
            ending.endTime = max(seconds, ending.startTime)
            changed = text.setCaption(ending, of: shown.id)
            open = nil
        }
        if let end, seconds >= end { return changed }
        if let cue = ClosedCaptions.cue(event: event, start: seconds, end: seconds + Self.openSeconds) {
            changed = text.setCaption(cue, of: shown.id) || changed
            open = cue
        }
        return changed
    }

    /// A seek or the end of the video: the cue on screen ends where the pictures read end, and the decoder forgets
    /// the screen. True when a cue changed.
    func flush(into text: TextRenderer) -> Bool {
        var changed = false
        if var ending = open, let track, let seenUntil {
            ending.endTime = max(seenUntil, ending.startTime)
            changed = text.setCaption(ending, of: track)
        }
        open = nil
        seenUntil = nil
        decoder?.flush()
        return changed
    }

    /// Captions are no longer shown (or another caption track is): the decoder goes; the renderer's cues are the
    /// new track's already.
    private func forget() {
        decoder = nil
        track = nil
        open = nil
        seenUntil = nil
    }
}
