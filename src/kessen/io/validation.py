"""Strict validation of JSON and TOML input into frozen pydantic models, with one-line errors."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from kessen.core.errors import InputError
from kessen.io.bounds import field_path as field_path  # its home is bounds, which the odds path loads without pydantic

M = TypeVar("M", bound=BaseModel)


class StrictModel(BaseModel):
    """Base of every input model: strict JSON types, unknown fields rejected, frozen and hashable.

    Cross-field rules go in :meth:`check`, which raises :class:`InputError` naming the field.
    """

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    def check(self) -> None:
        """Cross-field rules; the default has none."""


def input_error(error: ValidationError, *, prefix: str = "") -> InputError:
    """The first problem of a pydantic error as an :class:`InputError` naming field and value."""
    first = error.errors(include_url=False)[0]
    kind, ctx, value = first["type"], first.get("ctx") or {}, first.get("input")
    field = field_path(tuple(first["loc"]))
    if prefix:
        field = f"{prefix}.{field}" if field != "input" else prefix
    reasons = {
        "missing": "required field is missing",
        "extra_forbidden": "unknown field",
        "int_type": "must be an integer",
        "int_parsing": "must be an integer",
        "bool_type": "must be true or false",
        "bool_parsing": "must be true or false",
        "string_type": "must be a string",
        "model_type": "must be an object",
        "dict_type": "must be an object",
        "list_type": "must be a list",
        "tuple_type": "must be a list",
        "float_type": "must be a number",
        "json_invalid": f"not valid JSON ({ctx.get('error', '')})",
        "literal_error": f"must be one of {ctx.get('expected', '')}",
        "enum": f"must be one of {ctx.get('expected', '')}",
        "greater_than_equal": f"must be ≥ {ctx.get('ge')}",
        "greater_than": f"must be > {ctx.get('gt')}",
        "less_than_equal": f"must be ≤ {ctx.get('le')}",
        "less_than": f"must be < {ctx.get('lt')}",
        "too_short": f"must have at least {ctx.get('min_length')} entries",
        "too_long": f"must have at most {ctx.get('max_length')} entries",
    }
    reason = reasons.get(kind) or _lower_first(str(first["msg"]))
    if kind == "missing":
        value = InputError.NOTHING
    return InputError(field, value, reason)


def validate_json(model: type[M], text: str | bytes, *, prefix: str = "") -> M:
    """Parse and validate JSON text strictly into *model*, then run its cross-field checks."""
    try:
        value = model.model_validate_json(text)
    except ValidationError as error:
        raise input_error(error, prefix=prefix) from None
    _check(value)
    return value


def validate_data(model: type[M], data: Mapping[str, Any] | Any, *, prefix: str = "") -> M:
    """Validate plain Python data with exactly the JSON rules (it goes through JSON once)."""
    if isinstance(data, model):
        _check(data)
        return data
    try:
        text = json.dumps(data)
    except (TypeError, ValueError) as error:
        raise InputError(prefix or "input", data, f"not representable as JSON ({error})") from None
    except RecursionError:  # too deep to encode, and too deep to repr as the shown value
        raise InputError(prefix or "input", InputError.NOTHING, "nested too deeply to be JSON") from None
    return validate_json(model, text, prefix=prefix)


def _check(value: BaseModel, path: str = "") -> None:
    """Run the cross-field checks of every nested model (list entries too), innermost first, then *value*'s own;
    a nested model's error names its field by the full path (``enemies[2].transfixed_in_contact``)."""
    for name in type(value).model_fields:
        child = getattr(value, name)
        where = f"{path}.{name}" if path else name
        if isinstance(child, BaseModel):
            _check(child, where)
        elif isinstance(child, tuple):
            for i, entry in enumerate(child):
                if isinstance(entry, BaseModel):
                    _check(entry, f"{where}[{i}]")
    check = getattr(value, "check", None)
    if check is None:
        return
    try:
        check()
    except InputError as error:
        if not path:
            raise
        raise InputError(f"{path}.{error.field}", error.value, error.reason) from None


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
