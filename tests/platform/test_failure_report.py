"""tests/conftest.py: a failed test's report ends with what its bot processes logged last."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tests import conftest
from tests.fake_discord.process import BotProcess


def report_of(failed: bool) -> Any:
    report = SimpleNamespace(failed=failed, sections=[])
    steps = conftest.pytest_runtest_makereport(None, None)  # type: ignore[arg-type]
    next(steps)
    try:
        steps.send(SimpleNamespace(get_result=lambda: report))
    except StopIteration:
        pass
    return report


def test_a_failed_test_shows_the_end_of_each_bot_output_and_a_passed_one_nothing() -> None:
    made = list(BotProcess.made)
    try:
        bot = BotProcess(SimpleNamespace(_processes=[]), "unused.sqlite3")  # type: ignore[arg-type]
        bot._chunks += ["x" * conftest.BOT_TAIL, "INFO bot: the last line before the timeout\n"]
        BotProcess.made[:] = [bot]
        failed = report_of(True)
        ((title, text),) = failed.sections
        assert "python -m bot" in title
        assert text.endswith("the last line before the timeout\n") and len(text) == conftest.BOT_TAIL
        assert report_of(False).sections == []
    finally:
        BotProcess.made[:] = made
