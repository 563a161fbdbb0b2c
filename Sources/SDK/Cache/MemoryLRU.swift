import Foundation

/// A least-recently-used map bounded by entry count and total bytes.
struct MemoryLRU<Value> {
    private var values: [String: (value: Value, bytes: Int)] = [:]
    private var order: [String] = []
    private(set) var totalBytes = 0
    let maxEntries: Int
    let maxBytes: Int

    init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
    }

    var count: Int { values.count }

    /// The value, marked as most recently used.
    mutating func get(_ key: String) -> Value? {
        guard let entry = values[key] else { return nil }
        touch(key)
        return entry.value
    }

    mutating func set(_ key: String, _ value: Value, bytes: Int) {
        remove(key)
        guard bytes <= maxBytes else { return }
        values[key] = (value, bytes)
        order.append(key)
        totalBytes += bytes
        while values.count > maxEntries || totalBytes > maxBytes, let oldest = order.first {
            remove(oldest)
        }
    }

    mutating func remove(_ key: String) {
        guard let entry = values.removeValue(forKey: key) else { return }
        totalBytes -= entry.bytes
        order.removeAll { $0 == key }
    }

    mutating func removeAll(where shouldRemove: (String) -> Bool) {
        for key in values.keys where shouldRemove(key) { remove(key) }
    }

    private mutating func touch(_ key: String) {
        order.removeAll { $0 == key }
        order.append(key)
    }
}
