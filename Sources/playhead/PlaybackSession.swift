import Foundation
import Playhead
import PlayheadNowPlaying

/// Plays the command line's inputs (playlists expanded) as one gapless queue on a `QueuePlayer`, with the status
/// line, keys, resume positions and the event log. Main actor.
@MainActor
final class PlaybackSession {
    let options: Options
    let player = QueuePlayer()
    let terminal = Terminal()
    var log: EventLog?
    let resume: ResumeStore?
    var quitRequested = false
    /// `--sub-file` pipes, read once into private copies.
    let pipedSubtitles = PipedSubtitleFiles()
    var failures = 0
    /// Entries that failed one after another, none opening between them.
    var failedInARow = 0
    var entries: [PlaylistFile.Entry] = []
    var cursor: PlaylistCursor?
    /// The slot each queued item plays.
    var slots: [ObjectIdentifier: PlaylistCursor.Slot] = [:]
    /// The slot of the item queued last: the playlist goes on after it when the player's queue runs dry.
    var lastQueued: PlaylistCursor.Slot?
    /// Where each queued item resumes (announced when it starts).
    var resumedAt: [ObjectIdentifier: Double] = [:]
    /// The queued items whose `--length` is set once they are ready (`countLengthFromTheStart`), with where they
    /// start when they have a duration (a resumed position, else 0).
    var lengthFromStart: [ObjectIdentifier: Double] = [:]
    /// The item playing and its slot.
    /// (No slot: an item the desktop opened, MPRIS `OpenUri` or `AddTrack`.)
    var current: (item: PlayerItem, slot: PlaylistCursor.Slot?)?
    /// The audio session's part (its mode follows the item playing).
    var audioSession: AudioSessionCLI?
    /// Error-log entries of each item already looked at for HLS failovers (`noticeFailovers`).
    var failoversLookedAt: [ObjectIdentifier: Int] = [:]
    /// The video window, once opened.
    var windowState = WindowState.none {
        didSet { followControls() }
    }
    /// The picture size the window was last sized for (opened at, or fitted to by `fitWindowToPicture`).
    var fittedPicture: Size?
    /// The current item's chapters, once loaded (`loadChapters`).
    var chapters: (item: ObjectIdentifier, groups: [TimedMetadataGroup])?
    /// Picture in Picture for the window (`i`, `--pip`), made with the window.
    var pictureInPicture: PictureInPictureController?
    /// Says Picture in Picture's failures and tells `--log-json` (the controller holds its delegate weakly).
    var pictureInPictureLog: PictureInPictureLog?
    /// The A-B loop of the current item (key l), while one is set.
    var abLoop: ABLoop?
    /// Seconds the subtitles show later than their time stamps say, for every item (`--sub-delay`, keys z and x).
    var subtitleDelay = 0.0
    /// The subtitles shown under the status line while no window shows them.
    let terminalSubtitles = TerminalSubtitles()
    /// Whether the user hid the subtitles (key v): in the window, and under the status line.
    var subtitlesHidden = false
    /// The live edge the status line counts "live -Ns" from.
    var liveEdge = LiveEdgeEstimate()
    /// The MPRIS presence, when a session bus answered.
    var nowPlaying: NowPlayingSession? {
        didSet { followControls() }
    }
    /// Wakes the event loop: an event, or nil to end (quit, end of the queue).
    private var wake: AsyncStream<PlayerEvent?>.Continuation?

    /// The name to show for a path in messages: the absolute path of an input given relative as it was given, a
    /// piped subtitle file's copy by the name given. (A file opened by its bytes, `ByteNamedFiles`, is shown by
    /// its lossy name: `shown`.)
    var shownNames: [String: String]
    /// The name of each input whose path is not what the user typed: standard input (`-`, played as
    /// `/dev/stdin`).
    let inputNames: [String: String]

    init(options: Options) {
        self.options = options
        var inputNames: [String: String] = [:]
        if options.inputs.contains("-") { inputNames["/dev/stdin"] = "-" }
        self.inputNames = inputNames
        self.shownNames = inputNames
        resume = options.playlist.noResume ? nil : ResumeStore()
        subtitleDelay = options.tracks.subtitleDelay
        switch options.audioOutput {
        case _ where options.noAudio: player.audioOutputChoice = .disabled
        case .auto where options.audioDevice != nil, .pulse:
            player.audioOutputChoice = .pulse(device: options.audioDevice)
        case .auto: player.audioOutputChoice = .automatic
        case .null: player.audioOutputChoice = .null(untimed: options.untimed)
        case .wav(let path): player.audioOutputChoice = .wav(path: path)
        }
        if options.untimed, options.audioOutput == .auto { player.audioOutputChoice = .null(untimed: true) }
        player.decodesVideo = !options.noVideo
        player.untimed = options.untimed
        player.replayGain = options.replayGain
        player.volume = Float(options.volume / 100)
        player.isMuted = options.mute
        player.defaultRate = Float(options.speed)
    }

