import Hummingbird

/// A status filter of the dev request lists: one status (`503`) or a class (`5xx`).
enum StatusFilter: Equatable {
    case exactly(Int)
    case classOf(Int)

    init?(_ text: String) {
        let characters = Array(text.lowercased())
        guard characters.count == 3, let first = characters[0].wholeNumberValue, (1...5).contains(first) else {
            return nil
        }
        if characters[1] == "x", characters[2] == "x" {
            self = .classOf(first)
        } else if let code = Int(text), (100...599).contains(code) {
            self = .exactly(code)
        } else {
            return nil
        }
    }

    func matches(_ status: Int) -> Bool {
        switch self {
        case .exactly(let code): status == code
        case .classOf(let first): status / 100 == first
        }
    }
}

/// The query parameters both dev request lists read (`/__dev/requests` and a tenant's journal),
/// each refusal added to `errors` for one `400 validation_failed`.
enum DevListQuery {
    /// `after`: entries whose sequence is greater; 0 when absent.
    static func after(_ request: Request, errors: inout [APIError.FieldError]) -> Int {
        guard let text = request.query("after") else { return 0 }
        guard let value = Int(text), value >= 0 else {
            errors.append(.init(field: "after", code: "out_of_range", message: "must be an integer of at least 0"))
            return 0
        }
        return value
    }

    /// `status`: one status (`503`) or a class (`5xx`).
    static func status(_ request: Request, errors: inout [APIError.FieldError]) -> StatusFilter? {
        guard let text = request.query("status") else { return nil }
        guard let filter = StatusFilter(text) else {
            errors.append(.init(field: "status", code: "invalid_format", message: "must be a status (503) or a class (5xx)"))
            return nil
        }
        return filter
    }
}
