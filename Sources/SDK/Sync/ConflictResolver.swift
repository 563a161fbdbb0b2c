import Foundation

/// How a version conflict on a resource is settled.
public enum ConflictStrategy: String, Sendable, Codable, CaseIterable {
    /// Drop the local write; the server's state becomes the local state.
    case serverWins
    /// Re-apply the local write on top of the server's current version.
    case clientWins
    /// Three-way merge: fields changed locally win, except those that only move one way, which go
    /// as far as either side went (the resource's rule, see ``ConflictResolver``); fields changed
    /// only on the server stay.
    case merge
    /// Park the conflict; the app lists it and chooses.
    case manual
}

/// The strategy per kind of resource. A resource the policy names no strategy for uses its own
/// default (its descriptor's): progress and profile merge, everything else lets the server win.
public struct ConflictPolicy: Sendable, Equatable {
    private var strategies: [ResourceType: ConflictStrategy]

    /// A policy for ``EduGoClient``: name only the resources whose strategy should differ from
    /// their default.
    ///
    /// ```swift
    /// let policy = ConflictPolicy([.profile: .manual])  // let the user settle profile conflicts
    /// ```
    ///
    /// - Parameter strategies: the strategy of each kind of resource named.
    public init(_ strategies: [ResourceType: ConflictStrategy] = [:]) {
        self.strategies = strategies
    }

    /// The strategy for conflicts on resources of `type`: the one this policy names, or the
    /// resource's default.
    public subscript(type: ResourceType) -> ConflictStrategy {
        get { strategies[type] ?? SyncedResources.descriptor(of: type)?.conflicts.strategy ?? .serverWins }
        set { strategies[type] = newValue }
    }

    func strategy(for resource: ResourceKey) -> ConflictStrategy {
        self[resource.type]
    }
}

/// Decides the outcome of a conflict: a pure function of the strategy and three JSON objects.
///
/// A merge follows the resource's rule (its descriptor's): a field changed locally keeps the
/// local value — the learner's latest intent — unless the rule merges it by meaning (lesson
/// progress keeps the larger `watched_seconds` and any completion, whichever side recorded it).
public enum ConflictResolver {
    /// What to do with the conflicting write.
    public enum Resolution: Equatable, Sendable {
        /// Drop the write and keep the server's state.
        case acceptServer
        /// Send `body` again, based on `version`.
        case resend(body: Data, version: Int)
        /// Store the conflict for the app.
        case park
    }

    /// Settles one conflict: what to do with a write whose base version the server no longer has.
    ///
    /// It does no I/O, so the same inputs always give the same outcome; the ``SyncEngine``'s drains
    /// call it for each conflicting write, and a test can call it to see what a strategy would do.
    ///
    /// - Parameters:
    ///   - strategy: how conflicts on this kind of resource are settled (see ``ConflictPolicy``).
    ///   - resource: the resource written; a merge follows its rule.
    ///   - base: the server's JSON the write was based on (`nil` for a first write).
    ///   - local: the JSON body this client wanted to write.
    ///   - server: the server's current JSON.
    ///   - serverVersion: the server's current version: a resend is based on it.
    /// - Returns: ``Resolution/acceptServer`` when the server wins or already holds everything the write
    ///   wanted, ``Resolution/resend(body:version:)`` with the body to send again, or ``Resolution/park``
    ///   for the `manual` strategy.
    public static func resolve(
        strategy: ConflictStrategy, resource: ResourceKey, base: Data?, local: Data?, server: Data?, serverVersion: Int
    ) -> Resolution {
        resolve(
            strategy: strategy, rule: resource.descriptor?.conflicts ?? ConflictRule(), base: base, local: local, server: server,
            serverVersion: serverVersion)
    }

    /// ``resolve(strategy:resource:base:local:server:serverVersion:)`` with the merge `rule` given.
    static func resolve(
        strategy: ConflictStrategy, rule: ConflictRule, base: Data?, local: Data?, server: Data?, serverVersion: Int
    ) -> Resolution {
        switch strategy {
        case .serverWins:
            return .acceptServer
        case .manual:
            return .park
        case .clientWins:
            return .resend(body: local ?? Data("{}".utf8), version: serverVersion)
        case .merge:
            let (merged, differsFromServer) = merge(rule: rule, base: base, local: local, server: server)
            guard differsFromServer else { return .acceptServer }
            return .resend(body: JSONObject.encode(merged), version: serverVersion)
        }
    }

    /// The body of a write that was never sent, made on `base`, moved onto `server`, a later state
    /// a pull brought: a three-way merge by `rule`, as a conflict would settle it, so a field both
    /// sides changed merges by meaning (a watch time the server already holds larger is not sent
    /// smaller).
    static func rebase(rule: ConflictRule, base: Data?, local: Data?, server: Data?) -> Data? {
        JSONObject.encode(merge(rule: rule, base: base, local: local, server: server).merged)
    }

    /// The three-way merge of `local` (made on `base`) with `server` by `rule`: the members to send,
    /// and whether any of them differs from the server's (other than the record's identity).
    private static func merge(rule: ConflictRule, base: Data?, local: Data?, server: Data?) -> (merged: [String: Any], differsFromServer: Bool) {
        let baseObject = JSONObject.decode(base)
        let localObject = JSONObject.decode(local) ?? [:]
        let serverObject = JSONObject.decode(server) ?? [:]
        var merged: [String: Any] = [:]
        var differsFromServer = false
        for (key, localValue) in localObject where rule.sends(key) {
            let serverValue = serverObject[key]
            let localChanged = baseObject.map { !JSONObject.equal($0[key], localValue) } ?? true
            // A field that only moves one way (the rule's monotonic fields) goes as far as either
            // side went, whether or not this side changed it: the server may have gone back (a
            // restore took it back), and the write still says it. Any other field this side changed
            // keeps the local value. Without a base (a first write meeting another device's record)
            // every field counts as changed here.
            let value: Any? = localChanged || rule.monotonic[key] != nil ? rule.merge(key, local: localValue, server: serverValue) : serverValue
            if let value {
                merged[key] = value
                if !JSONObject.equal(value, serverValue) && !rule.identity.contains(key) { differsFromServer = true }
            }
        }
        return (merged, differsFromServer)
    }
}
