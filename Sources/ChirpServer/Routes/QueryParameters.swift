import ChirpModels
import Hummingbird

/// Parsing of the list and event query parameters, with 400s that name the parameter.
struct QueryParameters {
    let request: Request

    /// `limit` within `range`, or `defaultValue` when absent.
    func limit(
        in range: ClosedRange<Int> = Validation.pageLimit, default defaultValue: Int = Validation.defaultPageLimit
    ) throws -> Int {
        try int("limit", in: range) ?? defaultValue
    }

    /// An id-valued parameter (`cursor`, `before`, `after`): a positive decimal integer.
    func id(_ name: String) throws -> Int64? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Validation.parseId(text) else {
            throw APIError.badParameter(name, "'\(name)' must be an id returned by the server.")
        }
        return value
    }

    /// A non-negative integer parameter within `range`.
    func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badParameter(
                name, "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    /// A flag parameter: `true` or `false`.
    func bool(_ name: String) throws -> Bool? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Bool(String(text)) else {
            throw APIError.badParameter(name, "'\(name)' must be true or false.")
        }
        return value
    }

    /// The page position of a newest-first list.
    func page() throws -> PageRequest {
        PageRequest(limit: try limit(), cursor: try id("cursor"))
    }
}
