"""`unmanaged`: numba's `njit` (cached) without its reference counting.

numba increments and decrements an atomic count for every array passed to a compiled function,
at every call, so that arrays allocated in compiled code can be freed. The simulator's compiled
functions allocate nothing (their callers pass every array), so they are compiled without the
runtime (`_nrt=False`): in the game loop those atomic operations were half of the time of a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from numba import njit

F = TypeVar("F", bound=Callable[..., Any])


def unmanaged(**options: Any) -> Callable[[F], F]:
    """`njit(cache=True, **options)` without reference counting; such a function may not
    allocate (numba refuses to compile it if it does)."""
    decorate: Callable[[F], F] = njit(cache=True, _nrt=False, **options)  # type: ignore[call-overload]
    return decorate
