// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Playhead",
    products: [
        .library(name: "Playhead", targets: ["Playhead"]),
        .library(name: "PlayheadHLS", targets: ["PlayheadHLS"]),
        .library(name: "PlayheadSubtitles", targets: ["PlayheadSubtitles"]),
        .library(name: "PlayheadNowPlaying", targets: ["PlayheadNowPlaying"]),
        .executable(name: "playhead", targets: ["playhead"]),
        .executable(name: "playhead-abr-sim", targets: ["playhead-abr-sim"]),
    ],
    targets: [
        // C libraries from Debian's packages.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswresample libswscale",
            providers: [
                .apt([
                    "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev",
                    "libswscale-dev", "libavfilter-dev",
                ])
            ]
        ),
        // libavfilter, loaded with dlopen on first use (it costs every launch 25 ms when linked).
        .target(name: "CFFmpegFilter", dependencies: ["CFFmpeg"]),
        // What FFmpeg's probe learnt and keeps private (closed captions in a video stream), read from its dump.
        .target(name: "CFFmpegProbe", dependencies: ["CFFmpeg"]),
        // SDL2, loaded with dlopen when the first window opens (linked, it costs every launch about 7 ms).
        .target(name: "CSDL2"),
        // libass, loaded with dlopen when the first subtitle is drawn.
        .target(name: "CAss"),
        // libpulse (libpulse-dev) without pkg-config: its flags (-D_REENTRANT, -pthread) only made SwiftPM warn; the
        // module map links it.
        .systemLibrary(name: "CPulse"),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // libcurl (libcurl4-openssl-dev), the HLS client's HTTP: without pkg-config, as libpulse.
        .systemLibrary(name: "CCurl"),

        // Pure Swift.
        .target(name: "PlayheadCore"),
        // The HLS parsers and adaptive policy (pure Swift) and the segment loader (over libcurl).
        .target(name: "PlayheadHLS", dependencies: ["CCurl", "PlayheadCore"]),
        .target(name: "PlayheadSubtitles"),
        // The ABR trace simulator: the player's own policy against published baselines and the offline optimum.
        .target(name: "PlayheadABRSim", dependencies: ["PlayheadHLS"]),
        .executableTarget(name: "playhead-abr-sim", dependencies: ["PlayheadABRSim"]),

        // Wrappers over C.
        .target(name: "PlayheadFFmpeg", dependencies: ["CFFmpeg", "CFFmpegFilter", "CFFmpegProbe", "PlayheadCore"]),
        .target(name: "PlayheadAudio", dependencies: ["CPulse", "PlayheadCore"]),
        .target(
            name: "PlayheadVideo",
            dependencies: ["CAss", "CFFmpeg", "CSDL2", "PlayheadCore", "PlayheadFFmpeg", "PlayheadSubtitles"]),

        // The public player.
        .target(
            name: "Playhead",
            dependencies: [
                "PlayheadCore", "PlayheadFFmpeg", "PlayheadAudio", "PlayheadVideo", "PlayheadHLS", "PlayheadSubtitles",
            ]
        ),
        .executableTarget(name: "playhead", dependencies: ["Playhead", "PlayheadHLS", "PlayheadNowPlaying"]),
        // The one-player-above-every-layout example (issue 17), run by LayoutExampleTests.
        .executableTarget(name: "playhead-layout-example", dependencies: ["Playhead"], path: "Examples/LayoutExample"),

        // Now Playing and remote commands over MPRIS.
        .target(name: "PlayheadNowPlaying", dependencies: ["CSystemd", "Playhead", "PlayheadAudio"]),

        .target(name: "PlayheadTestSupport", dependencies: ["PlayheadCore"]),

        // Rule 9's programs, run by PlayerItemNotificationProgramTests: an item looped from its end notification
        // under dispatchMain() or RunLoop.main.run() (LoopProbe), and in an async main (LoopProbeAsync).
        .target(name: "LoopProbeKit", dependencies: ["Playhead"], path: "Tests/Programs/LoopProbeKit"),
        .executableTarget(name: "LoopProbe", dependencies: ["LoopProbeKit"], path: "Tests/Programs/LoopProbe"),
        .executableTarget(
            name: "LoopProbeAsync", dependencies: ["LoopProbeKit"], path: "Tests/Programs/LoopProbeAsync"),

        .testTarget(name: "PlayheadCoreTests", dependencies: ["PlayheadCore"]),
        .testTarget(name: "PlayheadHLSTests", dependencies: ["PlayheadHLS", "PlayheadTestSupport"]),
        .testTarget(name: "PlayheadABRSimTests", dependencies: ["PlayheadABRSim", "PlayheadTestSupport"]),
        .testTarget(name: "PlayheadSubtitlesTests", dependencies: ["PlayheadSubtitles"]),
        .testTarget(name: "PlayheadAudioTests", dependencies: ["PlayheadAudio", "PlayheadTestSupport"]),
        .testTarget(name: "PlayheadFFmpegTests", dependencies: ["PlayheadFFmpeg", "PlayheadTestSupport"]),
        .testTarget(name: "PlayheadTests", dependencies: ["Playhead", "PlayheadTestSupport"]),
        .testTarget(name: "PlayheadCLITests", dependencies: ["PlayheadTestSupport"]),
        .testTarget(name: "PlayheadNowPlayingTests", dependencies: ["PlayheadNowPlaying", "PlayheadTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
