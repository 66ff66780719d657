/// An HTTP request method.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotentByDefault: Bool { self != .post && self != .patch }

    public var description: String { rawValue }
}
