import Foundation
import Testing

@testable import PlayheadHLS

func multivariant(_ text: String, strict: Bool = false, url: URL = baseURL) throws -> MultivariantPlaylist {
    try PlaylistParser(options: PlaylistParserOptions(strict: strict)).parseMultivariantPlaylist(text, url: url)
}

@Suite("Multivariant playlist tags")
struct MultivariantPlaylistTests {
    static let full = """
        #EXTM3U
        #EXT-X-VERSION:12
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-START:TIME-OFFSET=5
        #EXT-X-CONTENT-STEERING:SERVER-URI="/steering?video=1",PATHWAY-ID="CDN-A"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Film",LANGUAGE="en"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.meta",URI="meta.json",FORMAT=JSON
        #EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key",KEYFORMAT="com.apple.streamingkeydelivery"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",ASSOC-LANGUAGE="en-US",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en.m3u8",CHANNELS="2",BIT-DEPTH=16,SAMPLE-RATE=48000,STABLE-RENDITION-ID="a-en"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="fr",NAME="Français",AUTOSELECT=YES,URI="audio/fr.m3u8",CHANNELS="16/JOC"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="en",NAME="English CC",FORCED=NO,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog",URI="subs/en.m3u8"
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1",LANGUAGE="en"
        #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="angles",NAME="Angle 2",URI="angle2.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=5000000,AVERAGE-BANDWIDTH=4000000,SCORE=2.5,CODECS="avc1.640028,mp4a.40.2",SUPPLEMENTAL-CODECS="dvh1.08.07/db4h",RESOLUTION=1920x1080,FRAME-RATE=29.970,HDCP-LEVEL=TYPE-0,ALLOWED-CPC="com.example:SMART-TV/PC",VIDEO-RANGE=PQ,REQ-VIDEO-LAYOUT="CH-STEREO,CH-MONO",STABLE-VARIANT-ID="v1080",AUDIO="aac",VIDEO="angles",SUBTITLES="subs",CLOSED-CAPTIONS="cc",PATHWAY-ID="CDN-A",PROGRAM-ID=1
        video/1080.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CLOSED-CAPTIONS=NONE
        video/360.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=200000,CODECS="avc1.640028",RESOLUTION=1920x1080,VIDEO-RANGE=SDR,URI="video/1080-iframes.m3u8"
        """

    @Test("every multivariant tag and attribute")
    func everyAttribute() throws {
        let playlist = try multivariant(Self.full, strict: true)
        #expect(playlist.version == 12)
        #expect(playlist.independentSegments)
        #expect(playlist.start?.timeOffset == 5)
        #expect(playlist.contentSteering?.serverURL?.absoluteString == "https://cdn.example.com/steering?video=1")
        #expect(playlist.contentSteering?.pathwayID == "CDN-A")
        #expect(
            playlist.sessionData[0]
                == SessionData(dataID: "com.example.title", value: "Film", baseURL: baseURL, language: "en"))
        #expect(playlist.sessionData[1].format == "JSON")
        #expect(playlist.sessionData[1].url?.absoluteString == "https://cdn.example.com/live/2M/meta.json")
        #expect(playlist.sessionKeys.first?.method == .sampleAES)

        let v = playlist.variants[0]
        #expect(v.bandwidth == 5_000_000)
        #expect(v.averageBandwidth == 4_000_000)
        #expect(v.score == 2.5)
        #expect(v.codecList == ["avc1.640028", "mp4a.40.2"])
        #expect(v.supplementalCodecs == "dvh1.08.07/db4h")
        #expect(v.resolution == Resolution(width: 1920, height: 1080))
        #expect(v.frameRate == 29.97)
        #expect(v.hdcpLevel == "TYPE-0")
        #expect(v.allowedCPC == "com.example:SMART-TV/PC")
        #expect(v.videoRange == "PQ")
        #expect(v.requiredVideoLayout == "CH-STEREO,CH-MONO")
        #expect(v.stableVariantID == "v1080")
        #expect(v.audio == "aac")
        #expect(v.video == "angles")
        #expect(v.subtitles == "subs")
        #expect(v.closedCaptions == "cc")
        #expect(v.pathwayID == "CDN-A")
        #expect(v.unknownAttributes.decimalInteger("PROGRAM-ID") == 1)
        #expect(v.url?.absoluteString == "https://cdn.example.com/live/2M/video/1080.m3u8")
        #expect(playlist.variants[1].closedCaptionsNone)
        #expect(playlist.variants[1].closedCaptions == nil)

        let iframe = try #require(playlist.iFrameVariants.first)
        #expect(iframe.uri == "video/1080-iframes.m3u8")
        #expect(iframe.bandwidth == 200_000)
        #expect(iframe.unknownAttributes.isEmpty)

        let audio = playlist.renditionGroups(of: .audio)
        #expect(audio.map(\.groupID) == ["aac"])
        let english = audio[0].renditions[0]
        #expect(english.name == "English")
        #expect(english.language == "en")
        #expect(english.associatedLanguage == "en-US")
        #expect(english.isDefault && english.autoselect && !english.forced)
        #expect(english.channels == "2")
        #expect(english.bitDepth == 16)
        #expect(english.sampleRate == 48000)
        #expect(english.stableRenditionID == "a-en")
        #expect(audio[0].renditions[1].name == "Français")
        let subtitles = playlist.renditionGroups(of: .subtitles)[0].renditions[0]
        #expect(subtitles.characteristics == "public.accessibility.transcribes-spoken-dialog")
        #expect(!subtitles.forced)
        let captions = playlist.renditionGroups(of: .closedCaptions)[0].renditions[0]
        #expect(captions.instreamID == "CC1")
        #expect(captions.uri == nil)
        #expect(
            playlist.renditionGroups(of: .video)[0].renditions[0].url?.absoluteString
                == "https://cdn.example.com/live/2M/angle2.m3u8")
        #expect(playlist.warnings.isEmpty)
    }

    @Test("a STREAM-INF without BANDWIDTH or URI, media tags in a multivariant playlist")
    func lenientProblems() throws {
        let playlist = try multivariant(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-STREAM-INF:RESOLUTION=1x1
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1
            """)
        #expect(playlist.variants.count == 1)
        #expect(playlist.variants[0].bandwidth == nil)
        #expect(Set(playlist.warnings.map(\.kind)) == [.missingAttribute, .mixedPlaylist])
    }
}
