#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many tenant databases may be open, and connections served, at once under the process's
/// file-descriptor limit.
///
/// A tenant's database pool holds up to five SQLite connections (one writer, four readers), each
/// with the database, its WAL and its shared-memory file open: fifteen descriptors. A quarter of
/// the limit (at least 32) is left for sockets, the registry, media files and keys; the rest
/// decides the cap, so a low `ulimit -n` means fewer open tenants (reopened on demand), never a
/// database that cannot be opened. Connections get that quarter less ``otherDescriptors``: when
/// they are all taken the server stops accepting (further clients wait in the listen backlog)
/// instead of running out of descriptors, which made the accept loop spin and the tenants' pools
/// fail to open.
enum DescriptorBudget {
    /// Descriptors one open tenant database may use.
    static let perTenant = 15
    /// Descriptors kept for what is neither a tenant nor a connection: standard streams, the
    /// listening socket, the event loops' own, the registry's pool, a media file being served,
    /// the signing key and TLS files.
    static let otherDescriptors = 16

    /// The cap on concurrent connections: `configured`, lowered to what `limit` descriptors leave
    /// once the tenants' pools (``openTenantCap(configured:limit:)``) and ``otherDescriptors``
    /// are reserved (at least one).
    static func connectionCap(configured: Int, limit: Int?) -> Int {
        guard let limit else { return max(1, configured) }
        let reserve = max(32, limit / 4)
        return max(1, min(configured, reserve - otherDescriptors))
    }

    /// The cap on open tenant databases: `configured`, lowered to what `limit` descriptors allow
    /// (at least one).
    static func openTenantCap(configured: Int, limit: Int?) -> Int {
        guard let limit else { return max(1, configured) }
        let reserve = max(32, limit / 4)
        return max(1, min(configured, (limit - reserve) / perTenant))
    }

    /// The process's soft `RLIMIT_NOFILE`, or `nil` when it is unlimited or unknown.
    static func processLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
        let status = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
        let status = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        // RLIM_INFINITY is all ones, beyond Int.max: "unlimited" falls out with the bound.
        guard status == 0, limit.rlim_cur < rlim_t(Int.max) else { return nil }
        return Int(limit.rlim_cur)
    }
}
