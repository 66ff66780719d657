import Foundation

/// The browser client: ES modules, a stylesheet and a page, with no build step (`web/`, a
/// resource directory copied as it is). ChirpServer serves them (`WebAssets`); this target
/// holds only the files.
package enum ChirpWebClient {
    /// The directory of the web client's files in this target's resource bundle.
    package static var directory: URL? { Bundle.module.url(forResource: "web", withExtension: nil) }
}
