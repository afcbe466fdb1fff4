"""Issue 23, item 7: the SQLite file holds every hand and the key that signs the controls, so it and
its ``-wal``/``-shm`` companions are the owner's alone (mode 0600), however permissive the process's
umask, also when SQLite creates the companions later, and also for a file an older version created 0644."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.core.store import Store


@pytest.fixture
def loose_umask() -> Iterator[None]:
    old = os.umask(0o022)  # the usual default: new files 0644, which is what the issue found
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def some_writes(store: Store) -> None:
    for i in range(5):
        await store.meta_setdefault(f"probe{i}", "x" * 1000)


async def test_a_new_database_and_its_wal_and_shm_are_owner_only(tmp_path: Path, loose_umask: None) -> None:
    path = tmp_path / "var" / "tabletop.sqlite3"
    store = await Store.open(path)
    try:
        await some_writes(store)
        files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
        assert all(f.exists() for f in files), [f.name for f in files if not f.exists()]  # WAL mode: all three
        assert {f.name: oct(mode(f)) for f in files} == {f.name: "0o600" for f in files}
    finally:
        await store.close()
    assert mode(path) == 0o600


async def test_an_old_world_readable_database_is_tightened_at_open(tmp_path: Path, loose_umask: None) -> None:
    path = tmp_path / "tabletop.sqlite3"
    store = await Store.open(path)
    await some_writes(store)
    await store.close()
    for f in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if f.exists():
            f.chmod(0o644)  # as a version before issue 23 left them
    store = await Store.open(path)
    try:
        await some_writes(store)
        for f in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            assert mode(f) == 0o600, f.name
    finally:
        await store.close()
