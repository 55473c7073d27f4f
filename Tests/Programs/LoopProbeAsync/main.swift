import Foundation
import LoopProbeKit

// `LoopProbeAsync FILE`: LoopProbe's Looper in a program with an async main (top-level `await`).
let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: LoopProbeAsync FILE\n".utf8))
    exit(2)
}
let looper = Looper(path: arguments[1])
looper.start(limit: 20)
while true { try await Task.sleep(for: .seconds(60)) }
