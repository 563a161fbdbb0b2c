/// Why the server refuses to start. The description says what to change.
public enum StartupError: Error, Equatable, CustomStringConvertible {
    /// Dev mode was asked for on an address that is not loopback.
    case devModeOnNetwork(host: String)
    /// Demo data was to be seeded, or a tenant with published passwords is present, on a server
    /// bound beyond loopback.
    case demoAccountsOnNetwork(host: String)
    /// The signing key file exists but cannot be read or parsed.
    case unreadableSigningKey(path: String, reason: String)
    /// The bcrypt cost is outside what bcrypt accepts (4 to 31).
    case passwordHashCostOutOfRange(cost: UInt8)
    /// A bcrypt cost below 10 was asked for outside dev mode.
    case weakPasswordHashCost(cost: UInt8)
    /// The seed file cannot be read or is invalid; nothing of it was written. Each problem
    /// names its path in the file: `tenants[1].courses[3].lessons[0].title: required`.
    case invalidSeedFile(path: String, problems: [String])

    public var description: String {
        switch self {
        case .devModeOnNetwork(let host):
            "Refusing to start in dev mode on \(host): dev mode (the /__dev endpoints and the demo logins) is "
                + "only for loopback addresses. Bind to 127.0.0.1 or pass --no-dev."
        case .demoAccountsOnNetwork(let host):
            "Refusing to start on \(host): tenants with published passwords (demo, acme, or test tenants made by "
                + "POST /__dev/tenants) exist or are to be seeded. Start once with --drop-demo-tenants to delete "
                + "them all (and without --seed-demo), or bind to 127.0.0.1."
        case .unreadableSigningKey(let path, let reason):
            "Refusing to start: the signing key \(path) exists but cannot be used (\(reason)). Fix its "
                + "permissions or contents, or move it away to have a new key created (tokens it signed will stop verifying)."
        case .passwordHashCostOutOfRange(let cost):
            "Refusing to start: --password-hash-cost \(cost) is not a bcrypt cost. Use 4 to 31 (12 is the default)."
        case .weakPasswordHashCost(let cost):
            "Refusing to start: --password-hash-cost \(cost) is below \(ServerConfiguration.minimumPasswordHashCostOutsideDevMode), "
                + "which is for dev-mode test accounts only. Use \(ServerConfiguration.minimumPasswordHashCostOutsideDevMode) "
                + "or more (12 is the default), or run in dev mode on a loopback address."
        case .invalidSeedFile(let path, let problems):
            "Refusing to start: the seed file \(path) was not applied (nothing of it was written):\n"
                + problems.map { "  \($0)" }.joined(separator: "\n")
        }
    }
}
