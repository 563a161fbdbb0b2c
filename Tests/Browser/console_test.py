#!/usr/bin/env python3
"""The dev console in a real browser: headless Chromium driven by selenium against the real
`edugo-server` binary on a free port with a temporary data directory.

Scenarios: the nine panels load; a new test tenant shows its accounts; a forgot-password mail for
one of them arrives in the Mailbox panel; the Act as a user panel calls the API as its student (the
answer shown, an admin-only list refused, the journal marking the requests impersonated); a draft
course a teacher creates appears in the Change feed panel, and Explain says the student's device
does not hold it (a draft) and the teacher's does; the student's open live stream appears under
Devices, standing at the head once its session pulled the feed; a verification mail is verified with its button; a 503
fault armed in the Faults panel answers the next request, which the Requests panel marks as
injected; a slow_body fault with a uniform wait armed from the form slows the next answer; a snapshot saved in the Snapshots panel is restored (an account registered after it is
gone) and deleted; `/__dev/?tenant=ID` opens the console on that tenant; the clock moves forward; a user named `<img src=x onerror=alert(1)>` renders as text.
Screenshots at 1280 px and 390 px are saved. Any miss fails the run (exit status 1); nothing is
skipped.

Usage: Tests/Browser/console_test.py [--binary PATH] [--screenshots DIR]
  --binary       the edugo-server executable (default: from `swift build --show-bin-path`)
  --screenshots  where to save dev-console-1280.png and dev-console-390.png
                 (default: .build/browser-screenshots)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import (
    NoAlertPresentException, NoSuchElementException, StaleElementReferenceException, TimeoutException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
XSS_NAME = "<img src=x onerror=alert(1)>"
WAIT = 15  # seconds for anything the console shows after an action (it polls every 1-1.5 s)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# MARK: - The server

class Server:
    """The real binary on a free port (--port 0: it prints the one it bound) and a temp data dir."""

    def __init__(self, binary):
        self.data = tempfile.mkdtemp(prefix="edugo-console-")
        self.log_path = os.path.join(self.data, "server.log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [binary, "--port", "0", "--data-dir", os.path.join(self.data, "data"), "--dev", "--log-level", "info"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        self.url = None
        while time.time() < deadline and self.url is None:
            if self.process.poll() is not None:
                raise Failure("edugo-server exited at start:\n" + self.output())
            match = re.search(r"http://127\.0\.0\.1:(\d+)", self.output())
            if match and match.group(1) != "0":
                self.url = f"http://127.0.0.1:{match.group(1)}"
            time.sleep(0.1)
        check(self.url is not None, "edugo-server printed no address within 60 s:\n" + self.output())

    def output(self):
        with open(self.log_path) as log:
            return log.read()

    def request(self, method, path, tenant=None, body=None, headers=None):
        """One HTTP call as an app would make it; returns (status, headers, parsed body or text)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if tenant:
            request.add_header("X-Tenant-ID", tenant)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, headers, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, headers, raw = error.code, error.headers, error.read()
        text = raw.decode("utf-8", "replace")
        try:
            return status, headers, json.loads(text) if text else None
        except json.JSONDecodeError:
            return status, headers, text

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.data, ignore_errors=True)


# MARK: - The browser

def chromium():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,2000", "--force-device-scale-factor=1", "--lang=en-US"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def wait_for(driver, condition, message, timeout=WAIT):
    # The console re-renders its tables as it polls: an element found a moment ago may be gone
    # (stale) by the time it is read, which only means "look again".
    try:
        return WebDriverWait(
            driver, timeout, poll_frequency=0.2, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
        ).until(condition)
    except TimeoutException:
        raise Failure(f"timed out after {timeout} s: {message}")


def first_match(selector, read):
    """A wait condition: `read` of the first element matching `selector`, or None while there is none."""
    def condition(driver):
        elements = driver.find_elements(By.CSS_SELECTOR, selector)
        return read(elements[0]) if elements else None
    return condition


