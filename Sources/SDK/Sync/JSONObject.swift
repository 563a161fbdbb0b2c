import Foundation

/// Small helpers over JSON objects as `[String: Any]` (merging bodies, comparing fields).
enum JSONObject {
    static func decode(_ data: Data?) -> [String: Any]? {
        guard let data else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func encode(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }

    /// `base` with every member of `overlay` written over it.
    static func merge(_ base: Data?, _ overlay: Data?) -> Data? {
        guard let overlay = decode(overlay) else { return base }
        var merged = decode(base) ?? [:]
        for (key, value) in overlay { merged[key] = value }
        return encode(merged)
    }

    /// Whether two JSON values are equal (numbers compared by value).
    static func equal(_ lhs: Any?, _ rhs: Any?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (is NSNull, nil), (nil, is NSNull): return true
        case (let l?, let r?):
            return (l as? NSObject)?.isEqual(r as? NSObject) ?? false
        default: return false
        }
    }
}
