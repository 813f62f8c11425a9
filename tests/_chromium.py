"""A headless Chromium for the live differential tests, stdlib only.

One browser process per test session, driven over the Chrome DevTools Protocol
(CDP) with ``--remote-debugging-pipe``: the browser reads JSON commands from
its fd 3 and writes JSON responses and events to its fd 4, each message
terminated by a NUL byte. No websocket library is needed.

:class:`PageServer` serves registered byte strings from 127.0.0.1 with exactly
the ``Content-Type`` header given (or none at all).
"""

from __future__ import annotations

import contextlib
import fcntl
import http.server
import itertools
import json
import os
import select
import shutil
import signal
import tempfile
import threading
import time
from typing import Any

__all__ = ["Browser", "BrowserError", "PageServer", "find_chromium"]

# Executables tried in order; BROWSER_DECODE_CHROMIUM overrides them.
_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

# As root on a closed network, headless Chromium needs all of these, and a
# fresh empty profile, or it stalls (sandbox, GPU, QUIC, first-run and
# background fetches of components, sync, translations).
_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-translate",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
    "--no-proxy-server",
    "--mute-audio",
    "--lang=en-US",
    "--remote-debugging-pipe",
)


class BrowserError(RuntimeError):
    """The browser did not answer, answered with an error, or exited."""


def find_chromium() -> str | None:
    """The path of a Chromium executable, or ``None``."""
    override = os.environ.get("BROWSER_DECODE_CHROMIUM")
    if override:
        return shutil.which(override)
    for name in _CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


def require_tool(found: bool, what: str, install: str) -> None:
    """Skip a test whose tool is missing on a user's machine; fail it in CI (CI is set),
    where .ci/run installs the tool and the suite is mandatory."""
    import pytest

    if found:
        return
    reason = f"{what} not found ({install})"
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI is set, so this test is mandatory")
    pytest.skip(reason)


def require_chromium() -> str:
    """The Chromium executable, or a skip (a failure in CI)."""
    executable = find_chromium()
    require_tool(
        executable is not None,
        "a Chromium executable",
        "install Debian's `chromium` package, or point BROWSER_DECODE_CHROMIUM at one",
    )
    assert executable is not None
    return executable


class Browser:
    """A headless Chromium with one tab, reused for every page."""

    def __init__(self, executable: str, *, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="browser-decode-chromium-")
        self._log = open(os.path.join(self._profile.name, "stderr.log"), "wb")  # noqa: SIM115
        to_browser_r, self._out = os.pipe()
        self._in, from_browser_w = os.pipe()
        # High-numbered copies, so that the two dup2 actions below cannot
        # overwrite each other's source; they close themselves at exec.
        src_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD_CLOEXEC, 10)
        src_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD_CLOEXEC, 10)
        args = [executable, *_FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"]
        try:
            self.pid = os.posix_spawn(
                executable,
                args,
                os.environ,
                file_actions=[
                    (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                    (os.POSIX_SPAWN_DUP2, self._log.fileno(), 1),
                    (os.POSIX_SPAWN_DUP2, self._log.fileno(), 2),
                    (os.POSIX_SPAWN_DUP2, src_r, 3),
                    (os.POSIX_SPAWN_DUP2, src_w, 4),
                ],
                setpgroup=0,
            )
        finally:
            for fd in (to_browser_r, from_browser_w, src_r, src_w):
                os.close(fd)
        self._buffer = b""
        self._ids = itertools.count(1)
        self._events: list[dict[str, Any]] = []
        self.version = self.call("Browser.getVersion")["product"]
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)

    # -- protocol ---------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._out, data) :]

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"no answer from the browser in {self.timeout} s{self._tail()}")
            ready, _, _ = select.select([self._in], [], [], left)
            if ready:
                chunk = os.read(self._in, 1 << 20)
                if not chunk:
                    raise BrowserError(f"the browser exited{self._tail()}")
                self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\0")
        message: dict[str, Any] = json.loads(raw)
        return message

    def _tail(self) -> str:
        self._log.flush()
        with open(self._log.name, "rb") as log:
            text = log.read()[-2000:].decode("utf-8", "replace")
        return f"; its stderr ends with:\n{text}" if text else ""

    def call(
        self, method: str, params: dict[str, Any] | None = None, *, session: bool = False
    ) -> dict[str, Any]:
        """Send one CDP command and return its result; events are kept."""
        message: dict[str, Any] = {"id": next(self._ids), "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self._session
        self._send(message)
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._receive(deadline)
            if answer.get("id") == message["id"]:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer["result"]
                return result
            if "method" in answer:
                self._events.append(answer)

    def _wait_event(self, method: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            for i, event in enumerate(self._events):
                if event["method"] == method and event.get("sessionId") == self._session:
                    del self._events[: i + 1]
                    return event
            self._events.clear()
            answer = self._receive(deadline)
            if "method" in answer:
                self._events.append(answer)

    # -- pages ------------------------------------------------------------

    def load(self, url: str) -> None:
        """Navigate the tab to *url* and wait for its load event."""
        self._events.clear()
        result = self.call("Page.navigate", {"url": url}, session=True)
        if result.get("errorText"):
            raise BrowserError(f"{url}: {result['errorText']}")
        self._wait_event("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """Evaluate a JavaScript expression in the page (promises awaited), return its value."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
            session=True,
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"JavaScript error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def close(self) -> None:
        """Ask the browser to quit; kill its process group if it does not."""
        with contextlib.suppress(BrowserError, OSError):
            self._send({"id": next(self._ids), "method": "Browser.close"})
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if os.waitpid(self.pid, os.WNOHANG)[0]:
                break
            time.sleep(0.05)
        else:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        for fd in (self._in, self._out):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._log.close()
        self._profile.cleanup()


class PageServer:
    """Serves registered bodies from 127.0.0.1 with exactly the given Content-Type."""

    def __init__(self) -> None:
        self._pages: dict[str, tuple[str | None, bytes]] = {}
        pages = self._pages

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                content_type, body = pages.get(self.path, ("text/plain", b"not found"))
                self.send_response(200 if self.path in pages else 404)
                if content_type is not None:
                    self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"

    def add(self, path: str, body: bytes, content_type: str | None) -> str:
        """Serve *body* at *path* (``None``: no Content-Type header); return its URL."""
        self._pages[path] = (content_type, body)
        return self.origin + path

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
