"""Static board layers kept on disk, for the render processes started later.

A render process draws each game's static layers (Pobeda's board of 144 captioned cells, Godstorm's map
with its names and legend) the first time a board needs them: about 0.3 s of CPU per game, paid again by
every process that starts (each bot start or restart spawns its render process, and each process of a
cluster has its own). :func:`kept_on_disk` keeps such a layer in the folder ``TABLETOP_RENDER_CACHE``
names, and a process that finds it there loads it (a few milliseconds) instead of drawing it. Without the
setting nothing is written or read.

A kept layer is found by the function's name, its arguments, and a digest of everything that could change
its pixels: the project's sources (``render/`` and ``bot/``: the renderers and what they read), the data
files (fonts, palettes, texts) and the versions of Pillow and pyphen, so a changed renderer never meets an old
layer. A file is written whole (a temporary file renamed), so processes drawing the same layer at once leave
one of theirs; a file that cannot be read is drawn again. A process that keeps a layer first removes the
layers of other versions, and a folder keeps the ``KEPT`` most recently used. The layers are plain pixels (a
small JSON header and the image's bytes deflated at zlib's fastest level), not pickles.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Callable
from functools import lru_cache, wraps
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar, cast

import PIL
from PIL import Image
from zlib_ng import zlib_ng

from bot.core.paths import DATA_DIR

log = logging.getLogger(__name__)

ENV = "TABLETOP_RENDER_CACHE"
ROOT = Path(__file__).resolve().parent.parent
F = TypeVar("F", bound=Callable[..., Image.Image])


@lru_cache(maxsize=1)
def code_digest() -> str:
    """What a kept layer's pixels depend on besides its arguments: the project's Python sources (the renderers
    and what they read: a game's board coordinates, the text helpers), the data files, and the versions of
    Pillow and pyphen (hyphenation patterns). Read once per process: about 12 MB, mostly fonts."""
    digest = hashlib.sha256(f"Pillow {PIL.__version__}, pyphen {metadata.version('pyphen')}\n".encode())
    sources = [p for top in ("render", "bot") for p in sorted((ROOT / top).rglob("*.py"))]
    data = sorted(p for p in DATA_DIR.rglob("*") if p.is_file())
    for base, paths in ((ROOT, sources), (DATA_DIR, data)):
        for path in paths:
            if "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def folder() -> Path | None:
    where = os.environ.get(ENV, "").strip()
    return Path(where) if where else None


def _path(where: Path, name: str, args: tuple[Any, ...]) -> Path:
    key = hashlib.sha256(f"{name}|{args!r}".encode()).hexdigest()[:32]
    return where / f"{code_digest()}-{name.replace('.', '-')}-{key}.layer"


KEPT = 32
"""Layers a folder keeps, the least recently used going first: a shuffled Pobeda board has a background of its
own (about 0.3 MB on disk, as is Godstorm's map)."""
_pruned: set[Path] = set()


def _prune(where: Path) -> None:
    """Before a layer is kept: at most ``KEPT - 1`` others stay, and, once per process and folder, the layers
    of other versions go (a deployment leaves its predecessor's behind; two versions running side by side
    only draw again)."""
    files = list(where.glob("*.layer"))
    if where not in _pruned:
        _pruned.add(where)
        for old in [f for f in files if not f.name.startswith(code_digest() + "-")]:
            old.unlink(missing_ok=True)
            files.remove(old)
    if len(files) >= KEPT:
        for old in sorted(files, key=_last_used)[:len(files) - KEPT + 1]:
            old.unlink(missing_ok=True)


def _last_used(path: Path) -> float:
    """When a kept layer was last written or read (:func:`_load` touches it); 0 for one gone meanwhile."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _load(path: Path) -> Image.Image | None:
    try:
        with path.open("rb") as file:
            header = json.loads(file.readline())
            image = Image.frombytes(header["mode"], tuple(header["size"]), zlib_ng.decompress(file.read()))
        os.utime(path)  # recently used: the last to go (_prune)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, cast(type[Exception], zlib_ng.error)) as exc:
        log.info("a kept render layer could not be read (%s): drawing it again", exc)
        return None
    if header.get("palette") is not None:
        image.putpalette(bytes.fromhex(header["palette"]), header["palette_mode"])
    return image


def _save(path: Path, image: Image.Image) -> None:
    header: dict[str, Any] = {"mode": image.mode, "size": list(image.size), "palette": None}
    if image.mode == "P" and image.palette is not None:
        header["palette"] = image.palette.tobytes().hex()
        header["palette_mode"] = image.palette.mode
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _prune(path.parent)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".layer-")
        with os.fdopen(handle, "wb") as file:
            file.write(json.dumps(header).encode() + b"\n")
            file.write(zlib_ng.compress(image.tobytes(), 1))
        os.replace(temporary, path)
    except OSError as exc:
        log.info("a render layer could not be kept in %s: %s", path.parent, exc)
        if temporary is not None:  # a full disk: no half-written file stays behind
            Path(temporary).unlink(missing_ok=True)


def kept_on_disk(func: F) -> F:
    """``func`` (a pure function of its arguments drawing an image) read from ``TABLETOP_RENDER_CACHE`` when a
    process drew it before, and kept there when drawn here. Put it under the function's ``lru_cache``, which
    keeps it in memory once loaded; ``inspect.unwrap`` still reaches the plain drawing."""
    name = f"{func.__module__}.{func.__qualname__}"

    @wraps(func)
    def layer(*args: Any) -> Image.Image:
        where = folder()
        if where is None:
            return func(*args)
        path = _path(where, name, args)
        image = _load(path)
        if image is None:
            image = func(*args)
            _save(path, image)
        return image

    return cast(F, layer)
