import ChirpModels
import ChirpNetworking
import ChirpPersistence
import Foundation

/// The user's data export: ask the server to prepare an archive of everything it holds of
/// theirs, wait until it is written, and download it to a file.
extension UserSession {
    /// Prepares an export and downloads the archive (a tar file) to `destination`, replacing
    /// what is there only once the whole archive arrived. `waiting` is how long to wait for the
    /// server to write it. The server holds only the envelopes of encrypted conversations:
    /// this device's decrypted copies are added as `chirp-export/encrypted-messages.json`.
    @discardableResult
    public func exportData(to destination: URL, waiting: Duration = .seconds(300)) async throws -> URL {
        _ = try await api.send(ChirpEndpoints.PrepareExport())
        let url = api.client.server.baseURL.appendingPathComponent(APIRoute.downloadExport.path())
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        defer { try? FileManager.default.removeItem(at: partial) }
        let deadline = ContinuousClock.now + waiting
        while true {
            var headers: [String: String] = [:]
            if let token = api.token { headers["Authorization"] = "Bearer \(token)" }
            let response = try await FileTransfer().download(url, headers: headers, to: partial, append: false)
            if response.status == 200 { break }
            guard response.status == 202 else { throw MediaUploader.error(response) }
            guard ContinuousClock.now < deadline else {
                throw NetworkError.timeout
            }
            let wait = response.headers.first { $0.key.lowercased() == "retry-after" }.flatMap { Int($0.value) } ?? 1
            try await Task.sleep(for: .seconds(min(max(wait, 1), 5)))
        }
        let encrypted = try await database.messages.fetch(
            RecordQuery().filter("verification", .equal, .text(MessageVerification.opened.rawValue)).order(
                by: "sortKey"))
        if !encrypted.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try EncryptedCopiesArchive.append(
                try encoder.encode(EncryptedCopiesArchive.entries(encrypted)), as: EncryptedCopiesArchive.entryName,
                to: partial)
        }
        if FileManager.default.fileExists(atPath: destination.path) {
            _ = try FileManager.default.replaceItemAt(destination, withItemAt: partial)
        } else {
            try FileManager.default.moveItem(at: partial, to: destination)
        }
        return destination
    }
}
