import Foundation

/// `EXT-X-DEFINE` and `{$name}` substitution (RFC 8216bis 4.3). A reference to an undefined variable fails the
/// parse in every mode, as the RFC requires.
extension ParserState {
    /// Whether `b[start..<end]` contains `{$`.
    func containsReference(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index + 1 < end {
            if b[index] == 0x7B, b[index + 1] == 0x24 { return true }
            index += 1
        }
        return false
    }

    /// Replaces every `{$name}` in `text`.
    func substitute(_ text: String) throws(PlaylistParseError) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{$") {
            result += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                return result
            }
            let name = String(after[..<close])
            guard isValidVariableName(name) else {
                result += "{$"
                rest = after
                continue
            }
            guard let value = variableValues[name] else {
                throw failure(.undefinedVariable, "undefined variable {$\(name)}")
            }
            result += value
            rest = after[after.index(after: close)...]
        }
        result += rest
        return result
    }

    func isValidVariableName(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        for byte in name.utf8 {
            let ok =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x5F
            if !ok { return false }
        }
        return true
    }

    mutating func handleDefine(_ list: AttributeList) throws(PlaylistParseError) {
        conformance.need(8, "#EXT-X-DEFINE", line: lineNumber)
        if list["QUERYPARAM"] != nil { conformance.need(11, "#EXT-X-DEFINE:QUERYPARAM", line: lineNumber) }
        let definition: VariableDefinition
        if let name = list.string("NAME") {
            if !(list["NAME"]?.isQuoted ?? false) { try issue(.invalidValue, "#EXT-X-DEFINE: NAME must be quoted") }
            guard let value = list.string("VALUE") else {
                throw failure(.undefinedVariable, "#EXT-X-DEFINE NAME=\"\(name)\" has no VALUE")
            }
            definition = VariableDefinition(name: name, value: value, source: .value)
        } else if let name = list.string("IMPORT") {
            guard firstMultivariantTagLine == nil else {
                throw failure(.undefinedVariable, "#EXT-X-DEFINE:IMPORT is not allowed in a multivariant playlist")
            }
            guard let value = options.importedVariables[name] else {
                throw failure(
                    .undefinedVariable, "IMPORT of \"\(name)\", which the multivariant playlist does not define")
            }
            definition = VariableDefinition(name: name, value: value, source: .import)
        } else if let name = list.string("QUERYPARAM") {
            guard let value = queryParameter(name) else {
                throw failure(.undefinedVariable, "QUERYPARAM \"\(name)\" is not in the playlist URL's query")
            }
            definition = VariableDefinition(name: name, value: value, source: .queryParameter)
        } else {
            throw failure(.undefinedVariable, "#EXT-X-DEFINE needs NAME, IMPORT or QUERYPARAM")
        }
        guard isValidVariableName(definition.name) else {
            throw failure(.undefinedVariable, "invalid variable name \"\(definition.name)\"")
        }
        if variableValues[definition.name] != nil {
            try issue(.duplicateTag, "variable \"\(definition.name)\" is defined more than once")
            variables.removeAll { $0.name == definition.name }
        }
        variables.append(definition)
        variableValues[definition.name] = definition.value
    }

    private func queryParameter(_ name: String) -> String? {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        return components.queryItems?.first { $0.name == name }?.value
    }
}
