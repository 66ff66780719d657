import ChirpModels

/// A command's failure, printed as one line (`Error: …`) with exit status 1. It may quote the
/// server or the user, so it is escaped (`TerminalText`).
package struct CommandFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = TerminalText.escaped(description) }
}
