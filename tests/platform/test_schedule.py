"""tests/schedule.py: the shares the suite's tests are handed to pytest-xdist's workers in."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tests import schedule


@dataclass
class FakeItem:
    nodeid: str
    markers: frozenset[str] = frozenset()
    fixturenames: list[str] = field(default_factory=list)

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def suite() -> list[FakeItem]:
    """A suite shaped like ours: unit modules around end-to-end ones, the static checks and the soak in
    the middle of the collection, some modules on PostgreSQL."""
    items: list[FakeItem] = []
    for m in range(40):
        items += [FakeItem(f"tests/unit/test_u{m:02}.py::t{n}") for n in range(25)]
        if m == 20:
            items += [FakeItem("tests/test_static_checks.py::ruff", frozenset({"static"})),
                      FakeItem("tests/test_static_checks.py::mypy", frozenset({"static"}))]
            items += [FakeItem("tests/e2e/test_soak.py::soak", frozenset({"e2e", "soak"}))]
        if m % 3 == 0:
            items += [FakeItem(f"tests/e2e/test_e{m:02}.py::t{n}", frozenset({"e2e"})) for n in range(1 + m % 5)]
        if m in (5, 30):
            items += [FakeItem(f"tests/e2e/test_pg{m}.py::t{n}", frozenset({"e2e"}), ["pg_server"]) for n in range(2)]
            items += [FakeItem(f"tests/unit/test_pg{m}.py::t{n}", fixturenames=["pg_server"]) for n in range(7)]
    return items


def module(item: FakeItem) -> str:
    return item.nodeid.split("::")[0]


def test_the_shares_are_xdists_first_sends() -> None:
    # worksteal's first schedule: each idle worker in turn gets len(pending) // workers_left tests
    assert schedule.share_sizes(2473, 4) == [618, 618, 618, 619]
    assert schedule.share_sizes(10, 3) == [3, 3, 4]
    assert sum(schedule.share_sizes(1017, 4)) == 1017


def test_four_workers_get_mixed_shares() -> None:
    items = suite()
    ordered = schedule.order(items, 4)
    assert sorted(i.nodeid for i in ordered) == sorted(i.nodeid for i in items)  # every test, once
    sizes = schedule.share_sizes(len(items), 4)
    bounds = [sum(sizes[:k]) for k in range(5)]
    shares = [ordered[bounds[k]:bounds[k + 1]] for k in range(4)]
    assert [i.nodeid for i in shares[0][:2]] == ["tests/test_static_checks.py::ruff", "tests/test_static_checks.py::mypy"]
    assert shares[1][0].nodeid == "tests/e2e/test_soak.py::soak"
    e2e_modules = {module(i) for i in items if i.get_closest_marker("e2e") and not i.get_closest_marker("soak")}
    where: dict[str, set[int]] = {m: set() for m in e2e_modules}
    for k, share in enumerate(shares):
        for i in share:
            if module(i) in where:
                where[module(i)].add(k)
        # an end-to-end module's tests stay together, in the front three quarters of a share
        e2e_at = [n for n, i in enumerate(share) if module(i) in e2e_modules]
        for m in {module(share[n]) for n in e2e_at}:
            at = [n for n in e2e_at if module(share[n]) == m]
            assert at == list(range(at[0], at[-1] + 1)), m
        assert not e2e_at or e2e_at[-1] < len(share) * 0.8
        # and they are spread: not all at the front of the share
        if len({module(share[n]) for n in e2e_at}) > 2:
            assert e2e_at[-1] - e2e_at[0] > len(share) / 3
    assert all(len(ks) == 1 for ks in where.values()), where
    # every share but the soak's has end-to-end work, and the soak's the least (here none: the soak
    # weighs more than a share's part of the other end-to-end tests)
    e2e_count = Counter(k for m, ks in where.items() for k in ks for i in items if module(i) == m)
    assert {0, 2, 3} <= set(e2e_count)
    assert e2e_count[1] == min(e2e_count[k] for k in range(4))
    # the unit tests on PostgreSQL in one share, with end-to-end tests on it: no other worker starts a server
    # for them
    pg_units = {k for k, share in enumerate(shares) for i in share
                if "pg_server" in i.fixturenames and not i.get_closest_marker("e2e")}
    assert len(pg_units) == 1
    (k,) = pg_units
    assert any("pg_server" in i.fixturenames and i.get_closest_marker("e2e") for i in shares[k])


def test_one_worker_keeps_the_collection_order_after_the_static_checks_and_the_soak() -> None:
    items = suite()
    ordered = schedule.order(items, 1)
    assert [i.nodeid for i in ordered[:3]] == ["tests/test_static_checks.py::ruff", "tests/test_static_checks.py::mypy",
                                                "tests/e2e/test_soak.py::soak"]
    rest = [i for i in items if not i.get_closest_marker("static") and not i.get_closest_marker("soak")]
    assert ordered[3:] == rest
