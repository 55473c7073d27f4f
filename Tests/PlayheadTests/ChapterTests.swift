import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A file's chapters through the asset (`loadChapterMetadataGroups`).
@Suite struct ChapterTests {
    @Test func anAssetListsItsChaptersWithTheirTitles() async throws {
        let groups = try await URLAsset(url: try Fixtures.chaptered()).loadChapterMetadataGroups()
        #expect(groups.map(\.title) == ["Opening", "Middle", "Closing"], "\(groups)")
        #expect(groups.map { $0.timeRange.start.seconds } == [0, 10, 20], "\(groups)")
        #expect(groups.map { $0.timeRange.end.seconds } == [10, 20, 30], "\(groups)")
    }

    @Test func aFileWithoutChaptersHasNone() async throws {
        let groups = try await URLAsset(url: try Fixtures.tone(seconds: 1)).loadChapterMetadataGroups()
        #expect(groups.isEmpty)
    }
}
