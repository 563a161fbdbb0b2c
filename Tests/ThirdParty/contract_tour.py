#!/usr/bin/env python3
"""The contract as a client no one here wrote sees it: every operation of openapi.yaml called over
HTTP against a live dev-mode edugo-server, each request and answer checked by openapi-core (an
independent OpenAPI 3.1 validator, from another ecosystem than the server and its Swift client), and
the live stream read through two SSE libraries (httpx-sse and sseclient-py), its events checked
against the spec's event schemas.

Besides the walk through all operations it checks what third-party tools were seen to stumble on:
- `GET /v1/sync/events` answers events that match `SyncEvent` (one schema per event type);
- the paging parameter `page` declares no default, and a list continued with `after` alone works;
- media uploads and downloads (200 and 206) pass openapi-core as raw bytes;
- every GET answers HEAD with the same status and documented headers and no body, read as its GET;
- a method a path does not support answers 405, as documented on that path's operations;
- a dev fault rule's status (503, and 499 that has no reason phrase) is declared and has a title;
- an unknown body member is listed beside the other invalid members, not instead of them;
- `POST /__dev/tenants` with `Content-Type: application/json` and no body makes the built-in tenant;
- the error-code list names `too_many_streams` and `stream_capacity`, and field errors say
  `unknown_field` as the wire does.

Usage: Tests/ThirdParty/contract_tour.py --url http://127.0.0.1:PORT [--spec openapi.yaml]
The server must run with --dev (.ci/contract-tour starts one). Exit status 0 when every check held;
the last line reads 'contract tour: N passed, N failed'.
"""
import argparse
import json
import os
import sys
import time
import uuid

import httpx
import jsonschema
import requests
import sseclient
import yaml
from httpx_sse import connect_sse
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from openapi_core.deserializing.media_types.util import json_loads, plain_loads
from openapi_core.validation.response.validators import V31ResponseHeadersValidator
from werkzeug.datastructures import Headers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 30  # seconds for any one request; a stream read waits at most this long for an event
METHODS = ("get", "put", "post", "delete", "patch")


def yaml_loads(value, **parameters):
    return yaml.safe_load(value)


# openapi-core reads only the media types it lists as text or JSON, every other one as bytes (which
# no `type: string` or `type: object` accepts). RFC 9457's problem+json is JSON, YAML (the spec
# itself, declared as an object) is read as one, the rest are text.
MEDIA_TYPES = {
    "application/problem+json": json_loads,
    "application/yaml": yaml_loads,
    "text/css": plain_loads,
    "text/javascript": plain_loads,
    "image/svg+xml": plain_loads,
}


class TourFailure(Exception):
    """A step that the rest of the tour cannot go on without."""


class StreamedResponse:
    """A response whose headers openapi-core checks while its body (an event stream) is still open."""

    def __init__(self, status_code, headers):
        self.status_code = status_code
        self.headers = Headers(dict(headers))
        self.content_type = self.headers.get("Content-Type", "")
        self.data = b""


