import Foundation
import PlayheadCore
import PlayheadVideo

extension PlayerControls {
    /// What the controls show now.
    func state() -> ControlsState {
        var s = ControlsState()
        guard let host else { return s }
        s.isFullscreen = host.isFullscreen
        s.hasPictureInPicture = host.pictureInPictureButtonHandler != nil
        s.isFloating = host.isFloating
        guard let player = host.player else { return s }
        s.isPlaying = player.rate != 0
        s.speedLabel = speed(for: player.defaultRate).localizedNumericName
        s.canSeek = !seekingIsRefused
        guard let item = player.currentItem else { return s }
        let length = item.duration.seconds
        s.duration = length.isFinite && length > 0 ? length : nil
        s.position = scrub.flatMap { f in s.duration.map { f * $0 } } ?? max(0, player.currentTime().seconds)
        s.loaded = item.loadedTimeRanges.compactMap { r in
            let (from, to) = (r.start.seconds, r.start.seconds + r.duration.seconds)
            return from.isFinite && to.isFinite && from <= to ? from...to : nil
        }
        if s.duration == nil { s.canSeek = false }
        let selection = item.currentMediaSelection
        if let groups, groups.item == ObjectIdentifier(item) {
            s.hasAudioChoice = (groups.audio?.options.count ?? 0) > 1
            s.hasSubtitleChoice = !(groups.legible?.options.isEmpty ?? true)
            s.subtitlesOn = groups.legible.flatMap { selection.selectedMediaOption(in: $0) } != nil
        }
        s.menu = openMenu.flatMap { menu($0, selection: selection) }
        return s
    }

    /// Whether the seek bar and the seek keys are refused now: the window requires linear playback, the player is
    /// in an ad that does, or its item cannot seek (a pipe, a server that does not serve byte ranges).
    var seekingIsRefused: Bool {
        guard let host else { return true }
        if let item = host.player?.currentItem, item.status == .readyToPlay, item.seekableTimeRanges.isEmpty {
            return true
        }
        return host.requiresLinearPlayback || (host.player?.requiresLinearPlayback ?? false)
    }

    /// A mouse button went down at `point`: true when it landed on the controls (which act on it).
    func press(at point: CGPoint) -> Bool {
        guard isEnabled else { return false }
        guard isShown else {
            poke()
            return false
        }
        let hit = layout.element(at: point)
        defer {
            push()
            restartHideTimerIfShown()
        }
        guard let hit else {
            // A click on the video closes an open menu, and does nothing else.
            if openMenu != nil {
                openMenu = nil
                return true
            }
            return false
        }
        let player = host?.player
        switch hit {
        case .playPause: player.map { $0.rate == 0 ? $0.play() : $0.pause() }
        case .seekBar:
            openMenu = nil
            if !seekingIsRefused { scrub = layout.seekFraction(atX: point.x) }
        case .speed: toggle(.speed)
        case .audio: toggle(.audio)
        case .subtitles: toggle(.subtitles)
        case .pictureInPicture: host?.pictureInPictureButtonHandler?()
        case .fullscreen: host?.isFullscreen.toggle()
        case .close: host?.requestClose()
        case .menuItem(let index): choose(index)
        case .panel: break
        }
        return true
    }

    /// The mouse moved to `point`: a held seek bar follows it; else the controls show.
    func moved(to point: CGPoint) {
        if scrub != nil {
            scrub = layout.seekFraction(atX: point.x)
            push()
            return
        }
        // SDL reports where the pointer is when the window opens (inside it or not): a first report in the first
        // second is where the pointer rests, not a move; only a move over the window shows the controls.
        let size = host.map { $0.size } ?? .zero
        guard point.x >= 0, point.y >= 0, point.x < size.width, point.y < size.height, point != lastPointer else {
            return
        }
        defer { lastPointer = point }
        if lastPointer == nil, ContinuousClock.now - createdAt < .seconds(1) { return }
        poke()
    }

    /// The mouse button went up: a held seek bar seeks where it was let go.
    func release(at point: CGPoint) {
        guard let fraction = scrub else { return }
        scrub = nil
        if let player = host?.player, let item = player.currentItem, !seekingIsRefused {
            let length = item.duration.seconds
            if length.isFinite, length > 0 {
                player.seek(
                    to: MediaTime(seconds: fraction * length, preferredTimescale: 1000), toleranceBefore: .zero,
                    toleranceAfter: .zero)
            }
        }
        push()
        restartHideTimerIfShown()
    }

    /// The mouse left the window: the controls hide at once while playing with no menu open.
    func mouseLeft() {
        guard isShown, openMenu == nil, scrub == nil, let player = host?.player, player.rate != 0 else { return }
        hide()
    }

    /// Closes the open menu; false when none was open.
    func closeMenu() -> Bool {
        guard openMenu != nil else { return false }
        openMenu = nil
        push()
        return true
    }

    private func restartHideTimerIfShown() { if isShown { poke() } }

    private func toggle(_ kind: ControlsMenu.Kind) { openMenu = openMenu == kind ? nil : kind }

    /// The speed the menu shows for `rate`: one of the window's speeds, else one named by its number.
    func speed(for rate: Float) -> PlaybackSpeed {
        (host?.speeds ?? []).first { abs($0.rate - rate) < 0.001 }
            ?? PlaybackSpeed(rate: rate, localizedName: "")
            ?? PlaybackSpeed.systemDefaultSpeeds[1]
    }

    private func menu(_ kind: ControlsMenu.Kind, selection: MediaSelection) -> ControlsMenu? {
        switch kind {
        case .speed:
            let rate = host?.player?.defaultRate ?? 1
            let speeds = host?.speeds ?? []
            return ControlsMenu(
                kind: .speed, items: speeds.map(\.localizedName),
                selected: speeds.firstIndex { abs($0.rate - rate) < 0.001 })
        case .audio:
            guard let group = groups?.audio else { return nil }
            let chosen = selection.selectedMediaOption(in: group)
            return ControlsMenu(
                kind: .audio, items: group.options.map(\.displayName),
                selected: group.options.firstIndex { $0 == chosen })
        case .subtitles:
            guard let group = groups?.legible else { return nil }
            let chosen = selection.selectedMediaOption(in: group)
            return ControlsMenu(
                kind: .subtitles, items: ["Off"] + group.options.map(\.displayName),
                selected: chosen.flatMap { c in group.options.firstIndex(of: c).map { $0 + 1 } } ?? 0)
        }
    }

    /// Acts on entry `index` of the open menu and closes it.
    private func choose(_ index: Int) {
        guard let kind = openMenu, let host, let player = host.player else { return }
        openMenu = nil
        switch kind {
        case .speed:
            guard host.speeds.indices.contains(index) else { return }
            let rate = host.speeds[index].rate
            player.defaultRate = rate
            if player.rate != 0 { player.rate = rate }
        case .audio:
            guard let group = groups?.audio, group.options.indices.contains(index) else { return }
            player.currentItem?.select(group.options[index], in: group)
        case .subtitles:
            guard let group = groups?.legible else { return }
            let option = index == 0 ? nil : group.options.indices.contains(index - 1) ? group.options[index - 1] : nil
            if index > 0, option == nil { return }
            player.currentItem?.select(option, in: group)
        }
    }
}
