import Foundation
import PlayheadTestSupport
import Testing

/// Issue 18, the clean machine: `scripts/install-deps.sh` installs every program the scripts and the tests start,
/// `scripts/test.sh` fails when the build fails, and the daemon starts fail loudly when the daemon does not answer.
@Suite(.serialized) struct HostileScriptTests {
    /// The programs `install-deps.sh` installs (its `command:package` entries).
    func installedPrograms() throws -> Set<String> {
        let script = try String(
            contentsOf: Paths.packageRoot.appendingPathComponent("scripts/install-deps.sh"), encoding: .utf8)
        let words = script.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "(" || $0 == ")" })
        return Set(words.filter { $0.contains(":") && !$0.hasPrefix("$") }.map { String($0.split(separator: ":")[0]) })
    }

    /// Every program name the test sources start: the first string argument of `Run.command`, `Run.which` and
    /// the suites' own `run(...)` helpers, and each command word of the shell lines they run.
    func programsStartedByTests() throws -> Set<String> {
        var names = Set<String>()
        let roots = ["Tests", "Sources/PlayheadTestSupport"].map { Paths.packageRoot.appendingPathComponent($0) }
        let call = try Regex(#"(?:command|which|run)\(\s*"([a-zA-Z0-9_.+-]+)""#)
        // In shell lines: the program after a pipe, and the one `xargs -I{}` runs.
        let shellWords = try Regex(#"(?:[^|]\|(?![|=])\s+|-I\{\}\s+)([a-z][a-z0-9_.+-]+)\s"#)
        for root in roots {
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                // Comments start nothing (a doc comment's "|x| of" is not a pipe into a program named "of").
                let text = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                    .filter { !$0.drop { $0 == " " }.hasPrefix("//") }.joined(separator: "\n")
                for m in text.matches(of: call) { names.insert(String(m.output[1].substring ?? "")) }
                for m in text.matches(of: shellWords) { names.insert(String(m.output[1].substring ?? "")) }
            }
        }
        return names
    }

    @Test func installDepsCoversEveryProgramTheTestsStart() throws {
        let installed = try installedPrograms()
        let started = try programsStartedByTests()
        #expect(started.contains("busctl") && started.contains("playerctl"), "the scan found: \(started.sorted())")
        let missing = started.subtracting(installed)
        #expect(missing.isEmpty, "started by the tests but not installed by install-deps.sh: \(missing.sorted())")
        // And those the scripts start.
        for program in ["pulseaudio", "pactl", "dbus-daemon", "dbus-send", "nginx", "python3", "ffmpeg", "ffprobe"] {
            #expect(installed.contains(program), "\(program) is not installed by install-deps.sh")
        }
    }

    /// A folder with executables named `name` whose body is `script` (a `#!/bin/sh` script), for PATH.
    func fakeBin(_ programs: [String: String]) throws -> URL {
        let dir = Paths.scratch("fakebin")
        for (name, script) in programs {
            let url = dir.appendingPathComponent(name)
            try Data("#!/bin/sh\n\(script)\n".utf8).write(to: url)
            chmod(url.path, 0o755)
        }
        return dir
    }

    @Test func testScriptFailsWhenTheBuildFails() throws {
        let marker = Paths.scratch("marker").appendingPathComponent("tests-ran")
        // A `swift` whose build fails and whose test run leaves a marker: test.sh must stop at the build. Should
        // it go on (the old script did), its daemons are stand-ins that end by themselves in a private folder.
        let run = Paths.scratch("run")
        let bin = try fakeBin([
            "swift": """
            case "$1" in
              build) echo "error: a compile error" >&2; exit 1 ;;
              test) touch '\(marker.path)'; exit 0 ;;
              *) exit 0 ;;
            esac
            """,
            "pulseaudio": "exec sleep 1", "pactl": "exit 0", "nginx": "exec sleep 1", "dbus-send": "exit 0",
            "dbus-daemon": "echo unix:path=\(run.path)/bus.sock; exec sleep 1",
        ])
        let path = "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
        let r = try Run.command(
            "bash", [Paths.packageRoot.appendingPathComponent("scripts/test.sh").path],
            environment: ["PATH": path, "PLAYHEAD_RUN": run.path], timeout: 120)
        #expect(r.status != 0, "test.sh exit \(r.status) after a failed build: \(r.stdout) \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "test.sh ran the tests after a failed build")
        #expect(r.stderr.contains("the build failed"), "\(r.stderr)")
    }

    @Test func nginxStartFailsLoudlyWhenNginxDoesNotAnswer() throws {
        let run = Paths.scratch("run")
        let bin = try fakeBin(["nginx": "exit 1"])
        let script = Paths.packageRoot.appendingPathComponent("scripts/daemons.sh").path
        let r = try Run.command(
            "bash",
            ["-c", "PATH='\(bin.path)':$PATH; source '\(script)'; nginx_start '\(run.path)/www'"],
            environment: ["PLAYHEAD_RUN": run.path], timeout: 60)
        #expect(r.status != 0, "nginx_start succeeded with no nginx answering")
        #expect(r.stderr.contains("nginx does not answer"), "\(r.stderr)")
    }

    @Test func daemonsStartFailsLoudlyWhenTheBusDoesNotAnswer() throws {
        let run = Paths.scratch("run")
        // A dbus-daemon that prints an address and serves nothing on it.
        let bin = try fakeBin(["dbus-daemon": "echo unix:path=\(run.path)/no-bus.sock; exec sleep 2"])
        let script = Paths.packageRoot.appendingPathComponent("scripts/daemons.sh").path
        let r = try Run.command(
            "bash",
            [
                "-c",
                "PATH='\(bin.path)':$PATH; source '\(script)'; daemons_start; status=$?; daemons_stop; exit $status",
            ], environment: ["PLAYHEAD_RUN": run.path], timeout: 60)
        #expect(r.status != 0, "daemons_start succeeded with no bus answering")
        #expect(r.stderr.contains("dbus-daemon does not answer"), "\(r.stderr)")
    }
}
