"""A least-recently-used cache bounded by the memory its values take, not by how many it holds.

One distinct question can cost a few hundred bytes or hundreds of kilobytes, so a cache bounded by count is
either too small for small questions or unbounded in memory for large ones. :class:`BoundedCache` keeps the
total *cost* of its entries (their size in bytes: :func:`deep_bytes` of a key, :func:`dist_bytes` of a
distribution) under a budget, dropping the least recently used first.

>>> cache = BoundedCache(budget=10, cost=lambda key, value: len(value))
>>> cache.get("a", lambda: "xxxx"), cache.get("b", lambda: "yyyy"), cache.get("a", lambda: "never")
('xxxx', 'yyyy', 'xxxx')
>>> cache.get("c", lambda: "zzzz")  # 12 > 10: "b", the least recently used, goes
'zzzz'
>>> sorted(cache.keys()), cache.cost
(['a', 'c'], 8)
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from types import BuiltinFunctionType, FunctionType, ModuleType
from typing import Any, Generic, TypeVar

from kessen.dice.dist import Dist

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """Values by hashable key, at most *budget* in total *cost* (of each key and its value); the least recently
    used go first. An entry that costs more than the whole budget is returned but not kept. Safe to share between
    threads."""

    def __init__(self, budget: int, cost: Callable[[K, V], int]) -> None:
        self.budget, self._cost_of = budget, cost
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._cost = 0
        self._lock = threading.Lock()

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value for *key*, computed by *compute* (outside the lock) when it is not held."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                return found[0]
        value = compute()
        cost = self._cost_of(key, value)
        if cost > self.budget:
            return value
        with self._lock:
            if key not in self._entries:
                self._entries[key] = (value, cost)
                self._cost += cost
            while self._cost > self.budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._cost -= dropped
        return value

    @property
    def cost(self) -> int:
        """The total cost of the values held."""
        return self._cost

    def keys(self) -> list[K]:
        with self._lock:
            return list(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._cost = 0


def deep_bytes(value: object) -> int:
    """About how many bytes *value* holds, everything it refers to included once (containers, objects' attributes
    and slots; classes, functions and modules not counted), without recursion.

    >>> deep_bytes((1, 2)) > deep_bytes(()) and deep_bytes([[1], [2]]) > deep_bytes([[1]])
    True
    """
    seen: set[int] = set()
    stack, total = [value], 0
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type | ModuleType | FunctionType | BuiltinFunctionType):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif not isinstance(item, str | bytes | int | float | bool) and item is not None:
            stack.extend(_attributes(item))
    return total


def _attributes(item: object) -> list[object]:
    found: list[object] = [vars(item)] if hasattr(item, "__dict__") else []
    for name in _attribute_names(type(item)):
        value = getattr(item, name, _UNSET)
        if value is not _UNSET:
            found.append(value)
    return found


_UNSET = object()
_NAMES: dict[type, tuple[str, ...]] = {}


def _attribute_names(cls: type) -> tuple[str, ...]:
    """The slots of *cls* and its bases, and its dataclass fields (a record compiled with mypyc is a native class
    with no ``__slots__``): the names once per class, not looked up again for every value of it."""
    found = _NAMES.get(cls)
    if found is None:
        names: dict[str, None] = {}
        for base in cls.__mro__:
            slots = getattr(base, "__slots__", ())
            names.update(dict.fromkeys((slots,) if isinstance(slots, str) else slots))
        names.update(dict.fromkeys(getattr(cls, "__dataclass_fields__", ())))
        found = _NAMES[cls] = tuple(name for name in names if name not in ("__dict__", "__weakref__"))
    return found


def dist_bytes(dist: Dist[Any]) -> int:
    """About how many bytes a distribution holds: its table, its outcome objects and its weights (shallow sizes:
    values the outcomes share with the rest of the program, like small integers and names, are not counted)."""
    table = sys.getsizeof(dist.weights())
    return table + sum(sys.getsizeof(outcome) + sys.getsizeof(weight) for outcome, weight in dist.items())
