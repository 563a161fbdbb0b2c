"""Reads a dev server's /metrics with prometheus_client's parser after known requests.

Run by .ci/metrics-check, which starts the server and exports EDUGO_URL, EDUGO_TENANT,
EDUGO_ADMIN_EMAIL and EDUGO_ADMIN_PASSWORD.
"""

import json
import os
import sys
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

URL = os.environ["EDUGO_URL"]
TENANT = os.environ["EDUGO_TENANT"]


def call(method, path, body=None, token=None):
    request = urllib.request.Request(URL + path, method=method, headers={"X-Tenant-ID": TENANT})
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def samples(text, name):
    """Every sample of the family `name` (counters are named without `_total` by the parser)."""
    found = []
    for family in text_string_to_metric_families(text):
        found += [s for s in family.samples if s.name == name]
    return found


def main():
    # Known traffic: 3 health checks, 1 login, 2 course lists, 1 unknown course (404).
    for _ in range(3):
        assert call("GET", "/health")[0] == 200
    status, body = call("POST", "/v1/auth/login",
                        {"email": os.environ["EDUGO_ADMIN_EMAIL"], "password": os.environ["EDUGO_ADMIN_PASSWORD"]})
    assert status == 200, (status, body)
    token = json.loads(body)["access_token"]
    for _ in range(2):
        assert call("GET", "/v1/courses?limit=5", token=token)[0] == 200
    assert call("GET", "/v1/courses/no-such-course", token=token)[0] == 404

    status, body = call("GET", "/metrics")
    assert status == 200, status
    text = body.decode()

    requests = samples(text, "edugo_http_requests_total")
    def count(method, route, code):
        return sum(s.value for s in requests
                   if s.labels == {"method": method, "route": route, "status": str(code)})

    expected = [("GET", "/health", 200, 3), ("POST", "/v1/auth/login", 200, 1),
                ("GET", "/v1/courses", 200, 2), ("GET", "/v1/courses/{id}", 404, 1)]
    failures = [f"{m} {r} {c}: {count(m, r, c)} != {n}" for m, r, c, n in expected if count(m, r, c) != n]
    # Route templates only: no raw id ever becomes a label value.
    raw = [s.labels for s in requests if "no-such-course" in s.labels.get("route", "")]
    if raw:
        failures.append(f"raw path in a route label: {raw}")
    for family in ("edugo_http_request_duration_seconds_count", "edugo_sqlite_transaction_duration_seconds_count",
                   "edugo_open_tenant_pools", "edugo_active_sessions"):
        if not samples(text, family):
            failures.append(f"no samples of {family}")
    if failures:
        print("metrics check failed:\n  " + "\n  ".join(failures))
        print(text)
        sys.exit(1)
    print(f"metrics check passed: {len(requests)} request series parsed by prometheus_client")


if __name__ == "__main__":
    main()
