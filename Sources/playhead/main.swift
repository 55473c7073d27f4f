import Foundation
import Playhead
import PlayheadFFmpeg

/// The `playhead` command: `playhead [options] FILE|URL...` or `playhead probe ...`.
@MainActor
func runCommand(_ arguments: [String]) async -> Int32 {
    if arguments.first == "probe" {
        QuitSignals.exitOnSignal()
        return await ProbeCommand.run(Array(arguments.dropFirst()))
    }
    var options: Options
    do {
        options = try Options.parse(arguments)
    } catch {
        printError(error.description)
        return 2
    }
    if let folder = CommandLineBytes.workingFolderByBytes { options.rebase(on: folder) }
    if options.showHelp {
        print(Options.help)
        return 0
    }
    if options.showVersion {
        print("playhead 0.1.0 (FFmpeg libavformat \(FFmpegLibrary.versionString))")
        return 0
    }
    if options.listAudioDevices {
        QuitSignals.exitOnSignal()
        return AudioSessionCLI.listDevices()
    }
    FFmpegLibrary.setVerbose(options.verbose)
    signal(SIGPIPE, SIG_IGN)
    return await PlaybackSession(options: options).run()
}

// First: a SIGINT or SIGTERM from now on quits cleanly, however early it comes.
QuitSignals.install()
// A standard stream the caller closed (`2>&-`) becomes /dev/null: the first file opened would take its number, and
// what is meant for it would go into a WAV export or a log.
for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 { _ = open("/dev/null", O_RDWR) }
_ = MonotonicClock.processStart
let status = await runCommand(CommandLineBytes.arguments())
// After the X server went away, the GL library's exit-time destructor waits for ever on the dead connection's
// lock: leave without running the exit handlers (everything worth keeping is written by now).
if PlayerWindow.displayWasLost {
    fflush(nil)
    _exit(status)
}
exit(status)
