/// A row of the store the SDK cannot read back (written by a newer SDK, or edited by hand).
struct StoreRowError: Error, CustomStringConvertible {
    let description: String

    static func unreadable(table: String, resource: String) -> StoreRowError {
        StoreRowError(description: "a row of \(table) names a resource this SDK does not know: \(resource)")
    }
}
