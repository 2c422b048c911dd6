"""``arle serve``: the analysis board in the browser (a local web app, see docs/web.md)."""

from __future__ import annotations

import click

from arle_cli.common import fail


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="TCP port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind. The default serves this machine only; another address "
                   "lets anyone who can reach it use the app.")
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the web browser.")
def serve(port: int, host: str, open_browser: bool) -> None:
    """Start the web app: board, play against the AI, hints, analysis, position editor and
    tournament results, fully offline. Stop it with Ctrl-C."""
    try:
        import uvicorn

        from arle_ai.web.app import create_app
    except ModuleNotFoundError as exc:
        fail(f"arle serve needs the web extra ({exc.name} is missing): "
             f"python -m pip install \"arle-ai[web]\"")
    hosts = ["127.0.0.1", "localhost", host] if host not in ("0.0.0.0", "::") else ["*"]
    app = create_app(allowed_hosts=hosts)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            limit_concurrency=200, timeout_keep_alive=5)
    server = uvicorn.Server(config)
    shown = f"[{host}]" if ":" in host else host

    async def announce() -> None:  # after the socket is bound, so port 0 shows the real one
        import asyncio

        while not server.started:
            await asyncio.sleep(0.05)
        bound = server.servers[0].sockets[0].getsockname()[1] if server.servers else port
        url = f"http://{shown}:{bound}/"
        click.echo(f"arle serve: open {url} (Ctrl-C stops)", err=True)
        if open_browser:
            import webbrowser

            webbrowser.open(url)

    async def main() -> None:
        import asyncio

        task = asyncio.create_task(announce())
        try:
            await server.serve()
        finally:
            task.cancel()
            app.state.web.stop_all()

    import asyncio

    try:
        asyncio.run(main())
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        pass
