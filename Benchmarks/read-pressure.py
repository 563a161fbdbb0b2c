#!/usr/bin/env python3
"""Does a request wait behind other requests' database reads? (issue 43 item 3, issue 42 item 10)

Starts one edugo-server (file-backed, dev mode) seeded with a tenant of COURSES courses, then
measures the latency of `GET /health` and of a small course page (5 rows, a student) from one
sequential client, first with the server idle, then while 8 clients run the heaviest reads (a wide
search and a deep page, both past the page cache, a base-sync page of the whole catalogue, a
snapshot save) and one writer edits courses. Prints p50/p99 of both phases and the ratio
loaded p99 ÷ idle p99 (the bar: at most 2), each the median of a few rounds.

    Benchmarks/read-pressure.py .build/release/edugo-server [--courses 10000] [--samples 400] [--rounds 3]

Benchmarks/read-pressure builds the release binary and runs this (Benchmarks/run does).

Use a release binary for numbers worth comparing; a debug one shows the shape only.
"""
import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

WORDS = ["algebra", "geometry", "history", "biology", "physics", "poetry", "music", "chemistry", "drawing", "logic"]
TENANT = "bench"
PASSWORD = "Bench-Pass-2026"


def seed_file(path, courses):
    users = [
        {"email": "admin@bench.test", "password": PASSWORD, "role": "admin"},
        {"email": "teacher@bench.test", "password": PASSWORD, "role": "teacher"},
        {"email": "student@bench.test", "password": PASSWORD, "role": "student"},
    ]
    rows = [
        {"key": f"c{i}", "title": f"{WORDS[i % len(WORDS)].title()} {i}", "category": "mathematics",
         "description": f"{WORDS[(i * 7) % len(WORDS)]} and {WORDS[(i * 3) % len(WORDS)]}",
         "teacher": "teacher@bench.test", "lessons": [{"title": f"Lesson {i}"}]}
        for i in range(courses)
    ]
    with open(path, "w") as file:
        json.dump({"tenants": [{"id": TENANT, "users": users, "courses": rows}]}, file)


class Client:
    def __init__(self, port):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method, path, token=None, body=None):
        headers = {"X-Tenant-ID": TENANT, "Content-Type": "application/json"}
        if token:
            headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
                response = self.connection.getresponse()
                return response.status, response.read(), response.getheader("ETag")
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                if attempt:
                    raise

    def login(self, email):
        status, body, _ = self.call("POST", "/v1/auth/login", body={"email": email, "password": PASSWORD})
        if status != 200:
            raise SystemExit(f"login {email}: {status} {body[:200]}")
        return json.loads(body)["access_token"]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def probe(client, token, samples):
    """Alternates /health and the small page; answers each route's latencies in milliseconds."""
    latencies = {"health": [], "page": []}
    for index in range(samples):
        for name, path, auth in (("health", "/health", None), ("page", "/v1/courses?limit=5", token)):
            started = time.perf_counter()
            status, _, _ = client.call("GET", path, token=auth)
            latencies[name].append((time.perf_counter() - started) * 1000)
            if status != 200:
                raise SystemExit(f"{path}: {status}")
    return latencies


