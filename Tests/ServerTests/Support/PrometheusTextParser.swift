import Foundation

/// A strict reader of the Prometheus text exposition format (0.0.4), written from the format's
/// description and independent of swift-prometheus: it refuses anything a Prometheus server would.
struct PrometheusTextParser {
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct Failure: Error, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// Every sample, after checking names, labels, values, TYPE declarations and histogram shape.
    static func parse(_ text: String) throws -> [Sample] {
        var types: [String: String] = [:]
        var samples: [Sample] = []
        var seen = Set<String>()
        guard text.isEmpty || text.hasSuffix("\n") else { throw Failure(line: 0, reason: "does not end with a newline") }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let number = index + 1
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
                guard parts.count >= 3, parts[0] == "#" else { continue }
                guard isMetricName(parts[2]) else { throw Failure(line: number, reason: "bad metric name in \(parts[1])") }
                if parts[1] == "TYPE" {
                    guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else {
                        throw Failure(line: number, reason: "bad TYPE line")
                    }
                    guard types[parts[2]] == nil else { throw Failure(line: number, reason: "second TYPE for \(parts[2])") }
                    types[parts[2]] = parts[3]
                }
                continue
            }
            let sample = try parseSample(String(line), line: number)
            let family = familyName(sample.name, types: types)
            guard let type = types[family] else {
                throw Failure(line: number, reason: "sample \(sample.name) before its TYPE")
            }
            if type == "histogram" {
                guard sample.name != family else { throw Failure(line: number, reason: "histogram sample without suffix") }
                if sample.name.hasSuffix("_bucket"), sample.labels["le"] == nil {
                    throw Failure(line: number, reason: "bucket without le")
                }
            }
            if type == "counter", sample.value < 0 { throw Failure(line: number, reason: "negative counter") }
            let key = sample.name + sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            guard seen.insert(key).inserted else { throw Failure(line: number, reason: "duplicate series \(key)") }
            samples.append(sample)
        }
        try checkHistograms(samples, types: types)
        return samples
    }

    private static func familyName(_ name: String, types: [String: String]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" || types[base] == "summary" { return base }
        }
        return name
    }

    /// Buckets never decrease and the `+Inf` bucket equals `_count`.
    private static func checkHistograms(_ samples: [Sample], types: [String: String]) throws {
        for (family, type) in types where type == "histogram" {
            let buckets = samples.filter { $0.name == family + "_bucket" }
            let series = Dictionary(grouping: buckets) { $0.labels.filter { $0.key != "le" } }
            for (labels, buckets) in series {
                let ordered = buckets.sorted { (Double($0.labels["le"] ?? "") ?? .infinity) < (Double($1.labels["le"] ?? "") ?? .infinity) }
                for (lower, upper) in zip(ordered, ordered.dropFirst()) where upper.value < lower.value {
                    throw Failure(line: 0, reason: "\(family) buckets decrease")
                }
                guard let infinite = ordered.last, infinite.labels["le"] == "+Inf" else {
                    throw Failure(line: 0, reason: "\(family) has no +Inf bucket")
                }
                let count = samples.first { $0.name == family + "_count" && $0.labels == labels }
                guard count?.value == infinite.value else { throw Failure(line: 0, reason: "\(family) +Inf != _count") }
            }
        }
    }

    private static func parseSample(_ line: String, line number: Int) throws -> Sample {
        var rest = Substring(line)
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        guard isMetricName(name) else { throw Failure(line: number, reason: "bad metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                guard isLabelName(label) else { throw Failure(line: number, reason: "bad label name") }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { throw Failure(line: number, reason: "label without =\"") }
                rest = rest.dropFirst(2)
                var value = ""
                while true {
                    guard let character = rest.first else { throw Failure(line: number, reason: "unterminated label value") }
                    rest = rest.dropFirst()
                    if character == "\"" { break }
                    if character == "\\" {
                        guard let escaped = rest.first, ["\\", "\"", "n"].contains(escaped) else {
                            throw Failure(line: number, reason: "bad escape")
                        }
                        rest = rest.dropFirst()
                        value.append(escaped == "n" ? "\n" : escaped)
                    } else {
                        value.append(character)
                    }
                }
                guard labels.updateValue(value, forKey: label) == nil else { throw Failure(line: number, reason: "repeated label") }
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" {
                    throw Failure(line: number, reason: "expected , or }")
                }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw Failure(line: number, reason: "no space before the value") }
        let fields = rest.dropFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count), let value = parseValue(String(fields[0])) else {
            throw Failure(line: number, reason: "bad value")
        }
        if fields.count == 2, Int64(fields[1]) == nil { throw Failure(line: number, reason: "bad timestamp") }
        return Sample(name: name, labels: labels, value: value)
    }

    private static func parseValue(_ text: String) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: text.isEmpty || text.contains(where: { $0.isWhitespace }) ? nil : Double(text)
        }
    }

    private static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetterOrUnderscore || first == ":" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetterOrUnderscore || $0 == ":" || ("0"..."9").contains($0) }
    }

    private static func isLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetterOrUnderscore else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetterOrUnderscore || ("0"..."9").contains($0) }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetterOrUnderscore: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_"
    }
}

extension Array where Element == PrometheusTextParser.Sample {
    /// The value of the series with exactly these labels (`nil` when absent).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        first { $0.name == name && $0.labels == labels }?.value
    }
}
