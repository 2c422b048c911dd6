"""What the web app accepts before a request reaches a route: its Host, where it comes from,
and what its body is.

The server runs on the user's machine and holds the user's games, so a web page elsewhere
must not drive it:

- The ``Host`` header must name this server (127.0.0.1, localhost, the address it is bound
  to; for a wildcard bind the machine's names and addresses, plus ``--allow-host``): a page
  whose own name was rebound to this machine (DNS rebinding) sends its own name and is
  refused, so it cannot read the replies.
- A request that changes something (any method but GET, HEAD, OPTIONS) whose ``Origin`` is
  not the server's own is refused, and so is any request to the API that the browser marks
  ``Sec-Fetch-Site: cross-site`` or ``same-site``: a page elsewhere could otherwise send
  ``text/plain`` or form posts, which browsers send without asking first (no preflight).
  Clients other than browsers send no ``Origin`` and are served.
- A request body must be JSON sent as ``Content-Type: application/json`` (a type that a page
  elsewhere can only send after a preflight, which this server never grants).

Every refusal is a JSON ``{"error": ...}`` like the app's own (400, 403, 415).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["RequestGuard", "host_name"]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_TYPE = "application/json"


def host_name(value: str) -> str:
    """The host of a ``Host`` header or an address, without port, brackets or a final dot,
    in lower case: ``[::1]:8765`` -> ``::1``, ``LocalHost.:80`` -> ``localhost``."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        name = value[1:end] if end > 0 else value[1:]
    elif value.count(":") == 1:
        name = value.partition(":")[0]
    else:  # a bare IPv6 address, or a name without port
        name = value
    return name.rstrip(".")


def _refuse(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class RequestGuard:
    """ASGI middleware refusing requests by Host, origin and body type (module docstring).
    ``hosts``: the host names accepted; ``"*"`` accepts any Host (never used by ``arle
    serve``)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        names = list(hosts)
        self.any_host = "*" in names
        self.hosts = frozenset(host_name(h) for h in names if h != "*")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self.refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> JSONResponse | None:
        """The answer refusing the request, or None to serve it."""
        headers = Headers(scope=scope)
        host = headers.get("host")
        if host is None or not host.strip():
            return _refuse(400, "the request has no Host header")
        if not self.any_host and host_name(host) not in self.hosts:
            return _refuse(400, f"the Host header {host[:80]!r} does not name this server "
                                f"(arle serve --allow-host NAME accepts another name)")
        method = scope["method"]
        api = scope["path"].startswith("/api/")
        site = headers.get("sec-fetch-site", "").lower()
        if (api or method not in SAFE_METHODS) and site in ("cross-site", "same-site"):
            return _refuse(403, f"a request from another site's page is refused "
                                f"(Sec-Fetch-Site: {site})")
        if method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        own = f"{scope.get('scheme', 'http')}://{host.strip()}".lower()
        if origin is not None and origin.strip().lower().rstrip("/") != own:
            return _refuse(403, f"a request from another site's page is refused (its Origin "
                                f"{origin[:80]!r} is not {own!r})")
        has_body = (headers.get("content-length", "0").strip() not in ("0", "")
                    or "transfer-encoding" in headers)
        kind = headers.get("content-type", "").partition(";")[0].strip().lower()
        if has_body and kind != JSON_TYPE:
            shown = kind[:60] or "none"
            return _refuse(415, f"the request body must be JSON sent with Content-Type: "
                                f"{JSON_TYPE} (it was {shown})")
        return None
