"""Schemathesis hooks for EduGo: authenticate every generated request as the seeded admin of
a fresh dev tenant (created by .ci/fuzz before the run)."""
import os
import threading
import time

import requests
import schemathesis

BASE_URL = os.environ["EDUGO_URL"]
TENANT = os.environ["EDUGO_TENANT"]
EMAIL = os.environ["EDUGO_ADMIN_EMAIL"]
PASSWORD = os.environ["EDUGO_ADMIN_PASSWORD"]


@schemathesis.auth(refresh_interval=None)
class AdminBearer:
    """Signs in, and again every minute: access tokens live 15 minutes, and the fuzzer may log
    its own session out (the 401s in between are documented answers)."""

    _lock = threading.Lock()

    def __init__(self):
        self.token = None
        self.fetched = 0.0

    def get(self, case, ctx):
        if case.operation.path == "/v1/auth/logout":
            # Logging out revokes the session: give each logout a session of its own.
            return self._login()
        with self._lock:
            if self.token is None or time.time() - self.fetched > 60:
                self.token = self._login()
                self.fetched = time.time()
            return self.token

    @staticmethod
    def _login():
        response = requests.post(
            f"{BASE_URL}/v1/auth/login",
            json={"email": EMAIL, "password": PASSWORD},
            headers={"X-Tenant-ID": TENANT},
            timeout=30,
        )
        response.raise_for_status()
        return response.json()["access_token"]

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