    /// Plays the queue; returns the exit status.
    func run() async -> Int32 {
        // A signal caught since launch (or during the set-up below) quits as soon as the main actor is free.
        QuitSignals.onSignal { [weak self] _ in self?.requestQuit() }
        // `-` is standard input, as in mpv.
        let expansion = PlaylistFile.expand(options.inputs.map { $0 == "-" ? "/dev/stdin" : $0 })
        if let problem = outputProblem(expansion.entries.map(\.location)) {
            printError(shown(problem))
            return 2
        }
        if let path = options.logJSON {
            do {
                log = try EventLog(path: path)
            } catch {
                printError(error.description)
                return 2
            }
        }
        for problem in expansion.problems { printError(shown(problem)) }
        failures = expansion.problems.count
        entries = expansion.entries
        guard !entries.isEmpty else { return 1 }
        var random = SystemRandomNumberGenerator()
        let cursor = PlaylistCursor(
            count: entries.count, start: options.playlist.playlistStart, shuffle: options.playlist.shuffle,
            playlistLoops: options.playlist.loopPlaylist, fileLoops: options.loopFile, generator: &random)
        self.cursor = cursor
        guard let first = cursor.first else {
            let count = entries.count == 1 ? "there is only 1 entry" : "there are only \(entries.count) entries"
            printError("--playlist-start=\(options.playlist.playlistStart): \(count) (counted from 0)")
            return 2
        }
        if let warning = resume?.warning { printError(warning) }
        let timeout = options.hls.networkTimeout ?? 10
        let pipeProblems = await pipedSubtitles.read(options.tracks.subtitleFiles, timeout: timeout)
        defer { pipedSubtitles.remove() }
        if quitRequested { return 0 }
        for problem in pipeProblems { printError(shown(problem)) }
        for (given, copy) in pipedSubtitles.copies { shownNames[copy] = given }
        let nowPlaying = options.mpris ? await startNowPlaying() : nil
        self.nowPlaying = nowPlaying
        defer { nowPlaying?.invalidate() }
        let audioSession = AudioSessionCLI(options: options, log: log, terminal: terminal, player: player)
        audioSession.start()
        self.audioSession = audioSession
        defer { audioSession.finish() }
        terminal.start { [weak self] key in self?.handle(key) }
        defer { terminal.restore() }

        let (stream, continuation) = AsyncStream<PlayerEvent?>.makeStream()
        wake = continuation
        let events = player.events()
        // Its end (`finish()`: the player's streams end after the events in them) ends the loop below.
        let forward = Task { @MainActor in
            for await e in events { continuation.yield(e) }
            continuation.yield(nil)
        }
        defer { forward.cancel() }
        if quitRequested {
            player.close()
            _ = await Player.waitForPlaybackThreads(upTo: 2)
            return failures > 0 ? 1 : 0
        }
        enqueue(first)
        player.play()
        // The status line moves 20 times a second while playing. Paused, it is drawn again after a second while
        // what it shows still changes (a stream filling its buffer, a live edge moving on), and otherwise only when
        // asked to (`Terminal.requestRedraw`: an event, a key, MPRIS's volume, a message, a resize): a paused
        // player sleeps. Without a terminal there is nothing to draw.
        let ticker = Task { @MainActor [weak self] in
            var requests = Terminal.redrawRequests.stream.makeAsyncIterator()
            var shownPaused: String?
            while !Task.isCancelled, Terminal.isInteractive, self?.options.reallyQuiet == false {
                guard let (line, playing) = self.map({ ($0.tick(), $0.player.timeControlStatus != .paused) }) else {
                    return
                }
                if playing {
                    shownPaused = nil
                    try? await Task.sleep(for: .milliseconds(50))
                } else if line != shownPaused {
                    shownPaused = line
                    try? await Task.sleep(for: .seconds(1))
                } else if await requests.next() == nil {
                    return
                }
            }
        }
        defer { ticker.cancel() }
        for await event in stream {
            guard let event else { break }
            handle(event)
        }
        if quitRequested { saveResumePoint() }
        closeWindow()
        audioSession.stopReporting()
        player.close()
        // The engine's threads end on their own; the process's exit handlers must not run under them.
        _ = await Player.waitForPlaybackThreads(upTo: 2)
        return failures > 0 ? 1 : 0
    }

