"""The server load benchmark's measurements (started by Benchmarks/load, which builds the servers).

For each catalogue size, two edugo-server processes run: one as served (repeated list pages come
from the page cache) and one with the page cache off (`--page-cache 0`: every page is read from
SQLite), each holding the demo tenant grown to that size (20 or 5,000 courses, a tenth of the
added ones teacher1's drafts), and a plain Hummingbird baseline with a table of the same size.
All of them run from the start and are warmed up; then each round measures every role on every
server of both sizes and then the baselines, the two sizes in turn (20 first in even rounds,
5,000 first in odd ones): a ratio, across roles, servers or sizes, compares runs seconds apart.
`/health` is measured EduGo, bare, bare, EduGo and each side averaged. Prints a Markdown section.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROLES = {
    "student": ("student1@demo.edugo.dev", "Demo-Student-2026"),
    "teacher": ("teacher1@demo.edugo.dev", "Demo-Teacher-2026"),
    "admin": ("admin@demo.edugo.dev", "Demo-Admin-2026"),
}
SIZES = (20, 5000)


class Server:
    """A benchmark server process and the port it printed."""

    def __init__(self, binary, *arguments):
        self.log = tempfile.NamedTemporaryFile(prefix="bench-", suffix=".log", delete=False)
        # The server keeps its data under its temporary directory: one of its own, removed by stop().
        self.scratch = tempfile.mkdtemp(prefix="bench-data-")
        self.process = subprocess.Popen(
            [binary, *arguments], stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, "TMPDIR": self.scratch})
        self.port = None
        for _ in range(300):
            with open(self.log.name) as log:
                match = re.search(r"BENCH_PORT=(\d+)", log.read())
            if match:
                self.port = int(match.group(1))
                break
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        if not self.port:
            raise SystemExit(f"{binary} did not start: {open(self.log.name).read()[-500:]}")
        self.base = f"http://127.0.0.1:{self.port}"

    def call(self, method, path, token=None, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port)
        headers = {"Content-Type": "application/json", "X-Tenant-ID": "demo"}
        if token:
            headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        if response.status >= 300:
            raise SystemExit(f"{method} {path} answered {response.status}: {data[:200]}")
        return (json.loads(data) if data else None), response

    def login(self, role):
        email, password = ROLES[role]
        return self.call("POST", "/v1/auth/login", body={"email": email, "password": password})[0]["access_token"]

    def grow(self, to, admin, teacher):
        """Adds courses as teacher1 over one keep-alive connection until the tenant holds `to`."""
        have = self.call("GET", "/v1/courses?limit=1", admin)[0]["total"]
        conn = http.client.HTTPConnection("127.0.0.1", self.port)
        headers = {"Authorization": f"Bearer {teacher}", "Content-Type": "application/json"}
        for index in range(have, to):
            body = {"title": f"Curso de carga {index}", "description": "Un curso para medir la lista.",
                    "category": "science", "published": index % 10 != 0}
            conn.request("POST", "/v1/courses", body=json.dumps(body), headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status != 201:
                raise SystemExit(f"create course answered {response.status}")
        conn.close()

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            return int(re.search(r"VmHWM:\s+(\d+)", status.read()).group(1)) / 1024

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        os.unlink(self.log.name)
        shutil.rmtree(self.scratch, ignore_errors=True)


def wrk(url, duration, headers=(), script=None):
    """One wrk run at 64 connections: (req/s, p50 ms, p99 ms)."""
    command = ["wrk", "-t2", "-c64", f"-d{duration}s", "--latency"]
    for header in headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    out = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))

    def ms(label):
        value, unit = re.search(rf"\s{label}\s+([\d.]+)(us|ms|s)\b", out).groups()
        return float(value) / 1000 if unit == "us" else float(value) * 1000 if unit == "s" else float(value)

    return rps, ms("50%"), ms("99%")


def mean(runs):
    """The element-wise mean of wrk results."""
    return tuple(statistics.mean(values) for values in zip(*runs))


def lua(body):
    handle = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    handle.write(body)
    handle.close()
    return handle.name


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--duration", type=int, default=5)
    options = parser.parse_args()
    duration = options.duration

    servers = {size: (Server(f"{options.bin}/LoadTargetServer"),
                      Server(f"{options.bin}/LoadTargetServer", "--page-cache", "0")) for size in SIZES}
    baselines = {size: Server(f"{options.bin}/BaselineServer", "--rows", str(size)) for size in SIZES}
    tokens = {server: {role: server.login(role) for role in ROLES} for pair in servers.values() for server in pair}
    for size, pair in servers.items():
        for server in pair:
            server.grow(size, tokens[server]["admin"], tokens[server]["teacher"])
    # A fresh server's first seconds under load run slow (a student's page from the page cache at
    # 31k to 38k req/s, then 49k): every server reads each role's page, and each baseline both of
    # its routes, for two seconds before the rounds.
    for pair in servers.values():
        for server in pair:
            for role in ROLES:
                wrk(f"{server.base}/v1/courses?limit=20", 2, [f"Authorization: Bearer {tokens[server][role]}"])
    for server in baselines.values():
        for path in ("/courses-db", "/courses", "/health"):
            wrk(f"{server.base}{path}", 2)
    # The other routes are measured on the two servers of the smaller catalogue.
    served = servers[SIZES[0]][0]
    baseline = baselines[SIZES[0]]
    student = tokens[served]["student"]
    auth = [f"Authorization: Bearer {student}"]

    mine, _ = served.call("GET", "/v1/users/me/courses", student)
    course = mine["items"][0]["course"]["id"]
    lessons, _ = served.call("GET", f"/v1/courses/{course}/lessons", student)
    lesson = lessons["items"][0]["id"]
    _, head = served.call("GET", f"/v1/courses/{course}", student)
    etag = head.getheader("ETag")
    put = lua(f"""wrk.method = "PUT"
