"""``arle serve``: an analysis board in the browser (play, hints, analysis, editor, results).

The app is plain Starlette on uvicorn; the page is static HTML, CSS and JavaScript shipped in
``static/`` (no build step, nothing fetched from the network). See docs/web.md. Layer 6, beside
adapters and learn (docs/architecture.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from starlette.applications import Starlette

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> Starlette:
    """The ASGI app (see :func:`arle_ai.web.app.create_app`); imported lazily so that the
    library works without the ``web`` extra."""
    from arle_ai.web.app import create_app as _create

    return _create(*args, **kwargs)
