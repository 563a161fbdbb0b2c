"""Searches and deep pages for every role at 20 and 5,000 courses (started by Benchmarks/roles).

Search is for `curso`, which every added course matches: the widest search there is. Uses the
servers and wrk runs of load.py. Prints a Markdown section.
"""
import argparse
import sys

from load import ROLES, SIZES, Server, wrk


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--duration", type=int, default=5)
    options = parser.parse_args()
    servers = {
        "served": Server(f"{options.bin}/LoadTargetServer"),
        "sqlite": Server(f"{options.bin}/LoadTargetServer", "--page-cache", "0"),
    }
    tokens = {name: {role: server.login(role) for role in ROLES} for name, server in servers.items()}

    def measure(name, role, path):
        server = servers[name]
        return wrk(server.base + path, options.duration, [f"Authorization: Bearer {tokens[name][role]}"])

    results = {}
    for size in SIZES:
        for name, server in servers.items():
            server.grow(size, tokens[name]["admin"], tokens[name]["teacher"])
        for role in ROLES:
            for name in servers:
                results[(name, role, size, "search")] = measure(name, role, "/v1/courses/search?q=curso&limit=20")
    for role in ROLES:
        results[(role, "page 1")] = measure("sqlite", role, "/v1/courses?limit=20")
        after = None
        for _ in range(199):
            page, _ = servers["sqlite"].call(
                "GET", "/v1/courses?limit=20" + (f"&after={after}" if after else ""), tokens["sqlite"][role])
            after = page.get("next")
        results[(role, "page 200 by after")] = measure("sqlite", role, f"/v1/courses?limit=20&after={after}")
        results[(role, "page 200 by page=")] = measure("sqlite", role, "/v1/courses?limit=20&page=200")
    for server in servers.values():
        server.stop()

    print("Search, req/s (p99 ms); target: at 5,000 courses ≥ 0.5× its rate at 20.")
    print()
    print("| role | search | 20 courses | 5,000 courses | 5,000 ÷ 20 |")
    print("|---|---|---:|---:|---:|")
    for role in ROLES:
        for name, label in (("served", "served"), ("sqlite", "from SQLite")):
            small, large = results[(name, role, SIZES[0], "search")], results[(name, role, SIZES[1], "search")]
            print(f"| {role} | {label} | {small[0]:.0f} ({small[2]:.1f}) | {large[0]:.0f} ({large[2]:.1f}) | "
                  f"{large[0] / small[0]:.2f} |")
    print()
    print("Deep pages at 5,000 courses with the page cache off; target: page 200 ≥ 0.8× page 1.")
    print()
    print("| role | request | req/s (p99 ms) | ÷ page 1 |")
    print("|---|---|---:|---:|")
    for role in ROLES:
        first = results[(role, "page 1")]
        for kind in ("page 1", "page 200 by after", "page 200 by page="):
            value = results[(role, kind)]
            print(f"| {role} | {kind} | {value[0]:.0f} ({value[2]:.1f}) | {value[0] / first[0]:.2f} |")


if __name__ == "__main__":
    sys.exit(main())
