import Foundation
import Synchronization

/// What a route pattern matched: the URL, its path parameters and its query items.
public struct RouteMatch: Sendable, Hashable {
    /// The URL opened.
    public let url: URL
    /// The pattern that matched (`chirp://conversation/:username`).
    public let pattern: String
    /// `:name` segments of the pattern, percent-decoded.
    public let parameters: [String: String]
    /// Query items of the URL (the last value wins for repeated names).
    public let query: [String: String]

    /// A path parameter, or a query item when there is no parameter of that name.
    public subscript(_ name: String) -> String? { parameters[name] ?? query[name] }
}

/// Maps URLs such as `chirp://conversation/bob?draft=hi` to handlers that modules register.
///
/// Patterns are `scheme://first/second/…`, each segment a literal or a `:parameter`. Where
/// several patterns match, the one with a literal at the first segment where they differ wins
/// (`chirp://user/me` over `chirp://user/:name`). A URL no pattern matches goes to the
/// fallback. A handler's result is handed back to whoever opened the URL (a screen, a text …).
///
/// ```swift
/// router.register("chirp://conversation/:username") { match in ConversationScreen(peer: match["username"]!) }
/// let screen = try await router.open(URL(string: "chirp://conversation/bob")!)
/// ```
public final class Router: Sendable {
    /// Handles a matched URL.
    public typealias Handler = @Sendable (RouteMatch) async throws -> any Sendable

    private struct Route {
        var pattern: String
        var scheme: String
        var segments: [Segment]
        var handler: Handler
    }

    private enum Segment: Equatable {
        case literal(String)
        case parameter(String)
    }

    private let routes = Mutex<[Route]>([])
    private let fallback: Mutex<Handler?>

    /// A router; `fallback` handles unknown URLs (without one, `open` throws).
    public init(fallback: Handler? = nil) {
        self.fallback = Mutex(fallback)
    }

    /// Sets the handler for URLs no pattern matches.
    public func setFallback(_ handler: @escaping Handler) {
        fallback.withLock { $0 = handler }
    }

    /// Registers a pattern. Every pattern has one owner: registering one again (or one that
    /// differs only in its parameters' names) throws `duplicatePattern`.
    public func register(_ pattern: String, handler: @escaping Handler) throws(RouterError) {
        guard let (scheme, segments) = Self.parse(pattern: pattern) else { throw .invalidPattern(pattern) }
        let shape = Self.shape(scheme, segments)
        let added = routes.withLock { routes -> Bool in
            guard !routes.contains(where: { Self.shape($0.scheme, $0.segments) == shape }) else { return false }
            routes.append(Route(pattern: pattern, scheme: scheme, segments: segments, handler: handler))
            return true
        }
        guard added else { throw .duplicatePattern(pattern) }
    }

    /// A pattern with its parameters' names left out: two patterns of one shape match the same URLs.
    private static func shape(_ scheme: String, _ segments: [Segment]) -> [String] {
        [scheme]
            + segments.map { segment in
                switch segment {
                case .literal(let literal): "=" + literal
                case .parameter: ":"
                }
            }
    }

    /// The registered patterns, in registration order.
    public var patterns: [String] { routes.withLock { $0.map(\.pattern) } }

    /// Whether some pattern (not the fallback) matches the URL.
    public func canOpen(_ url: URL) -> Bool { match(url) != nil }

    /// Runs the handler of the best-matching pattern, or the fallback.
    public func open(_ url: URL) async throws -> any Sendable {
        if let (route, match) = match(url) { return try await route.handler(match) }
        guard let fallback = fallback.withLock({ $0 }) else { throw RouterError.noRoute(url.absoluteString) }
        return try await fallback(RouteMatch(url: url, pattern: "", parameters: [:], query: Self.query(of: url)))
    }

    // MARK: matching

    private func match(_ url: URL) -> (Route, RouteMatch)? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        let segments = Self.segments(of: url)
        let candidates = routes.withLock { $0 }.compactMap { route -> (Route, [String: String])? in
            guard route.scheme == scheme, route.segments.count == segments.count else { return nil }
            var parameters: [String: String] = [:]
            for (pattern, actual) in zip(route.segments, segments) {
                switch pattern {
                case .literal(let literal): if literal != actual { return nil }
                case .parameter(let name): parameters[name] = actual
                }
            }
            return (route, parameters)
        }
        // Literal beats parameter at the first segment where two patterns differ.
        let best = candidates.max { a, b in
            for (x, y) in zip(a.0.segments, b.0.segments) {
                switch (x, y) {
                case (.parameter, .literal): return true
                case (.literal, .parameter): return false
                default: continue
                }
            }
            return false
        }
        return best.map { route, parameters in
            (route, RouteMatch(url: url, pattern: route.pattern, parameters: parameters, query: Self.query(of: url)))
        }
    }

    private static func parse(pattern: String) -> (String, [Segment])? {
        guard let range = pattern.range(of: "://") else { return nil }
        let scheme = pattern[..<range.lowerBound].lowercased()
        guard !scheme.isEmpty else { return nil }
        let rest = pattern[range.upperBound...]
        let segments = rest.split(separator: "/").map { part -> Segment in
            part.hasPrefix(":") ? .parameter(String(part.dropFirst())) : .literal(String(part))
        }
        guard !segments.contains(.parameter("")) else { return nil }
        return (scheme, segments)
    }

    /// Host and path segments, percent-decoded.
    private static func segments(of url: URL) -> [String] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
        var parts: [String] = []
        if let host = components.percentEncodedHost, !host.isEmpty {
            parts.append(host.removingPercentEncoding ?? host)
        }
        parts += components.percentEncodedPath.split(separator: "/").map {
            String($0).removingPercentEncoding ?? String($0)
        }
        return parts
    }

    private static func query(of url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    }
}

/// Why a route could not be registered or opened.
public enum RouterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern is not `scheme://segment/…` with named parameters.
    case invalidPattern(String)
    /// No pattern matches and there is no fallback.
    case noRoute(String)
    /// The pattern (or one matching the same URLs) is registered already.
    case duplicatePattern(String)

    public var description: String {
        switch self {
        case .invalidPattern(let pattern): "invalid route pattern '\(pattern)'; write scheme://literal/:parameter"
        case .noRoute(let url): "nothing handles \(url)"
        case .duplicatePattern(let pattern): "'\(pattern)' is registered already: every route has one owner"
        }
    }
}