def text_of(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector).text


def no_alert(driver):
    try:
        alert = driver.switch_to.alert
        text = alert.text
        alert.dismiss()
        raise Failure(f"a script ran: an alert said {text!r}")
    except NoAlertPresentException:
        pass


def policy_violations(driver):
    messages = [entry["message"] for entry in driver.get_log("browser")]
    return [m for m in messages if "Content Security Policy" in m or "Refused to" in m]


# MARK: - Scenarios

def panels_load(driver, server):
    driver.get(server.url + "/__dev/")
    for panel in ["tenants", "mailbox", "requests", "faults", "snapshots", "feed", "act", "clock", "server"]:
        wait_for(driver, EC.visibility_of_element_located((By.ID, panel)), f"panel #{panel} is visible")
    wait_for(driver, lambda d: d.find_element(By.ID, "server-version").text == "1.0.0", "the Server panel shows the version")
    check(text_of(driver, "#server-tls") == "off", "TLS is shown as off")
    check(text_of(driver, "#server-pin") == "—", "no TLS pin is shown")
    check(text_of(driver, "#server-dev") == "on", "dev mode is shown as on")
    check(server.data in text_of(driver, "#server-data"), "the data directory is shown")
    wait_for(driver, lambda d: "demo" in [o.get_attribute("value") for o in Select(d.find_element(By.ID, "tenant-select")).options],
             "the tenant picker lists demo")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#tenant-table tr[data-tenant="demo"]'), "the tenant list shows demo")
    row = driver.find_element(By.CSS_SELECTOR, '#tenant-table tr[data-tenant="demo"]')
    check("EduGo Demo" in row.text and " 9 " in f" {row.text} ", f"demo's row shows its name and 9 users: {row.text!r}")
    wait_for(driver, lambda d: d.find_element(By.ID, "clock-offset").text.startswith("none"), "the clock shows no offset")


