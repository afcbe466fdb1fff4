"""Lint and types as part of the suite: ``ruff check .`` and ``mypy`` (configured in ``pyproject.toml``).

They run as tests so that the one test command checks everything, and so that mypy, which takes
the best part of 20 s of one core, runs beside the other tests instead of before all of them
(``tests/conftest.py`` puts these first in the queue)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.static


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_passes() -> None:
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout, done.stdout
