"""What the engine works out once and keeps: :func:`remembered` answers from a memo table.

The records' **memo slots** (a Detachment's live models, a state's board facts) are private fields declared with
``kessen.core.records.memo``; ``kessen.core.records.evolve`` keeps one on the next value while the fields it is worked out
from are unchanged and resets it otherwise, so a memo always describes the value it is on.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


MISSING: Any = object()
"""What a memo table's ``get`` answers for a key it does not hold."""


def remembered(memo: dict[Hashable, Any], key: Hashable, compute: Callable[[], T]) -> T:
    """``memo[key]``, computed by *compute* the first time it is asked for (a miss is common: no KeyError is raised
    for it, which costs a traceback in the compiled engine)."""
    found: T = memo.get(key, MISSING)
    if found is MISSING:
        found = memo[key] = compute()
    return found
