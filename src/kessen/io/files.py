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
