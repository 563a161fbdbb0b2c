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
