"""The order the suite's tests are handed to pytest-xdist's workers in (``tests/conftest.py``).

``--dist worksteal`` (the README's test command) gives each of the ``n`` workers one contiguous share of
the collected tests, of equal count, and runs each share in order; a worker that runs out takes the back
half of the longest queue left. Collected by path, the end-to-end tests (a hundred tests that mostly wait
on bot processes, timers and sockets) would sit together in one share and the two thousand unit tests
(which compute) in the others, so the workers would wait together at one time and compute together at
another. :func:`order` builds the shares itself instead:

* the lint and type checks (marker ``static``) open the first share and the soak (marker ``soak``, the
  longest test) the second, so that both run beside the rest from the start;
* every end-to-end module (marker ``e2e``) goes whole to the share with the least end-to-end work so
  far (a module's tests share its bot process and loop), longest first, counting the soak and the static
  checks as :data:`SOAK_WEIGHT` and :data:`STATIC_WEIGHT` tests;
* the unit tests that use the throwaway PostgreSQL server (one per worker that needs one) join the
  share with the most end-to-end tests on it, so that they start no other server;
* the unit tests fill each share to its count, in collection order, and the share's end-to-end modules
  are spread among them over its first :data:`E2E_SPAN` (the back, which other workers take, is unit
  tests).

With one worker (or none) the order is the collection's, the static checks and the soak first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

SOAK_WEIGHT = 20
"""The soak's time in end-to-end tests (about 200 s of a loaded run against about 10 s)."""
STATIC_WEIGHT = 3
"""mypy's and ruff's time in end-to-end tests (about 30 s of a loaded run)."""
E2E_SPAN = 0.75
"""How much of a share, from its front, its end-to-end modules are spread over."""


class Item(Protocol):
    @property
    def nodeid(self) -> str: ...

    def get_closest_marker(self, name: str) -> object | None: ...


T = TypeVar("T", bound=Item)


def _module(item: Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _uses_pg(item: Item) -> bool:
    fixtures: Sequence[str] = getattr(item, "fixturenames", ())
    return "pg_server" in fixtures


def _rank(item: Item) -> int:
    return 0 if item.get_closest_marker("static") else 1 if item.get_closest_marker("soak") else 2


def share_sizes(total: int, workers: int) -> list[int]:
    """The counts pytest-xdist's worksteal scheduler first sends each worker (``len(pending) //
    nodes_remaining``, in turn)."""
    sizes = []
    for i in range(workers):
        sizes.append(total // (workers - i))
        total -= sizes[-1]
    return sizes


def order(items: list[T], workers: int) -> list[T]:
    """``items`` in the order to run them on ``workers`` workers (see the module's docstring)."""
    items = sorted(items, key=_rank)  # stable
    if workers <= 1 or len(items) < 4 * workers:
        return items
    sizes = share_sizes(len(items), workers)
    fronts: list[list[T]] = [[] for _ in range(workers)]
    weights = [0.0] * workers
    static = [i for i in items if _rank(i) == 0]
    soak = [i for i in items if _rank(i) == 1]
    fronts[0] += static
    weights[0] += STATIC_WEIGHT if static else 0
    fronts[1] += soak
    weights[1] += SOAK_WEIGHT if soak else 0
    modules: dict[str, list[T]] = {}
    for item in items:
        if _rank(item) == 2 and item.get_closest_marker("e2e"):
            modules.setdefault(_module(item), []).append(item)
    e2e: list[list[list[T]]] = [[] for _ in range(workers)]
    for module in sorted(modules, key=lambda m: -len(modules[m])):
        fits = [k for k in range(workers) if len(fronts[k]) + sum(map(len, e2e[k])) + len(modules[module]) <= sizes[k]]
        if not fits:  # nothing fits whole (a tiny run): keep collection order
            return items
        target = min(fits, key=lambda k: weights[k])
        e2e[target].append(modules[module])
        weights[target] += len(modules[module])
    # the unit tests on PostgreSQL join the share with the most end-to-end tests on it
    pg_share = max(range(workers), key=lambda k: (sum(_uses_pg(t) for tests in e2e[k] for t in tests), -weights[k]))
    placed = {id(i) for i in static + soak} | {id(i) for tests in modules.values() for i in tests}
    units = [i for i in items if id(i) not in placed]
    pg_units = [i for i in units if _uses_pg(i)]
    other_units = [i for i in units if not _uses_pg(i)]
    out: list[T] = []
    for k in range(workers):
        share = list(fronts[k])
        room = sizes[k] - len(share) - sum(map(len, e2e[k]))
        fill: list[T] = []
        if k == pg_share:
            fill, pg_units = pg_units[:room], pg_units[room:]
        fill, other_units = fill + other_units[:room - len(fill)], other_units[room - len(fill):]
        # the modules at even steps over the first E2E_SPAN of the unit tests, then the rest
        step = len(fill) * E2E_SPAN / len(e2e[k]) if e2e[k] else 0
        at = 0
        for n, module_tests in enumerate(e2e[k]):
            upto = int(n * step)
            share += fill[at:upto] + module_tests
            at = upto
        share += fill[at:]
        out += share
    out += pg_units + other_units  # none left: the shares add up to the whole
    return out
