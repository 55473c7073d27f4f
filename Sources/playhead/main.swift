import Foundation
import Playhead
import PlayheadFFmpeg

/// The `playhead` command: `playhead [options] FILE|URL...` or `playhead probe ...`.
@MainActor
func runCommand(_ arguments: [String]) async -> Int32 {
    if arguments.first == "probe" { return ProbeCommand.run(Array(arguments.dropFirst())) }
    let options: Options
    do {
        options = try Options.parse(arguments)
    } catch {
        printError(error.description)
        return 2
    }
    if options.showHelp {
        print(Options.help)
        return 0
    }
    if options.showVersion {
        print("playhead 0.1.0 (FFmpeg libavformat \(FFmpegLibrary.versionString))")
        return 0
    }
    if options.listAudioDevices { return AudioSessionCLI.listDevices() }
    FFmpegLibrary.setVerbose(options.verbose)
    signal(SIGPIPE, SIG_IGN)
    return await PlaybackSession(options: options).run()
}

_ = MonotonicClock.processStart
let status = await runCommand(Array(CommandLine.arguments.dropFirst()))
exit(status)
