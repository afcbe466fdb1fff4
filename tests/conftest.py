"""Suite-wide settings.

* Collection order (:mod:`tests.schedule`): the lint and type checks (``tests/test_static_checks.py``, mypy
  takes about 20 s) come first, then the soak (the longest test by far). Under ``pytest -n 4`` (pytest-xdist,
  the README's test command) each worker's first share of the suite also holds a quarter of the end-to-end
  modules, spread through it between CPU-bound unit tests, so that what waits on timers and sockets runs
  beside what computes.
* Bytecode: machines that set ``PYTHONDONTWRITEBYTECODE`` (this one and CI do) make every process
  the suite starts compile the project's sources again: each bot process, each render worker it
  spawns and each test worker, about 0.7 s of CPU apiece and a fifth of the suite's CPU in all. The
  suite lets them write bytecode, in ``__pycache__`` beside the sources (ignored by git), so each
  source is compiled once; what the processes do is unchanged. Not under a ``PYTHONPYCACHEPREFIX``:
  that would also move the standard library's and the installed packages' bytecode, which Python
  and pip have already compiled, and in a fresh checkout the first few processes each compiled all
  of it again (about 3 s of CPU apiece).
* Render layers: ``TABLETOP_RENDER_CACHE`` is ``var/render-layers`` unless set, so every bot process the suite
  starts (about 80) and the test processes load the static board layers the first one drew
  (:mod:`render.layers`) instead of each drawing them again (about 0.3 s of CPU per game and process).
* One throwaway PostgreSQL server per test process (:func:`tests.pg_server.pg_server`), started the
  first time a test asks for ``pg_server`` and shared by every module after it; each test takes a
  fresh schema or database on it (:func:`tests.pg_server.new_pg_url`).
* CPU profile: ``TEST_CPU_PROFILE=<dir>`` records each test's CPU seconds (the test process and the
  processes it waited for: bots, their render workers) in ``<dir>/cpu-<worker>.json``;
  ``python -m tests.cpuprofile <dir>`` ranks tests and modules (:mod:`tests.cpuprofile`).
* A failed test's report ends with the last of what each of its bot processes logged (``BOT_TAIL``
  characters), so that a timeout in CI, where only failures are printed, says what the bot was doing.
* ``shared_bot``: one bot process against one fake Discord for all the tests of a module that need no
  fresh process (see :mod:`tests.e2e.helpers`); such a module runs its tests on one event loop
  (``pytest.mark.asyncio(loop_scope="module")``). After its last test the bot is stopped as Docker
  stops it and its whole output must hold no traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio

from tests import schedule
from tests.cpuprofile import register as register_cpu_profile
from tests.pg_server import pg_server

if TYPE_CHECKING:
    from tests.e2e.helpers import SharedBot

os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# the static board layers each render process draws (render/layers.py), kept for the processes after it
os.environ.setdefault("TABLETOP_RENDER_CACHE", str(Path(__file__).resolve().parent.parent / "var" / "render-layers"))

__all__ = ["pg_server"]  # a fixture, for every test module


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_bot(request: pytest.FixtureRequest,
                     tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedBot]:
    """The module's bot, started with the module's ``SHARED_BOT_ENV`` (settings of its own) when it has one."""
    from tests.e2e.helpers import (  # imported here: after the bytecode set-up
        assert_clean_output,
        open_shared_bot,
    )
    from tests.fake_discord import FakeDiscord

    async with FakeDiscord() as fake:
        shared = await open_shared_bot(fake, tmp_path_factory.mktemp("shared-bot"),
                                       extra_env=getattr(request.module, "SHARED_BOT_ENV", None))
        try:
            yield shared
        finally:
            await shared.bot.stop()
        assert_clean_output(shared.bot.output())


def pytest_configure(config: pytest.Config) -> None:
    register_cpu_profile(config)  # TEST_CPU_PROFILE=<dir>: per-test CPU seconds (tests/cpuprofile.py)


BOT_TAIL = 12_000
"""Characters of each bot process's output shown under a failed test's report."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    from tests.fake_discord.process import BotProcess  # imported here: after the bytecode set-up

    BotProcess.made[:] = [bot for bot in BotProcess.made if bot.running]  # a module's shared bot stays
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A failed test's report ends with what its bot processes logged last: a timeout in CI (where only
    failures are printed) then says what the bot was doing."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if report.failed:
        from tests.fake_discord.process import BotProcess

        for n, bot in enumerate(BotProcess.made):
            report.sections.append((f"bot process {n + 1} (python -m {bot.module}), the end of its output",
                                    bot.output()[-BOT_TAIL:]))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items[:] = schedule.order(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
