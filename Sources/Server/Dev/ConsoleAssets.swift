import Foundation

/// The dev console's static files, shipped as bundle resources (`Resources/Console`) and read once.
///
/// Only the names in ``contentTypes`` are ever served: a request names an entry of this fixed
/// list, never a path, so nothing else in the bundle or on disk can be reached.
struct ConsoleAssets: Sendable {
    /// A file ready to send.
    struct Asset: Sendable {
        var contentType: String
        var bytes: [UInt8]
    }

    /// Every servable file and its media type.
    static let contentTypes: [String: String] = [
        "index.html": "text/html; charset=utf-8",
        "console.css": "text/css; charset=utf-8",
        "console.js": "text/javascript; charset=utf-8",
        "api.js": "text/javascript; charset=utf-8",
        "dom.js": "text/javascript; charset=utf-8",
        "tenants.js": "text/javascript; charset=utf-8",
        "mailbox.js": "text/javascript; charset=utf-8",
        "requests.js": "text/javascript; charset=utf-8",
        "faults.js": "text/javascript; charset=utf-8",
        "snapshots.js": "text/javascript; charset=utf-8",
        "act.js": "text/javascript; charset=utf-8",
        "feed.js": "text/javascript; charset=utf-8",
        "clock.js": "text/javascript; charset=utf-8",
        "server.js": "text/javascript; charset=utf-8",
        "icon.svg": "image/svg+xml",
    ]

    /// The console's Content-Security-Policy: everything from this server only, nothing inline,
    /// no `eval`, no framing, no plugins, no forms posting elsewhere.
    static let contentSecurityPolicy =
        "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"

    private let assets: [String: Asset]

    /// Reads every listed file from the server's resource bundle; a file missing there is not served (404).
    static func load() -> ConsoleAssets {
        var assets: [String: Asset] = [:]
        for (name, contentType) in contentTypes {
            let url = Bundle.module.resourceURL?.appendingPathComponent("Console", isDirectory: true)
                .appendingPathComponent(name)
            if let url, let data = try? Data(contentsOf: url) {
                assets[name] = Asset(contentType: contentType, bytes: Array(data))
            }
        }
        return ConsoleAssets(assets: assets)
    }

    /// The file of that name, if it is on the list (and was found in the bundle).
    subscript(name: String) -> Asset? { assets[name] }
}
