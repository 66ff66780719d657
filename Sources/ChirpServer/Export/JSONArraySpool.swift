import Foundation

/// A JSON array written to a file one element at a time, so a long list (a conversation's
/// messages) is never held in memory whole before it goes into an export archive.
final class JSONArraySpool {
    let path: String
    private let handle: FileHandle
    private let encoder = APIJSON.encoder()
    private var count = 0

    /// Creates (or truncates) the file at `path` and opens the array.
    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: Data("[".utf8)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    /// Appends one element.
    func append(_ element: some Encodable) throws {
        var data = count == 0 ? Data() : Data(",".utf8)
        data.append(try encoder.encode(element))
        try handle.write(contentsOf: data)
        count += 1
    }

    /// Closes the array and the file.
    func close() throws {
        try handle.write(contentsOf: Data("]".utf8))
        try handle.close()
    }
}