class Tour:
    def __init__(self, url, spec_path):
        self.url = url.rstrip("/")
        with open(spec_path) as file:
            self.document = yaml.safe_load(file)
        self.api = OpenAPI.from_file_path(spec_path, config=Config(extra_media_type_deserializers=MEDIA_TYPES))
        self.headers_api = OpenAPI.from_file_path(spec_path, config=Config(
            extra_media_type_deserializers=MEDIA_TYPES, response_validator_cls=V31ResponseHeadersValidator))
        self.session = requests.Session()
        self.succeeded = set()
        self.validated = 0
        self.passed = 0
        self.failures = []
        self.events_read = 0
        self.heads = 0
        self.operations = {
            op["operationId"]: (method, path)
            for path, item in self.document["paths"].items()
            for method, op in item.items() if method in METHODS
        }

    # MARK: - Checks

    def check(self, condition, message):
        if condition:
            self.passed += 1
        else:
            self.failures.append(message)
            print(f"FAIL {message}", flush=True)

    def require(self, condition, message):
        if not condition:
            raise TourFailure(message)

    def validate(self, label, request, response, api=None):
        """openapi-core's verdict on one answer (and on the request, when it is ours to check)."""
        api = api or self.api
        try:
            api.validate_response(request, response)
            self.validated += 1
            self.passed += 1
        except Exception as error:  # openapi-core raises one of many validation errors
            detail = getattr(error, "__cause__", None) or ""
            self.failures.append(f"{label}: openapi-core refused the answer: {error} {detail}")
            print(f"FAIL {label}: {error} {detail}", flush=True)

    # MARK: - One operation

    def call(self, operation_id, params=None, token=None, tenant=None, json_body=None, data=None,
             content_type=None, headers=None, query=None, expect=None, valid=True):
        """Calls the operation and has openapi-core check the request and the answer; returns the answer.

        `valid=False` sends a request the spec refuses on purpose: openapi-core must refuse it too.
        """
        method, template = self.operations[operation_id]
        path = template.format(**(params or {}))
        all_headers = dict(headers or {})
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        if tenant:
            all_headers["X-Tenant-ID"] = tenant
        if content_type:
            all_headers["Content-Type"] = content_type
        prepared = requests.Request(
            method.upper(), self.url + path, headers=all_headers, params=query, json=json_body, data=data
        ).prepare()
        response = self.session.send(prepared, timeout=TIMEOUT)
        label = f"{operation_id} ({method.upper()} {path} → {response.status_code})"
        request = RequestsOpenAPIRequest(prepared)
        try:
            self.api.validate_request(request)
            self.check(valid, f"{label}: openapi-core accepted a request the spec refuses")
        except Exception as error:
            self.check(not valid, f"{label}: openapi-core refused the request: {error} {error.__cause__ or ''}")
        self.validate(label, request, RequestsOpenAPIResponse(response))
        if expect is not None:
            self.require(response.status_code == expect, f"{label}: expected {expect}: {response.text[:500]}")
        if 200 <= response.status_code < 400:
            self.succeeded.add(operation_id)
            if method == "get":
                self.head_as_get(operation_id, prepared, response)
        return response

    def head_as_get(self, operation_id, prepared, answer):
        """HEAD is read as the path's GET: the same status and documented headers, and no body."""
        head = requests.Request("HEAD", prepared.url, headers=dict(prepared.headers)).prepare()
        response = self.session.send(head, timeout=TIMEOUT)
        label = f"HEAD as {operation_id} ({response.status_code})"
        self.heads += 1
        self.check(response.status_code == answer.status_code, f"{label}: GET answered {answer.status_code}")
        self.check(response.content == b"", f"{label}: has a body of {len(response.content)} bytes")
        documented = self.document_headers(operation_id, answer.status_code)
        missing = [name for name in documented if name in answer.headers and name not in response.headers]
        self.check(not missing, f"{label}: lacks the GET's headers {missing}")
        self.validate(label, RequestsOpenAPIRequest(prepared), StreamedResponse(response.status_code, response.headers),
                      api=self.headers_api)

    def document_headers(self, operation_id, status):
        method, path = self.operations[operation_id]
        response = self.document["paths"][path][method]["responses"].get(str(status), {})
        if "$ref" in response:
            response = self.document["components"]["responses"][response["$ref"].split("/")[-1]]
        return list(response.get("headers", {}))

    # MARK: - Helpers

    def mail_token(self, kind, email, tenant):
        mails = self.call("devGetMailbox", tenant=tenant, query={"email": email}, expect=200).json()["items"]
        match = next((mail for mail in mails if mail["kind"] == kind), None)
        self.require(match is not None, f"no {kind} mail to {email}")
        return match["token"]

    def sign_in(self, email, password, tenant):
        return self.call("login", tenant=tenant, json_body={"email": email, "password": password}, expect=200).json()

    def event_schema(self):
        """What the stream's `200` declares for `text/event-stream`: in OpenAPI 3.1, one event's schema."""
        content = self.document["paths"]["/v1/sync/events"]["get"]["responses"]["200"]["content"]
        return content["text/event-stream"]["schema"]

    def resolve(self, schema):
        while "$ref" in schema:
            schema = self.document["components"]["schemas"][schema["$ref"].split("/")[-1]]
        return schema

    def check_event(self, label, event):
        """One event, as an SSE parser reads it, against the stream's declared schema (`SyncEvent`), and
        its `data` against the `contentSchema` of the branch its `event` names."""
        self.events_read += 1
        components = {"components": self.document["components"]}
        try:
            schema = self.event_schema()
            jsonschema.Draft202012Validator({**schema, **components}).validate(event)
            mapping = self.resolve(schema)["discriminator"]["mapping"]
            branch = self.resolve({"$ref": mapping[event["event"]]})
            content = branch["properties"]["data"]["contentSchema"]
            jsonschema.Draft202012Validator({**content, **components}).validate(json.loads(event["data"]))
            self.passed += 1
        except Exception as error:  # a schema that does not match, or is missing or unreadable
            self.failures.append(f"{label}: event {event} does not match the stream's schema: {error}")
            print(f"FAIL {label}: {event}: {error}", flush=True)

    # MARK: - The tour

    def run(self):
        self.static_checks()
        self.call("getHealth", expect=200)
        self.call("getJwks", expect=200)
        self.call("getOpenApiDocument", expect=200)
        self.call("getMetrics", expect=200)

        # A fresh tenant, asked for the way a generated client asks: JSON media type, no body.
        tenant = self.call("devCreateTenant", content_type="application/json", data=b"", expect=201).json()
        tid = tenant["tenant_id"]
        accounts = {account["role"]: account for account in tenant["accounts"]}

        # A newcomer signs up, verifies, resets the password and refreshes.
        email = f"tour-{uuid.uuid4().hex[:8]}@example.com"
        self.call("register", tenant=tid, expect=202, json_body={
            "email": email, "password": "Tour-Password-1", "first_name": "Tour", "last_name": "Guide"})
        self.call("resendVerification", tenant=tid, json_body={"email": email}, expect=202)
        token = self.mail_token("verify_email", email, tid)
        self.call("verifyEmail", tenant=tid, query={"token": token}, expect=200)
        self.call("forgotPassword", tenant=tid, json_body={"email": email}, expect=202)
        token = self.mail_token("reset_password", email, tid)
        self.call("resetPassword", tenant=tid, json_body={"token": token, "password": "Tour-Password-2"}, expect=204)
        pair = self.sign_in(email, "Tour-Password-2", tid)
        pair = self.call("refreshTokens", tenant=tid, json_body={"refresh_token": pair["refresh_token"]}, expect=200).json()
        student = pair["access_token"]
        learner_id = self.call("getMe", token=student, expect=200).json()["id"]
        profile = self.call("getMyProfile", token=student, expect=200).json()
        self.call("updateMyProfile", token=student, json_body={"first_name": "Touring", "version": profile["version"]},
                  expect=200)

        # User administration, and a list continued with `after` alone (what a generated client sends).
        admin = self.sign_in(accounts["admin"]["email"], accounts["admin"]["password"], tid)["access_token"]
        first = self.call("listUsers", token=admin, query={"limit": 1}, expect=200).json()
        self.require(first.get("next"), "listUsers with limit=1 gave no next")
        self.call("listUsers", token=admin, query={"limit": 1, "after": first["next"]}, expect=200)
        self.call("searchUsers", token=admin, query={"q": "tour"}, expect=200)
        user = self.call("createUser", token=admin, expect=201, json_body={
            "email": f"staff-{uuid.uuid4().hex[:8]}@example.com", "password": "Staff-Password-1",
            "first_name": "S", "last_name": "T", "role": "student"}).json()
        fetched = self.call("getUser", token=admin, params={"id": user["id"]}, expect=200)
        self.call("getUser", token=admin, params={"id": user["id"]}, headers={"If-None-Match": fetched.headers["ETag"]},
                  expect=304)
        self.call("updateUser", token=admin, params={"id": user["id"]},
                  json_body={"last_name": "Updated", "version": fetched.json()["version"]}, expect=200)
        self.call("deleteUser", token=admin, params={"id": user["id"]}, expect=204)

        # A teacher's course and lesson.
        teacher = self.sign_in(accounts["teacher"]["email"], accounts["teacher"]["password"], tid)["access_token"]
        refused = self.call("createCourse", token=teacher, json_body={"category": "cooking", "level": "advanced"},
                            expect=400, valid=False).json()
        fields = [error["field"] for error in refused.get("errors", [])]
        self.check(fields == ["title", "category", "level"],
                   f"an unknown member hid the others: errors name {fields}, not title, category and level")
        self.check([error["code"] for error in refused.get("errors", [])][-1:] == ["unknown_field"],
                   "the unknown member's code is not unknown_field")
        course = self.call("createCourse", token=teacher, expect=201,
                           json_body={"title": "Tour course", "category": "science", "published": True}).json()
        first = self.call("listCourses", token=teacher, query={"limit": 1}, expect=200).json()
        self.require(first.get("next"), "listCourses with limit=1 gave no next")
        self.call("listCourses", token=teacher, query={"limit": 1, "after": first["next"]}, expect=200)
        self.call("searchCourses", token=teacher, query={"q": "tour course"}, expect=200)
        current = self.call("getCourse", token=teacher, params={"id": course["id"]}, expect=200).json()
        self.call("updateCourse", token=teacher, params={"id": course["id"]},
                  json_body={"description": "Updated.", "version": current["version"]}, expect=200)
        lesson = self.call("createLesson", token=teacher, params={"id": course["id"]},
                           json_body={"title": "Tour lesson"}, expect=201).json()
        self.call("listLessons", token=teacher, params={"id": course["id"]}, expect=200)
        ids = {"id": course["id"], "lessonId": lesson["id"]}
        self.call("getLesson", token=teacher, params=ids, expect=200)
        lesson = self.call("updateLesson", token=teacher, params=ids,
                           json_body={"content": "More.", "version": lesson["version"]}, expect=200).json()

        # The learner enrolls, makes progress, pulls changes.
        self.call("enroll", token=student, params={"id": course["id"]}, expect=201)
        self.call("putProgress", token=student, params={"id": course["id"]},
                  json_body={"lesson_id": lesson["id"], "completed": True}, expect=200)
        self.call("getProgress", token=student, params={"id": course["id"]}, expect=200)
        self.call("listMyCourses", token=student, expect=200)
        self.call("listChanges", token=student, query={"limit": 1000}, expect=200)

        # Media as raw bytes: uploaded, downloaded whole (200) and in part (206), removed.
        pdf = b"%PDF-1.7\n" + bytes(range(256)) * 4
        lesson = self.call("uploadLessonMedia", token=teacher, params=ids, data=pdf, content_type="application/pdf",
                           headers={"If-Match": f'"{lesson["version"]}"'}, expect=200).json()
        whole = self.call("downloadLessonMedia", token=student, params=ids, expect=200)
        self.check(whole.content == pdf, "the downloaded media differs from the upload")
        part = self.call("downloadLessonMedia", token=student, params=ids, headers={"Range": "bytes=0-99"}, expect=206)
        self.check(part.content == pdf[:100], "the 206 answer is not the first 100 bytes")
        self.call("deleteLessonMedia", token=teacher, params=ids, headers={"If-Match": f'"{lesson["version"]}"'},
                  expect=200)
        self.call("unenroll", token=student, params={"id": course["id"]}, expect=204)

        # Faults: injected statuses are declared (4XX/5XX) and their problems have a title.
        self.fault_checks(tid, student)
        self.method_not_allowed_checks()

        # The live stream through two SSE libraries, then the learner signs out.
        self.stream_checks(tid, email, student)

        self.call("deleteLesson", token=teacher, params=ids, expect=204)
        self.call("deleteCourse", token=teacher, params={"id": course["id"]}, expect=204)

        # Dev tools.
        rule = self.call("devCreateFault", tenant=tid, expect=201, json_body={
            "method": "GET", "path": "/v1/courses/*", "action": "status", "times": 1, "status": 503, "retry_after": 1})
        self.call("devListFaults", tenant=tid, expect=200)
        self.call("devDeleteFault", tenant=tid, params={"id": rule.json()["id"]}, expect=204)
        self.call("devDeleteFaults", tenant=tid, expect=204)
        self.call("devConsole", expect=200)
        self.call("devConsoleAsset", params={"name": "console.css"}, expect=200)
        self.call("devListTenants", expect=200)
        self.call("devListTenantUsers", params={"id": tid}, expect=200)
        # Acting as the newcomer needs no session of theirs (the tour signed them out by now).
        acting = self.call("devImpersonateUser", params={"id": tid, "userId": learner_id}, expect=200).json()
        self.call("getMe", token=acting["access_token"], expect=200)
        snapshot = self.call("devSaveSnapshot", params={"id": tid}, expect=201).json()
        self.call("devListSnapshots", params={"id": tid}, expect=200)
        self.call("devRestoreSnapshot", params={"id": tid}, json_body={"snapshot_id": snapshot["id"]}, expect=200)
        self.call("devDeleteSnapshot", params={"id": tid, "snapshot": snapshot["id"]}, expect=204)
        self.call("devTailRequests", expect=200)
        self.call("devListJournal", params={"id": tid}, query={"method": "GET", "path": "/v1/**", "status": "2xx"}, expect=200)
        self.call("devClearJournal", params={"id": tid}, expect=204)
        self.call("devListChanges", params={"id": tid}, query={"limit": 10}, expect=200)
        self.call("devListDevices", params={"id": tid}, expect=200)
        explained = self.call("devExplainFeed", params={"id": tid}, query={"user": learner_id, "entity": "profile", "id": learner_id},
                              expect=200).json()
        self.require(explained["held"] is True, f"devExplainFeed: the learner's own profile is not held: {explained}")
        self.call("devGetServer", expect=200)
        self.call("devGetClock", expect=200)
        self.call("devAdvanceClock", json_body={"advance_seconds": 60}, expect=200)
        self.call("devResetClock", expect=200)

        never = sorted(set(self.operations) - self.succeeded)
        self.check(not never, f"operations never answered with a success: {', '.join(never)}")

    def static_checks(self):
        """What generators read from the document itself."""
        page = self.document["components"]["parameters"]["Page"]["schema"]
        self.check("default" not in page, "the page parameter declares a default: generated clients send it with after")
        codes = self.document["components"]["schemas"]["ProblemCode"]["description"]
        for code in ("too_many_streams", "stream_capacity", "injected_fault"):
            self.check(f"`{code}`" in codes, f"the error-code list lacks {code}")
        field_code = self.document["components"]["schemas"]["FieldError"]["properties"]["code"]["description"]
        self.check("unknown_field" in field_code and "unknown_property" not in field_code,
                   "FieldError's codes do not say unknown_field as the wire does")
        for server in self.document["servers"]:
            self.check("{port}" in server["url"], f"the server {server['url']} fixes its port")
        binary = [path for path in self.schema_paths(self.document) if path.endswith("format=binary")]
        self.check(not binary, f"OpenAPI 3.0's format: binary is still used at {binary}")

    def schema_paths(self, value, at=""):
        """Every `key=value` leaf of the document, with where it is."""
        if isinstance(value, dict):
            for key, child in value.items():
                yield from self.schema_paths(child, f"{at}/{key}")
        elif isinstance(value, list):
            for index, child in enumerate(value):
                yield from self.schema_paths(child, f"{at}/{index}")
        else:
            yield f"{at}={value}"

    def fault_checks(self, tid, student):
        self.call("devCreateFault", tenant=tid, expect=201, json_body={
            "method": "GET", "path": "/v1/users/me", "action": "status", "times": 2, "status": 499})
        self.call("devCreateFault", tenant=tid, expect=201, json_body={
            "method": "GET", "path": "/v1/courses", "action": "status", "times": 1, "status": 503, "retry_after": 1})
        for operation, status in (("getMyProfile", 499), ("listCourses", 503)):
            answer = self.call(operation, token=student, expect=status).json()
            self.check(answer.get("code") == "injected_fault" and answer.get("title"),
                       f"{operation}'s injected {status} has no title or another code: {answer}")
        # The 499 rule fires once more (times: 2): drain it so the profile answers again.
        self.call("getMyProfile", token=student, expect=499)
        self.call("devDeleteFaults", tenant=tid, expect=204)

    def method_not_allowed_checks(self):
        """A method a path lacks answers 405 with Allow, read as a response of the path's operations."""
        for path, item in self.document["paths"].items():
            declared = [method for method in METHODS if method in item]
            if "{" in path:
                continue  # the same route handling as the literal paths; ids would need a fixture
            absent = next(method for method in ("patch", "put", "delete", "post") if method not in item)
            url = self.url + path
            response = self.session.request(absent.upper(), url, timeout=TIMEOUT)
            label = f"{absent.upper()} {path}"
            self.check(response.status_code == 405, f"{label} answered {response.status_code}, not 405")
            allow = {method.strip().lower() for method in response.headers.get("Allow", "").split(",")}
            self.check(set(declared) <= allow, f"{label}: Allow {allow} lacks {declared}")
            as_declared = RequestsOpenAPIRequest(requests.Request(declared[0].upper(), url).prepare())
            self.validate(f"{label} as {item[declared[0]]['operationId']}", as_declared,
                          RequestsOpenAPIResponse(response))

    def stream_checks(self, tid, email, student):
        """`changed` through httpx-sse; `changed` then `ended` (the session signs out) through sseclient-py."""
        url = self.url + "/v1/sync/events"
        headers = {"Authorization": f"Bearer {student}", "Accept": "text/event-stream"}
        prepared = RequestsOpenAPIRequest(requests.Request("GET", url, headers=headers).prepare())
        with httpx.Client(timeout=httpx.Timeout(TIMEOUT)) as client:
            with connect_sse(client, "GET", url, headers=headers) as source:
                answer = source.response
                self.validate("streamChangeEvents (httpx-sse)", prepared,
                              StreamedResponse(answer.status_code, answer.headers), api=self.headers_api)
                self.require(answer.status_code == 200, f"the stream answered {answer.status_code}")
                # httpx-sse also yields a block without data (`retry: 2000`); an SSE parser per WHATWG
                # dispatches no event for it, and neither does this check.
                event = next(event for event in source.iter_sse() if event.data)
                read = {"event": event.event, "data": event.data}
                if event.id:
                    read["id"] = event.id
                self.check_event("httpx-sse", read)
                self.check(event.event == "changed", f"httpx-sse's first event is {event.event}, not changed")
        self.succeeded.add("streamChangeEvents")

        # A session of its own, so that signing it out ends this stream only.
        session = self.sign_in(email, "Tour-Password-2", tid)["access_token"]
        response = requests.get(url, headers={"Authorization": f"Bearer {session}", "Accept": "text/event-stream"},
                                stream=True, timeout=TIMEOUT)
        try:
            self.require(response.status_code == 200, f"the stream answered {response.status_code}")
            events = sseclient.SSEClient(response).events()
            seen = []
            for event in events:
                if not event.data:
                    continue  # a block without data is no event (WHATWG)
                read = {"event": event.event, "data": event.data}
                if event.id:
                    read["id"] = event.id
                self.check_event("sseclient-py", read)
                seen.append(event.event)
                if event.event == "changed" and len(seen) == 1:
                    self.call("logout", token=session, expect=204)
                if event.event == "ended":
                    self.check(json.loads(event.data).get("reason") == "session_ended",
                               f"the stream ended for {event.data}, not session_ended")
                    break
            self.check(seen[:1] == ["changed"] and seen[-1:] == ["ended"], f"sseclient-py read {seen}")
        finally:
            response.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="base URL of a dev-mode edugo-server")
    parser.add_argument("--spec", default=os.path.join(ROOT, "openapi.yaml"))
    arguments = parser.parse_args()
    started = time.monotonic()
    tour = Tour(arguments.url, arguments.spec)
    try:
        tour.run()
    except TourFailure as failure:
        tour.failures.append(str(failure))
        print(f"FAIL {failure}", flush=True)
    print(f"{len(tour.succeeded)} of {len(tour.operations)} operations answered with a success; "
          f"{tour.validated} answers validated by openapi-core, {tour.heads} HEADs read as their GET, "
          f"{tour.events_read} events read by httpx-sse and sseclient-py; {time.monotonic() - started:.1f} s")
    print(f"contract tour: {tour.passed} passed, {len(tour.failures)} failed")
    return 1 if tour.failures else 0


if __name__ == "__main__":
    sys.exit(main())