def heavy_reader(port, token, courses, stop, counts, index):
    client = Client(port)
    rng = random.Random(index)
    pages = max(1, courses // 20)
    kinds = ["search", "deep", "base", "snapshot"]
    while not stop.is_set():
        kind = kinds[(index + counts[index]) % len(kinds)]
        if kind == "search":
            # A prefix of one of ten words matches a tenth of the catalogue; each prefix is new to the page cache.
            word = rng.choice(WORDS)
            path = f"/v1/courses?q={word[:rng.randint(2, len(word))]}&limit=100&page={rng.randint(1, 5)}"
            client.call("GET", path, token=token)
        elif kind == "deep":
            client.call("GET", f"/v1/courses?page={rng.randint(pages // 2, pages)}&limit=20", token=token)
        elif kind == "base":
            client.call("GET", "/v1/sync/changes?limit=100", token=token)
        else:
            status, body, _ = client.call("POST", f"/__dev/tenants/{TENANT}/snapshots")
            if status == 201:
                client.call("DELETE", f"/__dev/tenants/{TENANT}/snapshots/{json.loads(body)['id']}")
        counts[index] += 1


def writer(port, token, ids, stop, counts, rate):
    client = Client(port)
    rng = random.Random(99)
    started = time.perf_counter()
    while not stop.is_set():
        if rate:
            # Paced: the next write waits for its turn.
            delay = started + counts[-1] / rate - time.perf_counter()
            if delay > 0:
                stop.wait(delay)
                continue
        course = f"/v1/courses/{rng.choice(ids)}"
        status, body, etag = client.call("GET", course, token=token)
        if status == 200:
            client.call("PATCH", course, token=token, body={"version": json.loads(body)["version"], "title": f"Edited {rng.random()}"})
        counts[-1] += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--courses", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=400)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--write-rate", type=float, default=0, help="writes a second (0: as fast as answered)")
    arguments = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="read-pressure-")
    seed = os.path.join(scratch, "seed.json")
    seed_file(seed, arguments.courses)
    log = open(os.path.join(scratch, "server.log"), "w")
    server = subprocess.Popen(
        [arguments.binary, "--port", "0", "--data-dir", os.path.join(scratch, "data"), "--seed", seed,
         "--password-hash-cost", "4", "--max-snapshots", "1000", "--idle-timeout", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        port = None
        deadline = time.time() + 600
        while port is None and time.time() < deadline and server.poll() is None:
            time.sleep(0.2)
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", open(log.name).read())
            port = int(match.group(1)) if match else None
        if port is None:
            raise SystemExit(f"the server did not start: {open(log.name).read()[-800:]}")
        client = Client(port)
        student = client.login("student@bench.test")
        admin = client.login("admin@bench.test")
        teacher = client.login("teacher@bench.test")
        _, body, _ = client.call("GET", "/v1/courses?limit=100", token=teacher)
        ids = [item["id"] for item in json.loads(body)["items"]]

        probe(client, student, 20)  # warm-up
        rounds = []
        for _ in range(arguments.rounds):
            idle = probe(client, student, arguments.samples)
            # The load runs in processes of its own: threads of this one would hold the interpreter's
            # lock while they parse large answers, and the probe would measure waiting for it.
            context = multiprocessing.get_context("fork")
            stop = context.Event()
            counts = context.Array("q", arguments.readers + 1, lock=False)
            workers = [context.Process(target=heavy_reader, args=(port, admin, arguments.courses, stop, counts, index))
                       for index in range(arguments.readers)]
            workers.append(context.Process(target=writer, args=(port, teacher, ids, stop, counts, arguments.write_rate)))
            for worker in workers:
                worker.start()
            time.sleep(2)
            started = time.perf_counter()
            loaded = probe(client, student, arguments.samples)
            seconds = time.perf_counter() - started + 2
            stop.set()
            for worker in workers:
                worker.join()
            rounds.append((idle, loaded, sum(counts[:-1]) / seconds, counts[-1] / seconds))

        def median_of(values):
            return statistics.median(values)

        print(f"{arguments.courses:,} courses; {arguments.readers} heavy readers and 1 writer in processes of their "
              f"own; {arguments.samples} samples of each route per phase; median of {arguments.rounds} rounds "
              f"(min–max). Under load the server answered {median_of([r[2] for r in rounds]):.0f} heavy requests "
              f"and {median_of([r[3] for r in rounds]):.0f} writes a second.")
        print()
        print("| route | idle p50 ms | idle p99 ms | loaded p50 ms | loaded p99 ms | loaded p99 ÷ idle p99 | target |")
        print("|---|---:|---:|---:|---:|---:|---|")
        for name, label in (("health", "`GET /health`"), ("page", "`GET /v1/courses?limit=5` (student)")):
            ratios = [percentile(loaded[name], 0.99) / percentile(idle[name], 0.99) for idle, loaded, _, _ in rounds]
            cells = [median_of([statistics.median(r[0][name]) for r in rounds]),
                     median_of([percentile(r[0][name], 0.99) for r in rounds]),
                     median_of([statistics.median(r[1][name]) for r in rounds]),
                     median_of([percentile(r[1][name], 0.99) for r in rounds])]
            ratio = median_of(ratios)
            print(f"| {label} | " + " | ".join(f"{cell:.2f}" for cell in cells)
                  + f" | {ratio:.2f} ({min(ratios):.2f}–{max(ratios):.2f}) | ≤ 2: {'met' if ratio <= 2 else 'not met'} |")
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
