"""A headless Chromium driven over the DevTools protocol on a pipe, for the picture tests.

Why a pipe and not a driver package: Chromium speaks its DevTools protocol over file
descriptors 3 and 4 with ``--remote-debugging-pipe`` (NUL-separated JSON), so the tests need
nothing but the browser itself: no Python package, no driver binary, no port, no download. The
protocol gives exactly what the tests assert: console messages and exceptions
(``Runtime.consoleAPICalled``, ``Runtime.exceptionThrown``, ``Log.entryAdded``), every request
the page makes (``Network.requestWillBeSent``), screenshots (``Page.captureScreenshot``) and
script evaluation.
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_chromium() -> Optional[str]:
    """The browser to use: $PREFCLI_CHROMIUM, else the first of the usual names on PATH."""
    env = os.environ.get("PREFCLI_CHROMIUM")
    if env:
        return env if os.path.exists(env) else None
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with one page; events are kept for the assertions."""

    def __init__(self, executable: str, width: int = 1000, height: int = 800, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="prefcli-chromium-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()
        # move the child's ends out of the way of 3 and 4 before the child puts them there
        child_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 100)
        child_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 100)
        for fd in (to_chrome_r, from_chrome_w):
            os.close(fd)
        args = [executable, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
                f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank"]

        def fds() -> None:  # the child's fd 3 reads our commands, fd 4 writes its answers
            os.dup2(child_r, 3)
            os.dup2(child_w, 4)

        # pass_fds names the child's fds as they are after fds() (closing happens after it)
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(3, 4), preexec_fn=fds)
        os.close(child_r)
        os.close(child_w)
        self._buf = b""
        self._id = 0
        self.events: List[Dict[str, Any]] = []
        self.session: Optional[str] = None
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False)

    # -- protocol -------------------------------------------------------------------------
    def _send(self, msg: Dict[str, Any]) -> None:
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._w, data)
            data = data[n:]

    def _read(self, deadline: float) -> Dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("Chromium did not answer in time")
            ready, _, _ = select.select([self._r], [], [], left)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise BrowserError("Chromium closed the DevTools pipe")
                self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, **params: Any) -> Dict[str, Any]:
        self._id += 1
        msg: Dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        self._send(msg)
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for(self, method: str, since: int = 0) -> Dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            for e in self.events[since:]:
                if e.get("method") == method:
                    return e
            self.events.append(self._read(deadline))

    # -- what the tests use ----------------------------------------------------------------
    def open(self, path: Path) -> None:
        mark = len(self.events)
        self.call("Page.navigate", url=Path(path).resolve().as_uri())
        self.wait_for("Page.loadEventFired", mark)
        self.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))", await_promise=True)

    def eval(self, expression: str, await_promise: bool = False) -> Any:
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=await_promise)
        if "exceptionDetails" in res:
            raise BrowserError(f"{expression!r}: {res['exceptionDetails'].get('text')} "
                               f"{res['exceptionDetails'].get('exception', {}).get('description', '')}")
        return res.get("result", {}).get("value")

    def key(self, key: str, code: str, keycode: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=keycode)

    def clear(self) -> None:
        """Forget the events so far (before opening the next page)."""
        self.events.clear()

    def screenshot(self, dest: Path, full_page: bool = True, clip: Optional[Dict[str, float]] = None) -> bytes:
        params: Dict[str, Any] = {"format": "png", "captureBeyondViewport": full_page}
        if clip is not None:
            params["clip"] = dict(clip, scale=1)
        data = base64.b64decode(self.call("Page.captureScreenshot", **params)["data"])
        Path(dest).write_bytes(data)
        return data

    def pdf(self) -> bytes:
        return base64.b64decode(self.call("Page.printToPDF", paperWidth=8.27, paperHeight=11.69,
                                          printBackground=True)["data"])

    def errors(self) -> List[str]:
        """Console errors, uncaught exceptions and error log entries seen so far."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"]))
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: " + str(d.get("exception", {}).get("description", d.get("text"))))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: " + p["entry"].get("text", ""))
        return out

    def requests(self) -> List[str]:
        """Every URL the page asked for (the page itself included)."""
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001 - closing is best effort
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)


def png_size(data: bytes) -> tuple:
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def png_colours(data: bytes, limit: int = 64) -> int:
    """How many distinct colours a PNG has (up to `limit`): a blank page has one."""
    import struct
    import zlib
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = {2: 3, 6: 4, 0: 1, 4: 2}[ctype]
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    seen = set()
    i = 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        for x in range(0, stride, bpp * 7):
            seen.add(bytes(line[x:x + bpp]))
        if len(seen) >= limit:
            break
    return len(seen)


def main(argv: Optional[List[str]] = None) -> int:
    """`python tests/browser.py PAGE OUT.png [WIDTH HEIGHT [SELECTOR]]`: a screenshot of PAGE
    (or of the element SELECTOR in it) as the tests take them (the README's pictures)."""
    import sys
    args = list(sys.argv[1:] if argv is None else argv)
    page, out = Path(args[0]), Path(args[1])
    width, height = (int(args[2]), int(args[3])) if len(args) >= 4 else (1000, 760)
    exe = find_chromium()
    if exe is None:
        print("no Chromium found (set PREFCLI_CHROMIUM)", file=sys.stderr)
        return 1
    b = Browser(exe, width, height)
    try:
        b.open(page)
        clip = None
        if len(args) >= 5:
            clip = b.eval(f"(function(){{var r=document.querySelector({json.dumps(args[4])}).getBoundingClientRect();"
                          "return {x:r.left+scrollX,y:r.top+scrollY,width:r.width,height:r.height};})()")
        b.screenshot(out, full_page=clip is not None, clip=clip)
        problems = b.errors()
    finally:
        b.close()
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())


def browser_fixture(width: int, height: int):
    """A module-scoped pytest fixture giving a headless Chromium of that size; a test module
    without Chromium is skipped, except under CI=true, where it fails (.ci/run installs it)."""
    import pytest

    exe = find_chromium()
    if exe is None and os.environ.get("CI", "").lower() != "true":
        pytest.skip("no Chromium on this machine (install Debian's chromium, or set PREFCLI_CHROMIUM)",
                    allow_module_level=True)

    @pytest.fixture(scope="module")
    def browser():
        if exe is None:
            pytest.fail("CI=true but no Chromium was found: .ci/run must install it")
        b = Browser(exe, width, height)
        yield b
        b.close()
    return browser
