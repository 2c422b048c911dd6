"""How ``arle serve`` runs the app on uvicorn: the host names it answers to, and connections
that cannot hold the server.

uvicorn alone waits forever for the first request of a connection (a byte at a time is
enough to keep it waiting), so 200 idle connections made every other request a 503 for as
long as they stayed open, and its own errors (503, 400) were plain text. :class:`GuardedH11`
(uvicorn's h11 protocol) gives each connection :data:`HEAD_SECONDS` to send a request's head
(after it opens and after each response); at :data:`MAX_CONNECTIONS` the connection idle the
longest is closed to make room, and only when every one is busy is a new one refused, with a
JSON 503. The app bounds the time of a request's body itself (``app.BODY_SECONDS``).
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import sys
import time
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["GuardedH11", "HEAD_SECONDS", "MAX_CONNECTIONS", "WILDCARDS", "allowed_hosts",
           "machine_hosts", "uvicorn_config"]

HEAD_SECONDS = 10.0  # to send a request's line and headers, from connect or the last response
MAX_CONNECTIONS = 200
WILDCARDS = ("0.0.0.0", "::", "[::]")


def _raw_response(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's head, room made at the
    connection limit by closing the longest idle connection, and JSON errors."""

    _waiting_since: float | None = None  # when the wait for a request head began
    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes = 0  # bytes received of the awaited request head
    _refused = False  # turned away at the connection limit

    # ---- the wait for a request head ----

    def _arm(self) -> None:
        self._disarm()
        self._waiting_since = time.monotonic()
        self._head_bytes = 0
        self._head_timer = self.loop.call_later(HEAD_SECONDS, self._head_timeout)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = None
        self._waiting_since = None

    @property
    def idle(self) -> bool:
        """Waiting for a request (none in progress)."""
        return self._waiting_since is not None

    def _head_timeout(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self._head_bytes:  # part of a request came, too slowly: say so
            self.transport.write(_raw_response(
                408, "Request Timeout", f"the request's head did not arrive within "
                                        f"{HEAD_SECONDS:g} s"))
        self.transport.close()

    # ---- uvicorn's protocol ----

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if len(self.connections) >= MAX_CONNECTIONS and not self._make_room():
            # refused once its request is read (closing on an unread request resets the
            # connection, and the client may never see the answer)
            self.transport = transport
            self._refused = True
            self._head_timer = self.loop.call_later(HEAD_SECONDS, transport.close)
            return
        super().connection_made(transport)
        self._arm()

    def _make_room(self) -> bool:
        """Close the connection that has waited longest for a request; False if none is
        waiting (all are busy)."""
        idle = [c for c in self.connections if isinstance(c, GuardedH11) and c.idle]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c._waiting_since or 0.0)
        oldest._disarm()
        oldest.transport.close()
        oldest.connections.discard(oldest)
        return True

    def data_received(self, data: bytes) -> None:
        if self._refused:
            if not self.transport.is_closing():
                self.transport.write(_raw_response(
                    503, "Service Unavailable", f"the server has {MAX_CONNECTIONS} "
                                                f"connections busy; try again in a moment"))
                self.transport.close()
            return
        if self._waiting_since is not None:
            self._head_bytes += len(data)
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle:  # a request's head is complete: the app has it now
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None
                                                or self.cycle.response_complete):
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if not self._refused:
            super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        self.transport.write(_raw_response(400, "Bad Request",
                                           "not an HTTP request this server can read"))
        self.transport.close()


def _interface_addresses() -> set[str]:
    """The IPv4 and IPv6 addresses of this machine's network interfaces (Linux; elsewhere
    none: the names and resolved addresses still count)."""
    found: set[str] = set()
    if not sys.platform.startswith("linux"):
        return found
    try:
        import fcntl

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _, name in socket.if_nameindex():
                try:
                    raw = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                      struct.pack("256s", name[:15].encode()))
                    found.add(socket.inet_ntoa(raw[20:24]))
                except OSError:  # no IPv4 address
                    pass
    except (OSError, ImportError):
        pass
    try:
        with open("/proc/net/if_inet6") as fh:
            for line in fh:
                hexaddr = line.split()[0]
                found.add(socket.inet_ntop(socket.AF_INET6, bytes.fromhex(hexaddr)))
    except (OSError, ValueError, IndexError):
        pass
    return found


def machine_hosts() -> set[str]:
    """The names and addresses of this machine a browser may use to reach a server bound to
    every address: localhost, the host name and its fully qualified name, the addresses they
    resolve to and the interfaces' addresses."""
    hosts = {"localhost", "127.0.0.1", "::1"}
    names = {socket.gethostname()}
    try:
        names.add(socket.getfqdn())
    except OSError:
        pass
    hosts |= {n for n in names if n}
    for name in names:
        try:
            infos: list[Any] = socket.getaddrinfo(name, None)
        except (OSError, UnicodeError):
            continue
        hosts |= {str(info[4][0]).partition("%")[0] for info in infos}
    return hosts | _interface_addresses()


def allowed_hosts(bound: str, extra: tuple[str, ...] = ()) -> list[str]:
    """The Host names a server bound to ``bound`` answers to: this machine's own (127.0.0.1,
    localhost, ::1) and ``bound``; for a wildcard bind every name and address of the machine
    (:func:`machine_hosts`); and ``extra`` (``--allow-host``)."""
    hosts = {"127.0.0.1", "localhost", "::1", bound.strip("[]")}
    if bound in WILDCARDS:
        hosts |= machine_hosts()
    return sorted(hosts | set(extra))


def uvicorn_config(app: Any, log_level: str = "warning") -> uvicorn.Config:
    """The uvicorn settings of ``arle serve`` (its tests run the same): the guarded h11
    protocol, no limit of uvicorn's own (its 503 was plain text), 5 s keep-alive."""
    return uvicorn.Config(app, http=GuardedH11, log_level=log_level, limit_concurrency=None,
                          timeout_keep_alive=5)
