import Foundation

/// The command line as the kernel gave it: bytes. A file name that is not UTF-8 (legal on Linux) cannot be a
/// Swift `String`, so such an input is opened by its bytes and played through `/proc/self/fd/N`, a path that
/// names the same file; messages show its name decoded lossily. `-` is standard input. Main thread, at start.
enum CommandLineBytes {
    /// The arguments (without the program name), with inputs that are not UTF-8 replaced by an openable path,
    /// and the lossy name to show for each such path.
    static func arguments() -> (arguments: [String], shownNames: [String: String]) {
        var arguments: [String] = []
        var shown: [String: String] = [:]
        let argv = CommandLine.unsafeArgv
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = argv[i] else { continue }
            let bytes = UnsafeBufferPointer(start: raw, count: strlen(raw)).map { UInt8(bitPattern: $0) }
            if let text = String(validating: bytes, as: UTF8.self) {
                arguments.append(text)
                continue
            }
            let lossy = String(decoding: bytes, as: UTF8.self)
            let fd = open(raw, O_RDONLY)
            guard fd >= 0 else {
                // Not openable: the lossy name gets the usual one-line error ("no such file", "permission denied").
                arguments.append(lossy)
                continue
            }
            let path = "/proc/self/fd/\(fd)"
            arguments.append(path)
            shown[path] = lossy
        }
        return (arguments, shown)
    }
}