def unlabelled_controls(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('input, select, button')].filter((el) => {
          const label = (el.labels && el.labels.length) || el.getAttribute('aria-label') || el.textContent.trim();
          return !label;
        }).map((el) => el.outerHTML);
    """)


def keyboard_reaches_the_tenant_button(driver):
    driver.execute_script("window.scrollTo(0, 0); document.activeElement && document.activeElement.blur()")
    for _ in range(40):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        active = driver.switch_to.active_element
        if active.get_attribute("id") == "new-tenant":
            outline = active.value_of_css_property("outline-style")
            check(outline not in ("none", ""), f"the focused button shows a focus outline (got {outline!r})")
            return
    raise Failure("Tab never reached the 'New test tenant' button")


def new_tenant(driver):
    driver.find_element(By.ID, "new-tenant").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#created-tenant tr[data-role]"), "the new tenant's accounts are shown")
    tenant = text_of(driver, "#created-tenant-id")
    roles = [row.get_attribute("data-role") for row in driver.find_elements(By.CSS_SELECTOR, "#created-tenant tr[data-role]")]
    check(roles == ["admin", "teacher", "student"], f"one account per role: {roles}")
    student = driver.find_element(By.CSS_SELECTOR, '#created-tenant tr[data-role="student"]')
    email = student.find_element(By.CSS_SELECTOR, "code.email").text
    password = student.find_element(By.CSS_SELECTOR, "code.password").text
    check(len(student.find_elements(By.CSS_SELECTOR, "button[aria-label^='Copy']")) == 2, "email and password have copy buttons")
    wait_for(driver, lambda d: Select(d.find_element(By.ID, "tenant-select")).first_selected_option.get_attribute("value") == tenant,
             "the new tenant is selected")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#tenant-table tr[data-tenant="{tenant}"]'), "the list shows the new tenant")
    return tenant, email, password


def reset_mail_arrives(driver, server, tenant, email):
    status, _, _ = server.request("POST", "/v1/auth/forgot-password", tenant=tenant, body={"email": email})
    check(status == 202, f"forgot-password answered {status}")
    selector = f'#mail-list li[data-kind="reset_password"][data-to="{email}"]'
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, selector), "the reset mail arrives in the Mailbox panel")
    mail = driver.find_element(By.CSS_SELECTOR, selector)
    token = mail.find_element(By.CSS_SELECTOR, "code.token").text
    _, _, mailbox = server.request("GET", "/__dev/mailbox", tenant=tenant)
    check(token == mailbox["items"][0]["token"], "the Mailbox panel shows the mail's token")


def act_as_the_student(driver, server, tenant, email):
    wait_for(driver, lambda d: d.find_element(By.ID, "act-tenant").text == tenant, "the Act panel names the selected tenant")
    wait_for(driver, lambda d: any(email in o.text for o in Select(d.find_element(By.ID, "act-user")).options),
             "the Act panel lists the tenant's student")
    form = driver.find_element(By.ID, "act-form")
    Select(form.find_element(By.NAME, "user")).select_by_visible_text(f"{email} (student)")

    def send(method, path):
        Select(form.find_element(By.NAME, "method")).select_by_value(method)
        field = form.find_element(By.NAME, "path")
        field.clear()
        field.send_keys(path)
        driver.execute_script("document.getElementById('act-status').dataset.status = ''")
        driver.find_element(By.ID, "act-send").click()
        return wait_for(driver, lambda d: d.find_element(By.ID, "act-status").get_attribute("data-status"),
                        f"the answer to {method} {path} is shown")

    status = send("GET", "/v1/auth/me")
    check(status == "200", f"GET /v1/auth/me as the student answered {status}: {text_of(driver, '#act-status')}")
    answer = json.loads(text_of(driver, "#act-answer"))
    check(answer["email"] == email and answer["role"] == "student", f"the answer is the student's own account: {answer}")
    check(f"as {email} (student)" in text_of(driver, "#act-status"), "the status line names who the call acted as")
    status = send("GET", "/v1/users")
    check(status == "403", f"the admin-only user list as the student answered {status}")
    check(json.loads(text_of(driver, "#act-answer"))["code"] == "forbidden", "the refusal's problem is shown")

    _, _, journal = server.request("GET", f"/__dev/tenants/{tenant}/requests?path=/v1/**")
    acted = [item for item in journal["items"] if item["path"] in ("/v1/auth/me", "/v1/users")][:2]
    check([(item["path"], item["status"], item.get("impersonated")) for item in acted]
          == [("/v1/users", 403, True), ("/v1/auth/me", 200, True)],
          f"the journal marks both calls impersonated: {acted}")


def change_feed_and_explain(driver, server, tenant, student_email):
    teacher = driver.find_element(By.CSS_SELECTOR, '#created-tenant tr[data-role="teacher"]')
    email = teacher.find_element(By.CSS_SELECTOR, "code.email").text
    password = teacher.find_element(By.CSS_SELECTOR, "code.password").text
    status, _, pair = server.request("POST", "/v1/auth/login", tenant=tenant, body={"email": email, "password": password})
    check(status == 200, f"the teacher's login answered {status}")
    status, _, course = server.request("POST", "/v1/courses", tenant=tenant, body={
        "title": "Borrador del navegador", "category": "arts", "published": False},
        headers={"Authorization": f"Bearer {pair['access_token']}"})
    check(status == 201, f"the draft course answered {status}: {course}")
    row = f'#feed-table tr[data-entity="course"][data-id="{course["id"]}"]'
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, row), "the draft course appears in the Change feed panel")
    check("exists" in text_of(driver, row), f"its entry says it exists: {text_of(driver, row)!r}")
    operation = driver.find_element(By.CSS_SELECTOR, row + " td.operation").text
    check(operation == "insert", f"its entry says it was inserted: {operation!r}")
    check(f"head " in text_of(driver, "#feed-summary") and "timeline" in text_of(driver, "#feed-summary"),
          f"the panel names the timeline and the head: {text_of(driver, '#feed-summary')!r}")

    form = driver.find_element(By.ID, "explain-form")
    wait_for(driver, lambda d: any(student_email in o.text for o in Select(d.find_element(By.ID, "explain-user")).options),
             "Explain lists the tenant's users")
    Select(form.find_element(By.NAME, "user")).select_by_visible_text(f"{student_email} (student)")
    driver.find_element(By.CSS_SELECTOR, row + " button[aria-label^='Explain']").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#explain-result [data-held="false"]'),
             "Explain says the student's device does not hold the draft")
    codes = [li.get_attribute("data-code") for li in driver.find_elements(By.CSS_SELECTOR, "#explain-result li")]
    check(codes == ["draft"], f"the reason is that it is a draft: {codes}")

    Select(form.find_element(By.NAME, "user")).select_by_visible_text(f"{email} (teacher)")
    driver.find_element(By.ID, "explain-run").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#explain-result [data-held="true"]'),
             "Explain says the teacher's device holds the draft")


def devices_show_a_live_stream(driver, server, tenant, email, password):
    status, _, pair = server.request("POST", "/v1/auth/login", tenant=tenant, body={"email": email, "password": password})
    check(status == 200, f"the student's login answered {status}")
    bearer = {"Authorization": f"Bearer {pair['access_token']}"}
    request = urllib.request.Request(server.url + "/v1/sync/events", headers={**bearer, "Accept": "text/event-stream"})
    stream = urllib.request.urlopen(request, timeout=10)
    try:
        row = f'#device-table tr[data-user="{email}"]'
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, row), "the student's live stream appears under Devices")
        check("not yet" in text_of(driver, row), f"before a pull it stands nowhere: {text_of(driver, row)!r}")
        cursor = None
        while True:
            path = "/v1/sync/changes?limit=500" + (f"&cursor={cursor}" if cursor else "")
            status, _, page = server.request("GET", path, headers=bearer)
            check(status == 200, f"the pull answered {status}")
            cursor = page["cursor"]
            if not page["has_more"]:
                break
        wait_for(driver, lambda d: "a pull" in d.find_element(By.CSS_SELECTOR, row).text, "the device stands where its pull left it")
        behind = driver.find_element(By.CSS_SELECTOR, row + " td.behind").text
        check(behind == "0", f"after pulling to the end it is behind by nothing: {behind!r}")
    finally:
        stream.close()


def hostile_name_is_text_and_verification_works(driver, server, tenant):
    email = "mallory@example.com"
    status, _, _ = server.request("POST", "/v1/auth/register", tenant=tenant, body={
        "email": email, "password": "Correct-Horse-9", "first_name": XSS_NAME, "last_name": "Smith"})
    check(status == 202, f"register answered {status}")
    selector = f'#mail-list li[data-kind="verify_email"][data-to="{email}"]'
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, selector), "the verification mail arrives")
    driver.find_element(By.CSS_SELECTOR, selector + " button.verify").click()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector + " .verify-result").text == "Verified",
             "the Verify button verifies the address")

    driver.find_element(By.CSS_SELECTOR, f'#tenant-table tr[data-tenant="{tenant}"] button[aria-label^="Show the accounts"]').click()
    wait_for(driver, lambda d: any(XSS_NAME in cell.text for cell in d.find_elements(By.CSS_SELECTOR, "#tenant-user-table td.user-name")),
             "the hostile name is shown, as text")
    row = [r for r in driver.find_elements(By.CSS_SELECTOR, "#tenant-user-table tbody tr") if email in r.text][0]
    check(row.find_elements(By.TAG_NAME, "td")[3].text == "yes", "the account is shown verified")
    time.sleep(0.5)  # an injected image would have failed to load and fired onerror by now
    no_alert(driver)
    images = driver.execute_script("return document.querySelectorAll('img').length")
    check(images == 0, f"no image element appears ({images} found)")


def fault_is_injected_and_shown(driver, server, tenant):
    form = driver.find_element(By.ID, "fault-form")
    Select(form.find_element(By.NAME, "method")).select_by_value("GET")
    path = form.find_element(By.NAME, "path")
    path.clear()
    path.send_keys("/v1/courses")
    Select(form.find_element(By.NAME, "action")).select_by_value("status")
    status_field = form.find_element(By.NAME, "status")
    status_field.clear()
    status_field.send_keys("503")
    times = form.find_element(By.NAME, "times")
    times.clear()
    times.send_keys("1")
    driver.find_element(By.ID, "add-fault").click()
    rule = wait_for(driver, first_match("#fault-table tr[data-rule]", lambda row: row.get_attribute("data-rule")),
                    "the armed rule is listed")

    status, _, problem = server.request("GET", "/v1/courses", tenant=tenant)
    check(status == 503 and problem.get("code") == "injected_fault", f"the request got the injected 503: {status} {problem}")

    selector = '#request-table tr[data-fault="status"][data-status="503"]'
    row_text = wait_for(driver, first_match(selector, lambda row: row.text), "the Requests panel shows the 503 marked as injected")
    check("injected" in row_text and rule in row_text and tenant in row_text and "/v1/courses" in row_text,
          f"the row names the rule, tenant and route: {row_text!r}")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#fault-table tr[data-rule="{rule}"]').get_attribute("data-fired") == "1",
             "the Faults panel shows the rule fired once")
    wait_for(driver, lambda d: "/v1/courses" in d.find_element(By.ID, "traffic-table").text, "the Server panel shows the route's traffic")

    Select(driver.find_element(By.ID, "requests-status")).select_by_value("2xx")
    wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, selector), "the status filter hides the 503")
    Select(driver.find_element(By.ID, "requests-status")).select_by_value("")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, selector), "clearing the filter shows it again")


def slow_body_fault_is_armed(driver, server, tenant):
    form = driver.find_element(By.ID, "fault-form")
    Select(form.find_element(By.NAME, "method")).select_by_value("GET")
    path = form.find_element(By.NAME, "path")
    path.clear()
    path.send_keys("/health")
    Select(form.find_element(By.NAME, "action")).select_by_value("slow_body")
    check(not form.find_element(By.NAME, "status").is_displayed(), "a slow_body rule hides the status field")
    check(form.find_element(By.NAME, "chunks").is_displayed(), "a slow_body rule shows its chunks")
    for name, value in [("chunks", "4"), ("duration_ms", "400")]:
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    Select(form.find_element(By.NAME, "wait")).select_by_value("uniform")
    check(not form.find_element(By.NAME, "delay_ms").is_displayed(), "a uniform wait hides the fixed delay")
    for name, value in [("min_ms", "10"), ("max_ms", "20"), ("times", "1"), ("seed", "7")]:
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    driver.find_element(By.ID, "add-fault").click()
    rule = wait_for(driver, first_match('#fault-table tr[data-rule]:not([data-fired="1"])', lambda row: row.get_attribute("data-rule")),
                    "the armed slow_body rule is listed")
    row = driver.find_element(By.CSS_SELECTOR, f'#fault-table tr[data-rule="{rule}"]').text
    check("slow_body 4 chunks over 400 ms" in row and "10–20 ms" in row, f"the row describes the rule: {row!r}")
    started = time.monotonic()
    status, _, _ = server.request("GET", "/health", tenant=tenant)
    elapsed = time.monotonic() - started
    check(status == 200 and elapsed >= 0.3, f"the answer came in slowly: {status} after {elapsed:.2f} s")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#fault-table tr[data-rule="{rule}"]').get_attribute("data-fired") == "1",
             "the Faults panel shows the slow_body rule fired once")
    Select(form.find_element(By.NAME, "action")).select_by_value("status")
    Select(form.find_element(By.NAME, "wait")).select_by_value("fixed")


def user_total(server, tenant):
    status, _, page = server.request("GET", f"/__dev/tenants/{tenant}/users")
    check(status == 200, f"the tenant's users answered {status}")
    return page["total"]


def snapshot_is_saved_restored_and_deleted(driver, server, tenant):
    wait_for(driver, lambda d: d.find_element(By.ID, "snapshots-tenant").text == tenant, "the Snapshots panel shows the tenant")
    users = user_total(server, tenant)
    driver.find_element(By.ID, "save-snapshot").click()
    snapshot = wait_for(driver, first_match("#snapshot-table tr[data-snapshot]", lambda row: row.get_attribute("data-snapshot")),
                        "the saved snapshot is listed")
    status, _, _ = server.request("POST", "/v1/auth/register", tenant=tenant, body={
        "email": "after.snapshot@example.com", "password": "Correct-Horse-9", "first_name": "Ana", "last_name": "Later"})
    check(status == 202, f"register answered {status}")
    check(user_total(server, tenant) == users + 1, "the registration added an account")

    driver.find_element(By.CSS_SELECTOR, f'#snapshot-table tr[data-snapshot="{snapshot}"] button[aria-label^="Restore"]').click()
    wait_for(driver, lambda d: f"Restored {tenant}" in d.find_element(By.ID, "notice").text, "the console says the tenant was restored")
    check(user_total(server, tenant) == users, "the account registered after the snapshot is gone")

    driver.find_element(By.CSS_SELECTOR, f'#snapshot-table tr[data-snapshot="{snapshot}"] button[aria-label^="Delete"]').click()
    wait_for(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'#snapshot-table tr[data-snapshot="{snapshot}"]'),
             "the deleted snapshot leaves the list")
    _, _, listed = server.request("GET", f"/__dev/tenants/{tenant}/snapshots")
    check(listed["items"] == [], f"the server holds no snapshot of the tenant: {listed}")


def tenant_link_opens_that_tenant(driver, server, tenant):
    Select(driver.find_element(By.ID, "tenant-select")).select_by_value("demo")
    driver.get(server.url + f"/__dev/?tenant={tenant}")
    wait_for(driver, lambda d: Select(d.find_element(By.ID, "tenant-select")).first_selected_option.get_attribute("value") == tenant,
             "?tenant= selects that tenant (not the last one used)")
    wait_for(driver, lambda d: d.find_element(By.ID, "snapshots-tenant").text == tenant, "the Snapshots panel shows it")


def clock_moves(driver):
    driver.find_element(By.CSS_SELECTOR, 'button[data-advance="3600"]').click()
    wait_for(driver, lambda d: d.find_element(By.ID, "clock-offset").get_attribute("data-seconds") == "3600", "the offset is 1 h")
    check("1 h" in text_of(driver, "#clock-offset"), "the offset reads 1 h")
    driver.find_element(By.CSS_SELECTOR, 'button[data-advance="900"]').click()
    wait_for(driver, lambda d: d.find_element(By.ID, "clock-offset").get_attribute("data-seconds") == "4500", "the offset is 1 h 15 min")


def screenshots(driver, directory):
    """The whole page at each width (Chromium's device metrics, so 390 px is not held to a window minimum)."""
    os.makedirs(directory, exist_ok=True)
    driver.execute_script("""window.scrollTo(0, 0); document.activeElement && document.activeElement.blur();
        document.querySelectorAll('.scroll').forEach((e) => { e.scrollLeft = 0; });""")
    for width, mobile in [(1280, False), (390, True)]:
        metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": mobile}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        time.sleep(1.0)
        viewport = driver.execute_script("return window.innerWidth")
        check(viewport == width, f"the viewport is {width} px wide (got {viewport})")
        overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 0, f"no horizontal scrolling at {width} px (the page is {overflow} px too wide)")
        metrics["height"] = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        time.sleep(0.5)
        path = os.path.join(directory, f"dev-console-{width}.png")
        driver.save_screenshot(path)
        print(f"    saved {path}")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary")
    parser.add_argument("--screenshots", default=os.path.join(ROOT, ".build", "browser-screenshots"))
    arguments = parser.parse_args()
    binary = arguments.binary or os.path.join(
        subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=ROOT, text=True).strip(), "edugo-server")
    check(os.access(binary, os.X_OK), f"no edugo-server binary at {binary} (run swift build first)")

    started = time.time()
    server = Server(binary)
    driver = None
    step = "start"
    try:
        driver = chromium()
        driver.set_page_load_timeout(30)
        steps = [
            ("the nine panels load against the live server", lambda: panels_load(driver, server)),
            ("every control has a label", lambda: check(not unlabelled_controls(driver), f"unlabelled: {unlabelled_controls(driver)}")),
            ("the keyboard reaches 'New test tenant' with a visible focus", lambda: keyboard_reaches_the_tenant_button(driver)),
        ]
        for step, run in steps:
            run()
            print(f"ok  {step}")
        step = "a new test tenant shows its accounts"
        tenant, email, password = new_tenant(driver)
        print(f"ok  {step} ({tenant})")
        for step, run in [
            ("forgot-password: the mail arrives in the Mailbox panel", lambda: reset_mail_arrives(driver, server, tenant, email)),
            ("Act as a user: the student's calls answered and shown, journaled as impersonated", lambda: act_as_the_student(driver, server, tenant, email)),
            ("Change feed: a teacher's draft appears; Explain: not on the student's device (draft), on the teacher's", lambda: change_feed_and_explain(driver, server, tenant, email)),
            ("Devices: the student's live stream is listed, at the head once its session pulled", lambda: devices_show_a_live_stream(driver, server, tenant, email, password)),
            ("a hostile user name renders as text; the Verify button verifies", lambda: hostile_name_is_text_and_verification_works(driver, server, tenant)),
            ("an armed 503 fault answers a request, shown as injected in Requests", lambda: fault_is_injected_and_shown(driver, server, tenant)),
            ("a slow_body fault with a uniform wait is armed from the form and fires", lambda: slow_body_fault_is_armed(driver, server, tenant)),
            ("a snapshot is saved, restored and deleted in the Snapshots panel", lambda: snapshot_is_saved_restored_and_deleted(driver, server, tenant)),
            ("/__dev/?tenant=ID opens the console on that tenant", lambda: tenant_link_opens_that_tenant(driver, server, tenant)),
            ("the clock moves forward and shows its offset", lambda: clock_moves(driver)),
            ("no Content-Security-Policy violation was reported", lambda: check(not policy_violations(driver), f"violations: {policy_violations(driver)}")),
            ("screenshots at 1280 px and 390 px", lambda: screenshots(driver, arguments.screenshots)),
        ]:
            run()
            print(f"ok  {step}")
        no_alert(driver)
    except Exception as error:  # any miss fails the run, loudly
        print(f"FAIL  {step}: {error}", file=sys.stderr)
        if not isinstance(error, Failure):
            traceback.print_exc()
        if driver is not None:
            try:
                os.makedirs(arguments.screenshots, exist_ok=True)
                failure = os.path.join(arguments.screenshots, "failure.png")
                driver.save_screenshot(failure)
                print(f"    screenshot of the failure: {failure}", file=sys.stderr)
                for entry in driver.get_log("browser"):
                    print(f"    browser: {entry['message']}", file=sys.stderr)
            except Exception:
                pass
        print("--- server log (last 40 lines) ---\n" + "\n".join(server.output().splitlines()[-40:]), file=sys.stderr)
        return 1
    finally:
        if driver is not None:
            driver.quit()
        server.stop()
    print(f"browser test passed in {time.time() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
