"""The page's static files, read once into memory: a request's path is only ever a key, never opened."""

from __future__ import annotations

import hashlib
from importlib import resources
from importlib.abc import Traversable

from kessen.core.records import record

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
}


@record
class Asset:
    """One static file: its bytes, media type and a content hash for ``ETag``."""

    body: bytes
    media_type: str
    etag: str


def load_assets() -> dict[str, Asset]:
    """Every file under ``kessen/web/static`` by its path relative to that folder (``js/form.js``)."""
    found: dict[str, Asset] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            name = f"{prefix}{entry.name}"
            if entry.is_dir():
                walk(entry, f"{name}/")
            else:
                suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
                body = entry.read_bytes()
                found[name] = Asset(body, _TYPES.get(suffix, "application/octet-stream"), '"' + hashlib.sha256(body).hexdigest()[:20] + '"')

    walk(resources.files("kessen.web").joinpath("static"), "")
    return found