    /// Whether `item` ended at its own end, not at the stop time of `--end`/`--length` (unless that is past the
    /// end, within the resume store's margin). Main actor.
    private func playedToRealEnd(_ item: PlayerItem) -> Bool {
        guard let stop = options.stopTime else { return true }
        guard item.duration.isNumeric else { return false }
        return stop >= item.duration.seconds - ResumeStore.endMargin
    }

    /// Stops playback and ends the session (the `q` key, SIGINT/SIGTERM, MPRIS `Quit`); the position of a long
    /// unfinished item is saved.
    func requestQuit() {
        quitRequested = true
        pipedSubtitles.stop()
        wake?.yield(nil)
    }

    /// Ends the event loop without quitting (the queue ran out), once the events that came before it are handled:
    /// the player's streams end after them (a log missed the last items' ends when the loop ended at once).
    func finish() { player.finishEventStreams() }

    /// Exports the player over MPRIS when a session bus answers; a missing bus is not an error (a notice with -v).
    private func startNowPlaying() async -> NowPlayingSession? {
        let session = NowPlayingSession(players: [player])
        session.automaticallyPublishesNowPlayingInfo = true
        // MPRIS Quit (CanQuit true) quits as `q` does; Next and Previous follow the play order as the keys do.
        session.nowPlayingInfoCenter.quitHandler = { [weak self] in self?.requestQuit() }
        let commands = session.remoteCommandCenter
        commands.nextTrackCommand.removeTarget(nil)
        commands.nextTrackCommand.addTarget { [weak self] _ in
            self?.playNextEntry()
            return .success
        }
        commands.previousTrackCommand.removeTarget(nil)
        commands.previousTrackCommand.addTarget { [weak self] _ in
            self?.playPreviousEntry()
            return .success
        }
        // The volume the desktop sets shows on the status line, paused too (no player event says so).
        session.volumeChangeHandler = { Terminal.requestRedraw() }
        commands.changePlaybackRateCommand.addTarget { _ in
            Terminal.requestRedraw()
            return .success
        }
        if await session.becomeActiveIfPossible() { return session }
        session.invalidate()
        if options.verbose { printError("no D-Bus session bus: Now Playing and media keys are off") }
        return nil
    }

    private func handle(_ event: PlayerEvent) {
        noticeFailovers()
        // An error is the current entry's: followed first, should it come before the item change (the player
        // announces an entry that failed while it was opened ahead, then its error), or the queue ended there.
        if case .error = event.kind { currentItemChanged() }
        // An item change is logged with the entry it changes to (it named the entry just left), and before that
        // entry's error-log entries (one that failed while opened ahead has some already).
        var changed = false
        if case .currentItemChanged = event.kind {
            currentItemChanged()
            changed = true
        }
        if !changed, let c = current { log?.writeErrorLog(of: c.item, input: location(of: c.item, slot: c.slot)) }
        let ended = changed && player.currentItem == nil
        log?.write(event, input: ended ? "" : current.map { location(of: $0.item, slot: $0.slot) } ?? "")
        if changed, let c = current { log?.writeErrorLog(of: c.item, input: location(of: c.item, slot: c.slot)) }
        switch event.kind {
        case .opened:
            failedInARow = 0
            audioSession?.follow(player.currentItem)
            openWindowIfWanted()
            fitWindowToPicture()
        case .ready:
            countLengthFromTheStart()
            loadChapters()
        case .currentItemChanged:
            loadChapters()
            audioSession?.follow(player.currentItem)
            countLengthFromTheStart()
            currentItemChanged()
            openWindowIfWanted()
            retitleWindow()
            fitWindowToPicture()
        case .ended:
            // Stopping at --end or --length is not the item's end: its saved position stays.
            if let c = current, playedToRealEnd(c.item) { resume?.forget(location(of: c.item, slot: c.slot)) }
            if let c = current, let slot = c.slot { checkStartPosition(c.item, slot: slot) }
        case .error(let e):
            let entry = current.map { location(of: $0.item, slot: $0.slot) }
            printError(entry.map { shown(e.description, entry: $0) } ?? shown(e.description))
            failures += 1
            failedInARow += 1
            goOnAfterFailure()
        default: break
        }
        tick()
        Terminal.requestRedraw()
    }
}

/// Prints `playhead: message` on stderr, its control characters shown as `?` (`terminalSafe`); in a terminal that
/// shows the status line, over it (the next tick draws it again under the message). Any thread.
func printError(_ message: String) {
    let clear = Terminal.isInteractive && isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[J" : ""
    try? FileHandle.standardError.write(contentsOf: Data("\(clear)playhead: \(terminalSafe(message))\n".utf8))
    if !clear.isEmpty { Terminal.requestRedraw() }
}
