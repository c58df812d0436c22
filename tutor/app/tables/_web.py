"""The web client's side of the tables' server: plain HTTP on the same port as the WebSocket.

``laugh table serve`` answers a browser's ``GET`` with the page (:data:`PAGES`: the files of
``tutor/app/tables/web/``, shipped as package data and read once at start, no build step) and
upgrades ``/ws`` (and ``/``, where the terminal client connects) to the protocol of
:mod:`tutor.app.tables.protocol`.  Every page goes with a Content-Security-Policy that allows
no inline script and no other origin (:data:`CSP`); an upgrade that carries an ``Origin`` (a
browser's) is taken only from a page of this server (:func:`origin_ok`) or an origin the
organiser allowed (``--origin``, behind a TLS proxy that rewrites the host), and refused with
403 otherwise.  A terminal client sends no ``Origin`` and is taken as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

__all__ = ["CSP", "PAGES", "WS_PATHS", "WebFiles", "origin_ok", "page_address"]

#: Where the page's files are (package data beside this module).
WEB = Path(__file__).with_name("web")

#: Each path a browser may ask for: (file under ``web/``, its content type).
PAGES: dict[str, tuple[str, str]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/table.js": ("table.js", "text/javascript; charset=utf-8"),
    "/cards.js": ("cards.js", "text/javascript; charset=utf-8"),
    "/table.css": ("table.css", "text/css; charset=utf-8"),
    "/admin": ("admin.html", "text/html; charset=utf-8"),
    "/admin.js": ("admin.js", "text/javascript; charset=utf-8"),
    "/admin.css": ("admin.css", "text/css; charset=utf-8"),
}

#: The paths where a WebSocket upgrade is taken: ``/ws`` (the page's), ``/`` (the terminal's).
WS_PATHS = ("/", "/ws")

#: The page's Content-Security-Policy: its own scripts and styles only, no inline script or
#: style, connections to its own origin only (``'self'`` covers ``ws:``/``wss:`` there).
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cache-Control", "no-cache"),
)


def origin_ok(origin: str | None, host: str | None, allowed: tuple[str, ...] = ()) -> bool:
    """Whether a WebSocket upgrade with this ``Origin`` header may go on: none (not a
    browser), a page of the host the request was sent to (``http`` or ``https``, the same
    ``host[:port]``, case aside), or one of ``allowed`` (``scheme://host[:port]``)."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if origin in {a.strip().lower().rstrip("/") for a in allowed}:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not host:
        return False
    return parts.netloc == host.strip().lower()


#: A ``Host`` header's value: a name (an underscore allowed, as some local networks name
#: their machines) or an IPv4 address, or an IPv6 one in brackets, and an optional port.
_HOST = re.compile(
    r"(?:[A-Za-z0-9_][A-Za-z0-9._-]{0,252}|\[[0-9A-Fa-f:.]{2,45}\])"
    r"(?::[0-9]{1,5})?"
)
#: The headers the server reads, each of which a request may give once at most.
_ONCE = ("Host", "Origin", "Upgrade")


def _bad_headers(headers) -> str | None:
    """Why a request's headers cannot be answered (HTTP 400), or None: exactly one ``Host``,
    a host and port as :data:`_HOST` reads them (RFC 9112 3.2: "A server MUST respond with a
    400 (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header
    field and to any request message that contains more than one Host header field line or a
    Host header field with an invalid field value"), and ``Origin`` and ``Upgrade`` once at
    most."""
    for name in _ONCE:
        n = len(headers.get_all(name))
        if n > 1:
            return f"the {name} header is given {n} times"
    host = headers.get_all("Host")
    if not host:
        return "no Host header"
    if not _HOST.fullmatch(host[0]):
        return "the Host header is not a host and port"
    return None


def page_address(ws_address: str, host: str | None = None) -> str:
    """The page's address for the server at ``ws_address`` (``ws://h:p``), with ``host`` in
    place of its host when given (the address to share on the local network)."""
    parts = urlsplit(ws_address)
    netloc = parts.netloc
    if host is not None:
        h = f"[{host}]" if ":" in host else host
        netloc = f"{h}:{parts.port}"
    return f"{'https' if parts.scheme == 'wss' else 'http'}://{netloc}/"


@dataclass
class WebFiles:
    """The page's files, read once (:data:`PAGES`), and the hook that answers HTTP
    (:meth:`process_request`, websockets' ``process_request``).  ``origins``: origins allowed
    besides the server's own (``--origin``).  ``refused(text)`` is told of each upgrade refused
    (the server's quiet log)."""

    origins: tuple[str, ...] = ()
    refused: object = None

    def __post_init__(self) -> None:
        self.bodies = {name: (WEB / name).read_bytes() for name, _ in set(PAGES.values())}

    def process_request(self, connection, request):
        """Answer one request: None lets a WebSocket upgrade go on (on :data:`WS_PATHS`, from
        an origin :func:`origin_ok` takes); a page is sent with :data:`CSP`; a request whose
        ``Host`` is missing, given twice or not a host (or whose ``Origin`` or ``Upgrade`` is
        given twice) is 400; anything else is 404 (or 403 for an upgrade from another
        origin)."""
        from websockets.datastructures import Headers
        from websockets.http11 import Response

        path = request.path.split("?", 1)[0].split("#", 1)[0]
        bad = _bad_headers(request.headers)
        if bad is not None:  # (a header given twice was a 500 before)
            return connection.respond(400, f"Bad request: {bad}\n")
        upgrade = "websocket" in (request.headers.get("Upgrade") or "").lower()
        if upgrade:
            if path not in WS_PATHS:
                return connection.respond(404, "Not found: the table is at /ws\n")
            origin = request.headers.get("Origin")
            if not origin_ok(origin, request.headers.get("Host"), self.origins):
                if callable(self.refused):
                    self.refused(
                        f"a WebSocket from another page's origin refused: {(origin or '')[:80]!r}"
                    )
                return connection.respond(
                    403, "Forbidden: this page's origin may not sit at these tables\n"
                )
            return None
        page = PAGES.get(path)
        if path == "/favicon.ico":  # asked by every browser: nothing, and no error
            return Response(204, "No Content", Headers(list(_HEADERS)), b"")
        if page is None:
            return connection.respond(404, "Not found\n")
        name, kind = page
        body = self.bodies[name]
        headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body))), *_HEADERS])
        return Response(200, "OK", headers, body)
