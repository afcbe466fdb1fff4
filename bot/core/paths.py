"""Where the bundled data files live, in a checkout and in an installed wheel alike.

The repository keeps them in the top-level ``data/`` folder; ``pyproject.toml`` ships that folder
as the ``tabletop_data`` package, so an installed bot finds them through ``importlib.resources``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_CHECKOUT_DATA = Path(__file__).resolve().parents[2] / "data"


def _data_dir() -> Path:
    try:
        root = resources.files("tabletop_data")
    except ModuleNotFoundError:
        return _CHECKOUT_DATA
    # Installed as ordinary files (wheel, editable install): a real directory on disk.
    path = Path(str(root))
    return path if (path / "i18n").is_dir() else _CHECKOUT_DATA


DATA_DIR: Path = _data_dir()
