"""A mypy plugin (``[tool.mypy] plugins`` in pyproject.toml): what mypy accepts but the compiled engine would run
differently (issue 26).

mypyc compiles ``a == b`` and ``a != b`` between two values of one ``@record`` class declared in a compiled module as
``a is b`` and ``a is not b``: it does not see the ``__eq__`` the decorator adds (it sees one only under the literal
``@dataclass``), so two equal records made apart compare unequal there, and the compiled engine would play another
game than the Python source. ``mypy`` reports each such comparison in a compiled module; ask it as
``kessen.core.records.equal(a, b)`` instead.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from mypy.plugin import MethodContext, Plugin
from mypy.types import Instance, Type, get_proper_type

ROOT = Path(__file__).resolve().parent


@cache
def compiled_modules() -> frozenset[str]:
    """The modules ``setup.py`` compiles, by name."""
    sys.path.insert(0, str(ROOT))
    try:
        from setup import compiled_modules as files
    finally:
        sys.path.remove(str(ROOT))
    return frozenset(str(Path(file).relative_to("src").with_suffix("")).replace("/", ".") for file in files())


def _compared_by_identity(receiver: Instance) -> bool:
    """Whether mypyc compiles ``==`` between two values of this class as ``is``: a class of a compiled module with no
    ``__eq__`` of its own or of a base that mypyc sees, and not the literal ``@dataclass`` (a native dataclass)."""
    info = receiver.type
    if info.module_name not in compiled_modules() or any("__eq__" in base.names for base in info.mro[:-1]):
        return False
    decorators = [getattr(d, "fullname", "") or getattr(getattr(d, "callee", None), "fullname", "") for d in info.defn.decorators]
    return not any(name.startswith("dataclasses.") for name in decorators)


def _check(ctx: MethodContext) -> Type:
    receiver, other = get_proper_type(ctx.type), ctx.arg_types[0][0] if ctx.arg_types and ctx.arg_types[0] else None
    module = getattr(getattr(ctx.api, "tree", None), "fullname", "")  # the module being checked
    if (
        module in compiled_modules() and isinstance(receiver, Instance) and isinstance(other := get_proper_type(other), Instance)
        and other.type == receiver.type and _compared_by_identity(receiver)
    ):
        ctx.api.fail(
            f"two {receiver.type.name} records compared with ==/!= in a compiled module: mypyc compiles it as is/is not "
            "(use kessen.core.records.equal)", ctx.context,
        )
    return ctx.default_return_type


class CompiledEquality(Plugin):
    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return _check if fullname.endswith((".__eq__", ".__ne__")) else None


def plugin(version: str) -> type[Plugin]:
    return CompiledEquality
