"""``arle serve``: the analysis board in the browser (a local web app, see docs/web.md)."""

from __future__ import annotations

import asyncio
import errno
import socket
from types import FrameType

import click

from arle_cli.common import fail, interrupted

# What Ctrl-C keeps: the games live in the server's memory only.
STOPPED = ("the server stopped; the games open in the browser were not kept (Save game "
           "downloads one first)")


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, or fail naming the address and the problem."""
    shown = host if len(host) <= 80 else host[:60] + "..."
    if not host.strip():
        fail("--host is empty: give an address such as 127.0.0.1")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        fail(f"cannot listen on {shown}:{port}: {exc.strerror}")
    except UnicodeError:  # the IDNA codec: a label over 63 characters, a name over 253
        fail(f"cannot listen on {shown}:{port}: not a valid host name (too long a name or "
             f"label)")
    except ValueError as exc:  # a NUL character
        fail(f"cannot listen on {shown!r}:{port}: {exc}")
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        hint = ""
        if exc.errno == errno.EADDRINUSE:
            hint = (f" (another program, perhaps another 'arle serve', listens there): "
                    f"choose another port with --port {_other_port(port)}, or --port 0 for "
                    f"any free one")
        fail(f"cannot listen on {shown}:{port}: {exc.strerror or exc}{hint}")
    return sock


def _other_port(port: int) -> int:
    """A port number to suggest instead of a busy ``port``: the next one (8766 for 8765)."""
    return port + 1 if 0 < port < 65535 else 8766


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="TCP port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind. The default serves this machine only; another address "
                   "lets anyone who can reach it use the app.")
@click.option("--allow-host", "allow_host", multiple=True, metavar="NAME",
              help="Also answer requests addressed to NAME (a name this machine has on the "
                   "network that it does not know itself); repeatable.")
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the web browser.")
def serve(port: int, host: str, allow_host: tuple[str, ...], open_browser: bool) -> None:
    """Start the web app: board, play against the AI, hints, analysis, position editor and
    tournament results, fully offline. Stop it with Ctrl-C (exit 130, as every command: the
    games open in the browser live in its memory and are not kept)."""
    try:
        import uvicorn

        from arle_ai.web.app import create_app
        from arle_ai.web.server import allowed_hosts, uvicorn_config
    except ModuleNotFoundError as exc:
        fail(f"arle serve needs the web extra ({exc.name} is missing): "
             f"python -m pip install \"arle-ai[web]\"")
    sock = _listen(host, port)
    bound = sock.getsockname()[1]
    # a request must name this server (DNS rebinding); a wildcard bind: any of its names
    app = create_app(allowed_hosts=allowed_hosts(host, allow_host))
    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            """Ctrl-C: stop the searches first, so that the requests waiting on them (a hint
            stream, an AI move) end now; uvicorn waited for them, up to their time limits."""
            app.state.web.stop_all()
            super().handle_exit(sig, frame)

    server = Server(uvicorn_config(app))
    url = f"http://{f'[{host}]' if ':' in host else host}:{bound}/"
    click.echo(f"arle serve: open {url} (Ctrl-C stops)", err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    stopped = False
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C it caught again once it has shut down
        stopped = True
    finally:
        app.state.web.stop_all()
        sock.close()
    if stopped:  # exit 130 with one line, like every other command
        interrupted(STOPPED)
