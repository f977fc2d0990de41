"""Files in and out. Every input is read the one bounded way: at most a few megabytes, UTF-8 (a BOM allowed),
nesting and numbers bounded before parsing deeper, and every failure one :class:`InputError` naming the file, the
field and the value: odds inputs (JSON), scenarios (TOML), saved games (JSON, :func:`read_json`) and sweep files
(TOML, :func:`load_toml_file`). Every output is checked before any work and written whole or not at all.

A regular output file is written to a temporary file beside it and renamed over it, so a failed write leaves the
old file and no temporary one. The new file gets the permissions any program's new file gets (``0o666`` less the
umask), or keeps those of the file it replaces. A symbolic link is written through (the file it points to is
replaced, the link stays), and a target that is not a regular file (a pipe, a terminal), or one named through
``/dev`` or ``/proc`` (``/dev/stdout`` redirected to a file, which the shell holds open), is written in place.

>>> parse_json('{"quality": 3}', "q.json")
{'quality': 3}
>>> parse_json('{"quality": 3, "quality": 4}', "q.json")
Traceback (most recent call last):
kessen.core.errors.InputError: q.json: quality: the key is given twice
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from kessen.core.errors import InputError
from kessen.core.records import record
from kessen.io.bounds import JsonHooks, check_tree, prefixed, scan_json, scan_toml

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")

MIB = 2**20
STANDARD_INPUT = "standard input"
_BOM = "\ufeff"


@record
class FileKind:
    """A kind of input file and the most bytes one may have (far above any real one, far below harm)."""

    name: str
    limit: int

    @property
    def a_file(self) -> str:
        """``a scenario file``, ``an odds input file``."""
        return f"{'an' if self.name[0] in 'aeiou' else 'a'} {self.name} file"


ODDS_INPUT = FileKind("odds input", 1 * MIB)
SCENARIO = FileKind("scenario", 1 * MIB)
SAVE = FileKind("save", 16 * MIB)
SWEEP = FileKind("sweep", 1 * MIB)


def read_input(path: str, kind: FileKind, *, stdin: BinaryIO | None = None) -> str:
    """The text of the file *path* (``-``: standard input), refused past *kind*'s limit without reading on."""
    if path == "-":
        data = (stdin or sys.stdin.buffer).read(kind.limit + 1)
        return decode(_within(data, kind, STANDARD_INPUT), STANDARD_INPUT)
    try:
        with open(path, "rb") as f:
            info = os.fstat(f.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError
            if stat.S_ISREG(info.st_mode) and info.st_size > kind.limit:
                raise _too_large(path, kind)
            data = f.read(kind.limit + 1)
    except FileNotFoundError:
        raise InputError(path, InputError.NOTHING, f"no such file ({kind.a_file} was expected)") from None
    except IsADirectoryError:
        raise InputError(path, InputError.NOTHING, f"is a folder, not {kind.a_file}") from None
    except OSError as error:
        raise InputError(path, InputError.NOTHING, f"cannot read the file ({(error.strerror or str(error)).lower()})") from None
    return decode(_within(data, kind, path), path)


def _within(data: bytes, kind: FileKind, source: str) -> bytes:
    if len(data) > kind.limit:
        raise _too_large(source, kind)
    return data


def _too_large(source: str, kind: FileKind) -> InputError:
    return InputError(source, InputError.NOTHING, f"larger than {kind.a_file} may be ({kind.limit // MIB} MiB)")


def decode(data: bytes, source: str) -> str:
    """UTF-8 bytes as text, without a leading BOM; other bytes name where they are."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(f"{source}: line {line}", InputError.NOTHING, f"not UTF-8 text (byte 0x{data[error.start]:02x})") from None
    return text.removeprefix(_BOM)


# --- JSON ------------------------------------------------------------------------------------


def parse_json(text: str | bytes, source: str | None) -> Any:
    """JSON text as data, bounded (:mod:`kessen.io.bounds`); keys given twice, NaN and infinities refused.

    *source* names the file in errors; ``None`` for text that came from no file (the Python API).
    """
    if isinstance(text, bytes):
        text = decode(text, source or "input")
    text = text.removeprefix(_BOM)
    scan_json(text, source)
    hooks = JsonHooks()
    try:
        data = json.loads(text, **hooks.keywords())
    except json.JSONDecodeError as error:
        raise InputError(source or "input", InputError.NOTHING, f"not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})") from None
    if hooks.suspect:
        check_tree(data, source)
    return data


def load_json(model: type[M], text: str | bytes, source: str | None) -> M:
    """JSON text validated strictly into *model*; every error names *source* (when given), the field and the value."""
    return _validated(model, parse_json(text, source), source)


# --- TOML ------------------------------------------------------------------------------------


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text as data, bounded (:mod:`kessen.io.bounds`); *source* names the file in errors."""
    import tomllib  # the odds path reads JSON alone

    text = text.removeprefix(_BOM)
    suspect = scan_toml(text, source)
    try:
        data = tomllib.loads(text)
    except ValueError as error:  # TOMLDecodeError, or an integer Python will not convert
        raise InputError(source, InputError.NOTHING, f"not valid TOML ({_lower_first(str(error))})") from None
    if suspect:
        check_tree(data, source)
    return data


def load_toml(model: type[M], text: str, source: str) -> M:
    """TOML text validated strictly into *model*; every error starts with *source*."""
    return _validated(model, parse_toml(text, source), source)


def read_json(path: str, kind: FileKind = SAVE) -> Any:
    """A JSON file of *kind* read and parsed, bounded (a save file by default)."""
    return parse_json(read_input(path, kind), path)


def load_toml_file(model: type[M], path: str, kind: FileKind) -> M:
    """A TOML file of *kind* read, bounded and validated into *model* (sweep files and any later kind)."""
    return load_toml(model, read_input(path, kind), path)


def _validated(model: type[M], data: Any, source: str | None) -> M:
    from kessen.io.validation import validate_data  # pydantic: loaded with the first model (a ruleset's procedures)

    try:
        return validate_data(model, data)
    except InputError as error:
        if source is None:
            raise
        raise InputError(prefixed(source, "" if error.field == "input" else error.field), error.value, error.reason) from None


# --- output ----------------------------------------------------------------------------------

TEMPORARY_PREFIX = ".kessen-"


def check_output(path: str, field: str | None = None) -> None:
    """Refuse, before a battle starts, an output *path* that cannot be written: a missing folder, a folder, an
    unwritable place. *field* is the option that named it (``--events``); errors name the path alone without."""
    if not path:
        raise InputError(field or "output", path, "give a file name")
    if Path(path).is_dir():
        raise _output_error(path, field, "is a folder, not a file")
    if _in_place(path):
        if not os.access(path, os.W_OK):
            raise _output_error(path, field, "cannot write there (permission denied)")
        return
    folder, shown = Path(os.path.realpath(path)).parent, Path(path).parent
    if not folder.is_dir():
        raise _output_error(path, field, f"no such folder: {shown}")
    try:  # the one sure test of a folder: make a file in it (as root, or on a read-only disk, access() lies)
        probe, name = _create_temporary(folder, 0o600)
    except OSError as error:
        raise _output_error(path, field, f"cannot write in {shown} ({_why(error)})") from None
    os.close(probe)
    os.unlink(name)


def write_text(path: str, content: str, field: str | None = None) -> None:
    """Write *content* to *path* whole, or raise InputError and leave no trace (see the module's docstring)."""
    data = content.encode("utf-8")
    try:
        if _in_place(path):
            with open(path, "wb") as f:
                f.write(data)
            return
        target = Path(os.path.realpath(path))
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
        _replace(target, data, mode)
    except OSError as error:
        raise _output_error(path, field, f"cannot write the file ({_why(error)})") from None


def _output_error(path: str, field: str | None, reason: str) -> InputError:
    return InputError(f"{field} {path}" if field else path, InputError.NOTHING, reason)


def _in_place(path: str) -> bool:
    """Whether *path* is written in place rather than replaced: an existing file that is not a regular one, or
    a name under ``/dev`` or ``/proc``."""
    if os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return os.path.exists(path)
    return os.path.exists(path) and not os.path.isfile(path)


def _replace(target: Path, data: bytes, mode: int | None) -> None:
    fd, temporary = _create_temporary(target.parent, 0o666 if mode is None else 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            if mode is not None:
                os.fchmod(f.fileno(), mode)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    except BaseException:  # a full disk, a signal: the temporary file goes, the old file stays
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def _create_temporary(folder: Path, mode: int) -> tuple[int, str]:
    """A new file in *folder* that no one else has (the umask applies to *mode*, as for any new file)."""
    import secrets  # only a file written needs it

    name = str(folder / f"{TEMPORARY_PREFIX}{secrets.token_hex(6)}.tmp")
    return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), name


def _why(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]
