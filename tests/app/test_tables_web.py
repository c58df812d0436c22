"""The tables' server answers plain HTTP on its WebSocket port (issue 32): the page's files
with a Content-Security-Policy and no inline script, 404 for anything else, an upgrade from
another page's origin refused, and the terminal's client still at home on the same port.
No browser here: tests/browser drives the page in Chromium."""

from __future__ import annotations

import http.client
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tables_net import RawClient, Server

from tutor.app.tables._web import CSP, PAGES, WEB, origin_ok, page_address


def _get(page: str, path: str, headers: dict | None = None):
    u = urlsplit(page)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), r.read()
    finally:
        conn.close()


def test_every_page_file_is_shipped_and_holds_no_inline_script_or_html_from_text():
    names = {name for name, _ in PAGES.values()}
    assert names == {p.name for p in WEB.iterdir()}, "a file under web/ that no path serves"
    for name in names:
        text = (WEB / name).read_text(encoding="utf-8")
        if name.endswith(".html"):
            # every script is a file of its own (the CSP allows no other), no handler attribute
            assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), name
            assert not re.search(r"\son[a-z]+\s*=", text), name
            assert "style=" not in text, name
        if name.endswith(".js"):
            # every text from the network is set as text: no HTML parser is ever fed
            for sink in (
                "innerHTML",
                "outerHTML",
                "insertAdjacentHTML",
                "document.write",
                "eval(",
                "new Function",
            ):
                assert sink not in text, f"{name} uses {sink}"


def test_a_wheel_ships_the_page(tmp_path):
    """hatchling puts every file under tutor/ into the wheel (a non-editable install, as CI's,
    has the page): the files are package data, beside the module that serves them."""
    import tomllib

    conf = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    wheel = conf["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == ["tutor"] and "exclude" not in wheel
    assert WEB.parent.name == "tables" and WEB.parent.parent.name == "app"


@pytest.mark.parametrize(
    "origin, host, ok",
    [
        (None, "127.0.0.1:9", True),  # a terminal client: no Origin
        ("http://127.0.0.1:9", "127.0.0.1:9", True),
        ("https://Tables.Example.org", "tables.example.org", True),
        ("http://127.0.0.1:10", "127.0.0.1:9", False),  # another port is another origin
        ("http://evil.example", "127.0.0.1:9", False),
        ("null", "127.0.0.1:9", False),  # a sandboxed or file: page
        ("file://", "127.0.0.1:9", False),
        ("http://127.0.0.1:9", None, False),
    ],
)
def test_origin_ok(origin, host, ok):
    assert origin_ok(origin, host) is ok


def test_an_allowed_origin_is_taken_behind_a_proxy():
    assert origin_ok("https://club.example.org", "127.0.0.1:8765", ("https://club.example.org/",))
    assert page_address("ws://127.0.0.1:8765") == "http://127.0.0.1:8765/"
    assert page_address("ws://0.0.0.0:8765", "192.168.1.20") == "http://192.168.1.20:8765/"


def test_the_server_answers_http_and_a_terminal_client_plays_on_the_same_port(tmp_path):
    srv = Server(
        tmp_path, tmp_path / "srv", "--players", "3", "--deals", "1", "--pace", "0", "--gap", "0"
    )
    bob = None
    try:
        page = srv.info["page"]
        assert page == srv.address.replace("ws://", "http://") + "/"
        status, headers, body = _get(page, "/")
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert headers["Content-Security-Policy"] == CSP
        assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert b'<script src="table.js" defer></script>' in body
        for path in ("/table.js", "/cards.js", "/table.css", "/admin", "/admin.js", "/?code=1"):
            assert _get(page, path)[0] == 200, path
        assert _get(page, "/favicon.ico")[0] == 204
        for path in ("/../pyproject.toml", "/server.json", "/web/table.js", "/etc/passwd"):
            assert _get(page, path)[0] == 404, path
        upgrade = {
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        }
        status, _, body = _get(page, "/ws", {**upgrade, "Origin": "http://evil.example"})
        assert status == 403 and b"origin" in body
        status, _, _ = _get(page, "/elsewhere", upgrade)
        assert status == 404
        # the terminal's client, at "/" with no Origin, and a page's path "/ws" both play
        bob = RawClient(srv.address, {"type": "join", "code": srv.code, "name": "Bob"})
        from websockets.sync.client import connect

        with connect(srv.address + "/ws", origin=page.rstrip("/"), open_timeout=10) as ws:
            ws.send(json.dumps({"v": 1, "type": "ping", "seq": 7}))
            assert json.loads(ws.recv(10)) == {"v": 1, "type": "pong", "seq": 7}
        assert bob.done.wait(60)
        welcome = bob.of("welcome")[0]
        assert welcome["scoring"].startswith("Pot ") and bob.of("match_over")
    finally:
        if bob is not None:
            bob.close()
        srv.stop()
    assert "Traceback" not in srv.log()
