import ArgumentParser
import EduGoServer
import Foundation

/// The hardening flags, read into the configuration.
extension EduGoServerCommand {
    /// The hardening flags, each with its environment fallback.
    func applyHardening(to configuration: inout ServerConfiguration, environment: [String: String]) throws {
        func list(_ flag: [String], _ variable: String) -> [String] {
            if !flag.isEmpty { return flag }
            return (environment[variable] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        func number(_ flag: Int?, _ variable: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let value = try flag ?? environment[variable].map({ text in
                guard let value = Int(text) else { throw ValidationError("\(variable) must be a number.") }
                return value
            }) else { return nil }
            guard range.contains(value) else {
                throw ValidationError("--\(name) must be between \(range.lowerBound) and \(range.upperBound).")
            }
            return value
        }
        configuration.allowedHosts = list(allowedHosts, "EDUGO_ALLOWED_HOSTS")
        configuration.trustForwardedProto = trustForwardedProto || Self.isTrue(environment["EDUGO_TRUST_FORWARDED_PROTO"])
        configuration.trustedProxies = list(trustedProxies, "EDUGO_TRUSTED_PROXIES")
        for proxy in configuration.trustedProxies where !ServerConfiguration.isValidCIDR(proxy) {
            throw ValidationError("--trusted-proxy '\(proxy)' is not an address or CIDR block (e.g. 10.0.0.0/8).")
        }
        if let seconds = try number(maxSessionAge, "EDUGO_MAX_SESSION_AGE", "max-session-age", 60...(10 * 365 * 86400)) {
            configuration.sessions.maxAge = .seconds(seconds)
        }
        if let seconds = try number(idleTimeout, "EDUGO_IDLE_TIMEOUT", "idle-timeout", 0...86400) {
            configuration.connections.idleTimeout = seconds == 0 ? nil : .seconds(seconds)
        }
        if let seconds = try number(changeRetention, "EDUGO_CHANGE_RETENTION", "change-retention", 60...(10 * 365 * 86400)) {
            configuration.changeRetention = .seconds(seconds)
        }
        if let count = try number(maxConnections, "EDUGO_MAX_CONNECTIONS", "max-connections", 1...1_000_000) {
            configuration.connections.maxConnections = count
        }
        if let count = try number(maxEventStreams, "EDUGO_MAX_EVENT_STREAMS", "max-event-streams", 0...1_000_000) {
            configuration.events.maxStreams = count
        }
        if let cost = try number(passwordHashCost, "EDUGO_PASSWORD_HASH_COST", "password-hash-cost", 4...31) {
            configuration.passwordHashCost = UInt8(cost)
        }
        if let count = try number(maxSnapshots, "EDUGO_MAX_SNAPSHOTS", "max-snapshots", 1...10_000) {
            configuration.maxSnapshotsPerTenant = count
        }
        if let seconds = try number(maxConnectionAge, "EDUGO_MAX_CONNECTION_AGE", "max-connection-age", 0...(30 * 86400)) {
            configuration.connections.maxAge = seconds == 0 ? nil : .seconds(seconds)
        }
        if let bytes = try number(maxMediaSize, "EDUGO_MAX_MEDIA_SIZE", "max-media-size", 1...(1 << 40)) {
            configuration.maxMediaSize = bytes
        }
    }
}
