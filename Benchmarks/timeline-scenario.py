#!/usr/bin/env python3
"""Issue #41's scenario, run against built binaries (release by default), as a new user would.

A student's device (`edugo`) syncs a tenant of 60 courses; the tenant is saved as a snapshot; a
teacher renames 20 courses and the device pulls them; the device goes quiet; the snapshot is
restored (the 20 renames are undone); the teacher renames 30 other courses; the device runs
`edugo sync now`. It must print one line naming the reset, and its offline course list must equal
a fresh device's, course by course.

Usage: Benchmarks/timeline-scenario.py [BIN_DIR]   (default: .build/release; build it with
       `swift build -c release --product edugo-server && swift build -c release --product edugo`)
Exit 0 when the device converged and named the reset, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release"
TENANT = "timeline-scenario"
TEACHER = ("teacher@timeline.test", "Timeline-Teacher-2026")
STUDENT = ("student@timeline.test", "Timeline-Student-2026")


def seed_file(directory):
    path = os.path.join(directory, "seed.json")
    courses = [
        {"title": f"Course {n:02d}", "description": f"Course number {n}.", "category": "mathematics",
         "published": True, "teacher": TEACHER[0], "lessons": [{"title": "Intro", "content": "Hello.", "duration_minutes": 5}]}
        for n in range(60)
    ]
    tenant = {
        "id": TENANT, "name": "Timeline scenario",
        "users": [
            {"email": TEACHER[0], "password": TEACHER[1], "role": "teacher", "first_name": "Tea", "last_name": "Cher"},
            {"email": STUDENT[0], "password": STUDENT[1], "role": "student", "first_name": "Stu", "last_name": "Dent"},
        ],
        "courses": courses, "enrollments": [], "progress": [],
    }
    with open(path, "w") as file:
        json.dump({"tenants": [tenant]}, file)
    return path


def start_server(directory):
    server = subprocess.Popen(
        [os.path.join(BIN, "edugo-server"), "--port", "0", "--data-dir", os.path.join(directory, "server"),
         "--seed", seed_file(directory)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in server.stdout:
        found = re.search(r"listening on (http://\S+)", line)
        if found:
            return server, found.group(1).rstrip("/")
    raise SystemExit("edugo-server did not say where it listens")


def call(base, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json", "X-Tenant-ID": TENANT}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def cli(base, device, *arguments, stdin=None):
    command = [os.path.join(BIN, "edugo"), *arguments[:1]]
    rest = list(arguments[1:])
    # Options go after the last subcommand word.
    words = []
    while rest and not rest[0].startswith("-"):
        words.append(rest.pop(0))
    command += words + ["--server", base, "--tenant", TENANT, "--data-dir", device] + rest
    return subprocess.run(command, input=stdin, capture_output=True, text=True)


def offline_courses(base, device):
    listed = cli(base, device, "courses", "list", "--offline", "--json")
    if listed.returncode != 0:
        raise SystemExit(f"courses list --offline failed: {listed.stderr}")
    value = json.loads(listed.stdout)
    items = value["items"] if isinstance(value, dict) and "items" in value else value
    return {course["id"]: course["title"] for course in items}


def sign_in(base, device):
    login = cli(base, device, "login", "--email", STUDENT[0], "--password-stdin", stdin=STUDENT[1] + "\n")
    if login.returncode != 0:
        raise SystemExit(f"login failed: {login.stderr}")


def main():
    work = tempfile.mkdtemp(prefix="edugo-timeline-")
    server, base = start_server(work)
    try:
        device = os.path.join(work, "device")
        sign_in(base, device)
        assert cli(base, device, "sync", "now").returncode == 0
        teacher = call(base, "POST", "/v1/auth/login", {"email": TEACHER[0], "password": TEACHER[1]})["access_token"]

        def courses():
            return sorted(call(base, "GET", "/v1/courses?limit=100", token=teacher)["items"], key=lambda c: c["title"])

        def rename(course, title):
            call(base, "PATCH", f"/v1/courses/{course['id']}", {"title": title, "version": course["version"]}, token=teacher)

        snapshot = call(base, "POST", f"/__dev/tenants/{TENANT}/snapshots")["id"]
        for course in courses()[:20]:
            rename(course, course["title"] + " (undone by the restore)")
        assert cli(base, device, "sync", "now").returncode == 0
        pulled = sum(title.endswith("(undone by the restore)") for title in offline_courses(base, device).values())
        call(base, "POST", f"/__dev/tenants/{TENANT}/restore", {"snapshot_id": snapshot})
        # The teacher's token rotated after the snapshot: sign in again on the restored data.
        teacher = call(base, "POST", "/v1/auth/login", {"email": TEACHER[0], "password": TEACHER[1]})["access_token"]
        for course in courses()[30:]:
            rename(course, course["title"] + " (after the restore)")

        synced = cli(base, device, "sync", "now")
        named = [line for line in synced.stdout.splitlines() if line.startswith("the server's data was replaced")]
        mine = offline_courses(base, device)
        fresh_device = os.path.join(work, "fresh")
        sign_in(base, fresh_device)
        assert cli(base, fresh_device, "sync", "now").returncode == 0
        fresh = offline_courses(base, fresh_device)
        wrong = sorted(set(mine.items()) ^ set(fresh.items()))
        print(f"device pulled {pulled} renames before the restore; after it, sync now exited {synced.returncode}")
        print(f"reset line: {named[0] if named else 'none'}")
        print(f"courses on the device {len(mine)}, on a fresh device {len(fresh)}, differing entries {len(wrong)}")
        ok = synced.returncode == 0 and len(named) == 1 and not wrong and len(fresh) == 60 and pulled == 20
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
