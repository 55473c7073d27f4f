import Foundation
import LoopProbeKit

// `loop-probe dispatch|runloop FILE`: loops FILE three times from its end notification, with the main queue run
// by `dispatchMain()` or by `RunLoop.main.run()` (see Looper).
let arguments = CommandLine.arguments
guard arguments.count == 3, ["dispatch", "runloop"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: LoopProbe dispatch|runloop FILE\n".utf8))
    exit(2)
}
let looper = Looper(path: arguments[2])
looper.start(limit: 20)
if arguments[1] == "runloop" {
    RunLoop.main.run()
} else {
    dispatchMain()
}
