import Foundation
import Playhead

/// The command line as the kernel gave it: bytes. A file name that is not UTF-8 (legal on Linux) cannot be a
/// Swift `String`, so such an input, or such a value of a long option (`--sub-file=NAME`), is opened by its bytes
/// and given as the path `ByteNamedFiles` registers for it (`/proc/self/fd/N`); messages show its name decoded
/// lossily. A name that cannot be opened is given lossily, for the usual one-line error. Main thread, at start.
enum CommandLineBytes {
    /// The arguments, without the program name.
    static func arguments() -> [String] {
        let argv = CommandLine.unsafeArgv
        return (1..<Int(CommandLine.argc)).compactMap { i -> String? in
            guard let raw = argv[i] else { return nil }
            let bytes = UnsafeBufferPointer(start: raw, count: strlen(raw)).map { UInt8(bitPattern: $0) }
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            // `--option=VALUE`: the value is the name (the option's own name is ASCII).
            if bytes.starts(with: Array("--".utf8)), let eq = bytes.firstIndex(of: UInt8(ascii: "=")),
                let option = String(validating: bytes[...eq], as: UTF8.self)
            {
                return option + name(Array(bytes[(eq + 1)...]))
            }
            return name(bytes)
        }
    }

    /// The working folder as a path that opens it when its own name is not UTF-8 (`/proc/self/fd/N`; Foundation
    /// reads such a name lossily, so a relative path it resolves names nothing), else nil.
    static let workingFolderByBytes: String? = {
        guard let cwd = getcwd(nil, 0) else { return nil }
        defer { free(cwd) }
        let bytes = UnsafeBufferPointer(start: cwd, count: strlen(cwd)).map { UInt8(bitPattern: $0) }
        return String(validating: bytes, as: UTF8.self) == nil ? ByteNamedFiles.path(for: bytes) : nil
    }()

    /// The working folder, as a path that opens it (see `workingFolderByBytes`).
    static var workingFolder: String { workingFolderByBytes ?? FileManager.default.currentDirectoryPath }

    private static func name(_ bytes: [UInt8]) -> String {
        ByteNamedFiles.path(for: bytes) ?? String(decoding: bytes, as: UTF8.self)
    }
}
