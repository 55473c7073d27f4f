import Foundation

/// Passwords written in URLs (`http://user:password@host/...`, which the HTTP clients send as Basic
/// authentication) kept out of what is shown, logged and published. Pure; any thread.
public enum URLPasswords {
    /// `text` with the password of every URL in it replaced by `***` (`http://user:***@host/`): for messages, status
    /// lines and logs, which quote URLs anywhere in them.
    public static func masked(_ text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        // `scheme://user:password@`: the scheme and user, then the password (no `/`, `@` or space in either). A
        // `Regex` is not `Sendable`: one per call (only texts that quote such a URL get here).
        let pattern = /([A-Za-z][A-Za-z0-9+.\-]*:\/\/[^\/@\s:]*):[^\/@\s]*@/
        return text.replacing(pattern) { match in "\(match.output.1):***@" }
    }

    /// `location` (a URL) without its user name and password, as a key that names the resource alone (a position
    /// kept for it is not the password's business); anything that is not such a URL as it is.
    public static func removed(from location: String) -> String {
        guard location.contains("@"), var parts = URLComponents(string: location), parts.user != nil else {
            return location
        }
        (parts.user, parts.password) = (nil, nil)
        return parts.string ?? location
    }
}