wrk.body = '{{"lesson_id":"{lesson}","watched_seconds":60}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["If-Match"] = "*"
wrk.headers["Authorization"] = "Bearer {student}"
""")
    login = lua("""wrk.method = "POST"
wrk.body = '{"email":"student2@demo.edugo.dev","password":"Demo-Student-2026"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Tenant-ID"] = "demo"
""")

    rows = {}

    def record(key, value):
        rows.setdefault(key, []).append(value)

    for round in range(options.rounds):
        for size in (SIZES if round % 2 == 0 else tuple(reversed(SIZES))):
            for role in ROLES:
                for name, server in zip(("served", "sqlite"), servers[size]):
                    header = [f"Authorization: Bearer {tokens[server][role]}"]
                    record((name, role, size), wrk(f"{server.base}/v1/courses?limit=20", duration, header))
            record(("grdb", size), wrk(f"{baselines[size].base}/courses-db", duration))
            record(("memory", size), wrk(f"{baselines[size].base}/courses", duration))
        # The thinnest ratio, so measured EduGo, bare, bare, EduGo: a window in which the
        # shared machine runs slow weighs on both sides of the round alike.
        ours = [wrk(f"{served.base}/health", duration)]
        bare = [wrk(f"{baseline.base}/health", duration) for _ in range(2)]
        ours.append(wrk(f"{served.base}/health", duration))
        record("ours_health", mean(ours))
        record("base_health", mean(bare))
        record("ours_304", wrk(f"{served.base}/v1/courses/{course}", duration, auth + [f"If-None-Match: {etag}"]))
        record("ours_put", wrk(f"{served.base}/v1/courses/{course}/progress", duration, script=put))
    record("ours_login", wrk(f"{served.base}/v1/auth/login", duration, script=login))
    base_rss = max(server.peak_rss_mb() for server in baselines.values())
    rss = max(server.peak_rss_mb() for pair in servers.values() for server in pair)
    for server in [*baselines.values(), *(server for pair in servers.values() for server in pair)]:
        server.stop()
    for path in (put, login):
        os.unlink(path)
    report(rows, rss, base_rss, options.rounds)


def report(rows, rss, base_rss, rounds):
    def med(key, i):
        return statistics.median(r[i] for r in rows[key])

    def ratio(a, b, i):
        # The median of per-round ratios: round k of one ran seconds from round k of the other.
        return statistics.median(x[i] / y[i] for x, y in zip(rows[a], rows[b]))

    def cell(key):
        return f"{med(key, 0):.0f} ({med(key, 2):.1f})"

    print(f"Median of {rounds} rounds; req/s (p99 ms). *Served*: edugo-server as it runs, a repeated page")
    print("answered from the tenant's page cache; *from SQLite*: the same server with the page cache off.")
    print()
    print("| role | courses | served | from SQLite | GRDB baseline | in-memory baseline |")
    print("|---|---:|---:|---:|---:|---:|")
    for role in ROLES:
        for size in SIZES:
            print(f"| {role} | {size:,} | {cell(('served', role, size))} | {cell(('sqlite', role, size))} | "
                  f"{cell(('grdb', size))} | {cell(('memory', size))} |")
    print()
    labels = {
        "ours_health": "EduGo `GET /health`", "base_health": "baseline `GET /health`",
        "ours_304": "EduGo `GET /v1/courses/{id}` with `If-None-Match` (304)",
        "ours_put": "EduGo `PUT /v1/courses/{id}/progress`",
        "ours_login": "EduGo `POST /v1/auth/login` (bcrypt cost 12, not tuned down)",
    }
    print("| other routes (20 courses) | req/s median (min–max) | p50 ms | p99 ms |")
    print("|---|---:|---:|---:|")
    for key, label in labels.items():
        spread = f"{min(r[0] for r in rows[key]):.0f}–{max(r[0] for r in rows[key]):.0f}"
        print(f"| {label} | {med(key, 0):.0f} ({spread}) | {med(key, 1):.2f} | {med(key, 2):.2f} |")
    print()
    print(f"Peak RSS: EduGo servers {rss:.0f} MB (the larger of the two), baseline {base_rss:.0f} MB.")
    print()

    targets = []
    for role in ROLES:
        for size in SIZES:
            targets.append((f"{role}, {size:,}: from SQLite ÷ GRDB baseline (req/s)",
                            ratio(("sqlite", role, size), ("grdb", size), 0), ">=", 1.0, "sqlite"))
            targets.append((f"{role}, {size:,}: from SQLite p99 ÷ GRDB baseline p99",
                            ratio(("sqlite", role, size), ("grdb", size), 2), "<=", 1.5, "p99"))
            targets.append((f"{role}, {size:,}: served ÷ in-memory baseline (req/s)",
                            ratio(("served", role, size), ("memory", size), 0), ">=", 0.5, "memory"))
        for name in ("served", "sqlite"):
            targets.append((f"{role}: 5,000 ÷ 20 courses, {'served' if name == 'served' else 'from SQLite'} (req/s)",
                            ratio((name, role, SIZES[1]), (name, role, SIZES[0]), 0), ">=", 0.8, "size"))
    targets.append(("health ÷ baseline health (req/s)", ratio("ours_health", "base_health", 0), ">=", 0.8, "health"))
    targets.append(("PUT progress ÷ GRDB baseline reads, 20 (req/s)",
                    ratio("ours_put", ("grdb", SIZES[0]), 0), ">=", 0.55, "put"))
    targets.append(("server peak RSS (MB)", rss, "<=", 100.0, "rss"))
    why = {
        "sqlite": "Each page from SQLite also authenticates the caller (live-session cache), runs the role's "
                  "visibility rule and writes eleven headers; the baseline reads rows and encodes them.",
        "p99": "Under 64 connections requests queue for the two threads that run both the handlers and their reads.",
        "memory": "The in-memory baseline answers constant bytes; a served page still checks the token "
                  "and the caller's session and writes the headers.",
        "size": "The page's cost grew with the catalogue: look at the query plan of this role's list.",
        "health": "Every response passes the hygiene, access-log, metrics and fault middlewares and gets "
                  "eleven security headers; the baseline has none.",
        "put": "A versioned progress write is one write transaction with a WAL commit, behind the single writer.",
        "rss": "Peak memory above budget: look for caches that grow.",
    }
    print("| target | measured | bar | status |")
    print("|---|---:|---:|---|")
    misses = []
    for name, value, op, bar, kind in targets:
        met = value >= bar if op == ">=" else value <= bar
        if met:
            status = "met"
        elif op == ">=" and bar / value >= 1.5:
            status = f"missed: {bar / value:.1f}× short"
        elif op == ">=":
            status = f"missed by {(1 - value / bar) * 100:.1f}%"
        else:
            status = f"missed by {(value / bar - 1) * 100:.1f}%"
        print(f"| {name} | {value:.2f} | {'≥' if op == '>=' else '≤'} {bar:g} | {status} |")
        if not met:
            misses.append((name, value, op, bar, status, why[kind]))
    print()
    print("### Where the server falls short (generated from the figures above)")
    print()
    if not misses:
        print("Every server target above is met in this run.")
    for name, value, op, bar, status, reason in misses:
        print(f"- *{name}*: {value:.2f} against {'≥' if op == '>=' else '≤'} {bar:g}, {status}. {reason}")


if __name__ == "__main__":
    sys.exit(main())
