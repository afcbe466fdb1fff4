"""The packaging test's wheelhouse (``tests/platform/test_packaging.py``): the wheels of ``requirements.lock`` and of
the build requirements, downloaded once into ``var/wheelhouse`` (or ``$TABLETOP_WHEELHOUSE``) so the test installs
offline. ``python -m tests.wheelhouse`` fills it ahead: ``.ci/run`` does so while the project installs, both
waiting on the network, rather than inside the test run, where the download took about 8 s of CPU."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WHEELHOUSE = Path(os.environ.get("TABLETOP_WHEELHOUSE", ROOT / "var" / "wheelhouse"))
BUILD_REQUIREMENTS = ("setuptools>=68", "wheel")


def fill(python: str = sys.executable) -> None:
    """Download what the offline steps need (pip skips what the wheelhouse already has); raises
    ``subprocess.CalledProcessError`` with pip's output when a download fails."""
    WHEELHOUSE.mkdir(parents=True, exist_ok=True)
    pip = [python, "-m", "pip", "download", "-q", "--disable-pip-version-check", "-d", str(WHEELHOUSE)]
    for args in (["--only-binary=:all:", "-r", str(ROOT / "requirements.lock")], list(BUILD_REQUIREMENTS)):
        subprocess.run(pip + args, check=True, capture_output=True, text=True, timeout=600)


if __name__ == "__main__":
    fill()
