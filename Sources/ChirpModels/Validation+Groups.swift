/// The rules of group conversations (API.md part 3).
extension Validation {
    /// A group's title, in characters (Unicode scalars), after trimming.
    public static let groupTitleLength = 1...80
    /// The most members a group may have, the creator included, unless the server is told
    /// otherwise (`chirp serve --max-group-members`).
    public static let defaultMaxGroupMembers = 256

    /// Trims surrounding whitespace and checks a group title: 1–80 characters, no NUL.
    public static func groupTitle(_ value: String) throws(ValidationError) -> String {
        let trimmed = value.trimmingSurroundingWhitespace()
        guard groupTitleLength.contains(trimmed.unicodeScalars.count), !trimmed.unicodeScalars.contains("\u{0}") else {
            throw ValidationError(
                code: "invalid_title", field: "title", message: "A group's title is 1 to 80 characters, without NUL.")
        }
        return trimmed
    }
}
