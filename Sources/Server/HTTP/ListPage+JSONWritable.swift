import EduGoServerStore

/// A page of items that write their own JSON writes its own too (the members of its `Encodable`
/// conformance: `page` and `total` only when known, `next` always, `null` on the last page).
extension ListPage: JSONWritable where Item: JSONWritable {
    func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("items")
        json.array(items)
        if let page {
            json.key("page")
            json.int(page)
        }
        json.key("limit")
        json.int(limit)
        if let total {
            json.key("total")
            json.int(total)
        }
        json.key("next")
        json.string(next?.token)
        json.endObject()
    }
}
