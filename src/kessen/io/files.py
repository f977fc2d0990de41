"""Data files: TOML text validated into a model, with errors that name the file, the field and the value."""

from __future__ import annotations

import tomllib
from typing import TypeVar

from pydantic import BaseModel

from kessen.core.errors import InputError
from kessen.io.validation import validate_data

M = TypeVar("M", bound=BaseModel)


def load_toml(model: type[M], text: str, source: str) -> M:
    """Parse TOML *text* and validate it strictly into *model*; every error starts with *source*."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(source, InputError.NOTHING, f"not valid TOML ({error})") from None
    try:
        return validate_data(model, data)
    except InputError as error:
        raise InputError(f"{source}: {error.field}", error.value, error.reason) from None


def read_json(path: str) -> object:
    """The parsed JSON of a file; a missing, unreadable or malformed file is an InputError naming it."""
    import json
    from pathlib import Path

    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(path, InputError.NOTHING, "no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(path, InputError.NOTHING, f"cannot read the file ({error.__class__.__name__})") from None
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise InputError(path, InputError.NOTHING, f"not valid JSON ({error.__class__.__name__})") from None


def write_text(path: str, content: str) -> None:
    """Write a whole file or nothing: a temporary file beside it, renamed over it."""
    import os
    import tempfile
    from pathlib import Path

    target = Path(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent if str(target.parent) else ".", prefix=".kessen-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(content)
        os.replace(tmp, target)
    except OSError as error:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise InputError("output", path, f"cannot write the file ({error.strerror})") from None
