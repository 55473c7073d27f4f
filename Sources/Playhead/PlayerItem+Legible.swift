import PlayheadCore

extension PlayerItem {
    /// Adds a subtitle output, like `AVPlayerItem.add(_:)` with an `AVPlayerItemLegibleOutput`: from now on it is
    /// told each time the cues of the item's subtitle track active at the play head change, and at once of those
    /// showing now when the item is playing or paused. The subtitle track is the media's default text track
    /// (SubRip, WebVTT, MP4 timed text, ASS/SSA). Main actor.
    public func add(_ output: any LegibleOutput) {
        guard !legibleOutputs.contains(where: { $0 === output }) else { return }
        legibleOutputs.append(output)
        (player ?? queueOwner)?.itemLegibleOutputsChanged(self, added: output, removed: nil)
    }

    /// Removes a subtitle output; it is told nothing more, at once. Main actor.
    public func remove(_ output: any LegibleOutput) {
        guard legibleOutputs.contains(where: { $0 === output }) else { return }
        legibleOutputs.removeAll { $0 === output }
        (player ?? queueOwner)?.itemLegibleOutputsChanged(self, added: nil, removed: output)
    }
}

extension Player {
    /// A subtitle output added to `item` is told the cues showing now at once and their changes from then on; a
    /// removed one is told nothing more. Main actor.
    func itemLegibleOutputsChanged(_ item: PlayerItem, added: (any LegibleOutput)?, removed: (any LegibleOutput)?) {
        for e in engines(playing: item) {
            if let added { e.text.attach(added, at: e.currentSeconds) }
            if let removed { e.text.detach(removed) }
        }
    }
}
