/// Why the server refuses to start. The description says what to change.
public enum StartupError: Error, Equatable, CustomStringConvertible {
    /// Dev mode was asked for on an address that is not loopback.
    case devModeOnNetwork(host: String)
    /// Demo data was to be seeded, or a tenant with published passwords is present, on a server
    /// bound beyond loopback.
    case demoAccountsOnNetwork(host: String)
    /// The signing key file exists but cannot be read or parsed.
    case unreadableSigningKey(path: String, reason: String)

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
        }
    }
}
