"""What keeps other sites out: the server answers only its own pages, by its own names.

The server is a program on the person's machine, reachable by any page their browser
opens. A request that changes something must be JSON from the server's own pages, and no
API answer is given to another site (Guard); every answer carries headers that forbid
framing, sniffing and referrers (SecurityHeaders); no text sent to a page names a folder of
the machine (`public`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .game import Refused

LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
FOREIGN = ("refused: this request comes from a page of another site; use this server's own "
           "pages")
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
     b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # seat links hold tokens
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]


# An absolute file path (POSIX or Windows), its last part captured: install paths and the
# person's folders are not for pages (a rule's fault names its file, a program's its own). A
# slash with no name after it is not a path (a division in a rule's text: `worth / 2`).
_ABSOLUTE = re.compile(r"(?<![\w.~])(?:[A-Za-z]:)?[/\\](?:[^\s'\"`:,;()\[\]{}<>/\\]+[/\\])*"
                       r"([^\s'\"`:,;()\[\]{}<>/\\]+)")


def public(text: str) -> str:
    """`text` as a page may be told it: every absolute file path cut to its file's name."""
    return _ABSOLUTE.sub(r"\1", text)


def refusal(refused: Refused) -> JSONResponse:
    return JSONResponse({"error": public(refused.reason)}, status_code=refused.status)


class Guard:
    """Refuses, before any route sees it, a request that a page of another site may have
    sent through the person's browser: one for a name the server does not answer to (a
    site whose name was pointed at this machine), an API request from another site
    (Origin or Sec-Fetch-Site), and a request that changes something without a JSON body
    (a form or text/plain post needs no permission from the browser; JSON does)."""

    def __init__(self, app: ASGIApp, hosts: Collection[str] | None = None):
        self.app = app
        self.hosts = None if hosts is None else {name.lower() for name in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = self.problem(scope)
            if refused is not None:
                await refusal(refused)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def problem(self, scope: Scope) -> Refused | None:
        """Why the request is refused, or None."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            return Refused(400, "this server answers only to requests for "
                           + ", ".join(sorted(self.hosts)))
        changes = scope["method"] not in ("GET", "HEAD")
        if changes or scope["path"].startswith("/api/"):
            site = headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                return Refused(403, FOREIGN)
            origin = headers.get("origin")
            if origin is not None and not same_origin(origin, host):
                return Refused(403, FOREIGN)
        if changes:
            media = headers.get("content-type", "").partition(";")[0].strip().lower()
            if media != "application/json":
                return Refused(415, "a request that changes something sends JSON "
                               "(Content-Type: application/json)")
        return None


def host_name(host: str) -> str:
    """The name in a Host header, without its port or an IPv6 address's brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def same_origin(origin: str, host: str) -> bool:
    """Whether an Origin header names the server itself, as the request's Host does (the
    scheme is not compared: a proxy in front may speak https for it)."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) \
        and parts.netloc.lower() == host.strip().lower()


def allowed_hosts(listening: str) -> frozenset[str] | None:
    """The names a server listening on `listening` answers to: this machine's own, and
    the address it was given; None (any) for every address (0.0.0.0, ::), as the names
    others reach it by are not known."""
    name = host_name(listening) if listening.startswith("[") else listening.lower()
    if name in ("", "0.0.0.0", "::"):
        return None
    return LOCAL_NAMES | {name}


class SecurityHeaders:
    """Adds the headers every answer carries (no framing, no sniffing, no referrer)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)
        await self.app(scope, receive, sending if scope["type"] == "http" else send)
