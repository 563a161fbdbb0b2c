import Foundation

/// `Content-Range: bytes <first>-<last>/<size>`.
struct ContentRange: Equatable {
    var first: Int64
    var last: Int64
    var size: Int64

    init?(_ header: String?) {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let parts = header.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let size = Int64(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-")
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last, last < size
        else { return nil }
        (self.first, self.last, self.size) = (first, last, size)
    }
}
