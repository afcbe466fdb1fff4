"""Per-test CPU profile, on request: ``TEST_CPU_PROFILE=<dir> python -m pytest ...``.

For every test (set-up, call and tear-down together) it records the user+sys CPU seconds of the
test process and of the children it has waited for (bot processes and their render workers, a
PostgreSQL server, ...), and writes one JSON file per process (``cpu-<worker>.jsonl``),
each test as it ends, one JSON line per test: ``{"test": "<node id>", "cpu_s": ..., "self_s": ...,
"children_s": ..., "wall_s": ..., "start": <epoch s>}`` (a worker that crashes keeps what it measured). The
process that runs the session (the xdist controller, or the only process) also writes ``session.json``: when the
session started and finished, so the report shows the time spent outside any test (start-up, collection,
tear-down).
A module-scoped fixture's set-up is counted on its module's first test, its tear-down on the last.
``python -m tests.cpuprofile <dir>`` ranks the tests and the modules of such a run.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

ENV = "TEST_CPU_PROFILE"


class CpuProfile:
    def __init__(self, folder: Path, worker: str) -> None:
        self.folder = folder
        self.worker = worker
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"cpu-{worker}.jsonl"

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session_start = time.time()

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.worker == "main":
            (self.folder / "session.json").write_text(
                json.dumps({"start": self.session_start, "finish": time.time()}), encoding="utf-8")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, None, None]:
        before, wall, start = os.times(), time.perf_counter(), time.time()
        yield
        after = os.times()
        own = (after.user - before.user) + (after.system - before.system)
        children = (after.children_user - before.children_user) + (
            after.children_system - before.children_system
        )
        row = {"test": item.nodeid, "cpu_s": round(own + children, 3), "self_s": round(own, 3),
               "children_s": round(children, 3), "wall_s": round(time.perf_counter() - wall, 3),
               "start": round(start, 3)}
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")


def register(config: pytest.Config) -> None:
    """Adds the profiler to this pytest process when ``TEST_CPU_PROFILE`` names a folder."""
    folder = os.environ.get(ENV)
    if folder:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        config.pluginmanager.register(CpuProfile(Path(folder), worker), "cpu-profile")


def _load(folder: Path) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("cpu-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            row["worker"] = path.stem.removeprefix("cpu-")
            rows[row.pop("test")] = row
    return rows


def _outside_tests(folder: Path, rows: dict[str, dict[str, Any]]) -> list[str]:
    """How long the session ran before the first test and after each process's last one (profiles written
    with start times only)."""
    path = folder / "session.json"
    timed = [r for r in rows.values() if "start" in r]
    if not path.exists() or not timed:
        return []
    session = json.loads(path.read_text(encoding="utf-8"))
    ends: dict[str, float] = {}
    for row in timed:
        ends[row["worker"]] = max(ends.get(row["worker"], 0.0), row["start"] + row["wall_s"])
    first = min(r["start"] for r in timed)
    lines = [f"session {session['finish'] - session['start']:.1f} s: first test after "
             f"{first - session['start']:.1f} s; last test of each process ended before the session did by"]
    lines += [f"{session['finish'] - end:8.1f} s  {worker}" for worker, end in sorted(ends.items())]
    return lines + [""]


def report(folder: Path, top: int = 40) -> str:
    rows = _load(folder)
    total = sum(r["cpu_s"] for r in rows.values())
    modules: dict[str, float] = {}
    for node, row in rows.items():
        module = node.split("::", 1)[0]
        modules[module] = modules.get(module, 0.0) + row["cpu_s"]
    lines = [f"{len(rows)} tests, {total:.1f} s CPU", "", *_outside_tests(folder, rows), "modules:"]
    for module, cpu in sorted(modules.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"{cpu:8.1f}  {100 * cpu / total:5.1f}%  {module}")
    lines += ["", "tests:"]
    for node, row in sorted(rows.items(), key=lambda kv: -kv[1]["cpu_s"])[:top]:
        lines.append(f"{row['cpu_s']:8.1f}  (children {row['children_s']:6.1f})  {node}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 40))
