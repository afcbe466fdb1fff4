"""Static layers kept on disk (render/layers.py): a render process that finds a layer another process drew
loads the same pixels, and the boards drawn from it are the same bytes."""

from __future__ import annotations

import inspect
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.games.godstorm import render as godstorm
from bot.games.pobeda import render as pobeda
from bot.games.pobeda.data import chrono_layout
from render import common, layers
from tests.render.states import VIEWS


def same(a: Image.Image, b: Image.Image) -> bool:
    return (a.mode, a.size, a.getpalette()) == (b.mode, b.size, b.getpalette()) and \
        ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None and a.tobytes() == b.tobytes()


def forget() -> None:
    for cached in (pobeda._palette_background, godstorm._base, godstorm._shapes):
        cached.cache_clear()
    common._rendered.clear()


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(layers.ENV, str(tmp_path / "layers"))
    forget()
    yield tmp_path / "layers"
    forget()


def test_without_the_setting_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(layers.ENV, raising=False)
    forget()
    drawn = pobeda._palette_background(chrono_layout(), "en")
    assert same(drawn, inspect.unwrap(pobeda._palette_background)(chrono_layout(), "en"))
    assert not list(tmp_path.iterdir())
    forget()


def test_a_layer_drawn_once_is_loaded_with_the_same_pixels_and_palette(kept: Path) -> None:
    drawn = pobeda._palette_background(chrono_layout(), "ru")
    files = list(kept.glob("*.layer"))
    assert len(files) == 1 and drawn.mode == "P"
    forget()  # as a new process: nothing in memory
    loaded = pobeda._palette_background(chrono_layout(), "ru")
    assert loaded is not drawn and same(loaded, drawn)
    assert len(list(kept.glob("*.layer"))) == 1  # read, not written again
    # full colour too (Godstorm's map), and each argument has a layer of its own
    base_en, base_ru = godstorm._base("en", False), godstorm._base("ru", False)
    forget()
    assert same(godstorm._base("en", False), base_en) and same(godstorm._base("ru", False), base_ru)
    assert not same(base_en, base_ru)


def test_boards_drawn_from_loaded_layers_are_the_same_bytes(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    views = {game: VIEWS[game]()[:2] for game in ("pobeda", "godstorm")}
    render = {"pobeda": pobeda.render, "godstorm": godstorm.render}
    monkeypatch.delenv(layers.ENV)
    plain = {(g, n, lang): render[g](v, lang) for g, vs in views.items() for n, v in vs for lang in ("ru", "en")}
    monkeypatch.setenv(layers.ENV, str(kept))
    forget()
    for key in plain:  # drawn and kept, then loaded
        g, n, lang = key
        assert render[g](dict(views[g])[n], lang) == plain[key], key
    assert len(list(kept.glob("*.layer"))) >= 3
    forget()
    for key in plain:
        g, n, lang = key
        assert render[g](dict(views[g])[n], lang) == plain[key], key


def test_a_broken_or_foreign_file_is_drawn_again(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = godstorm._shapes(True)
    (path,) = kept.glob("*.layer")
    path.write_bytes(path.read_bytes()[:1000])  # cut short, as by a full disk
    forget()
    assert same(godstorm._shapes(True), drawn)
    # another version of the renderers (or of the data, or of Pillow) never reads this one's layers
    forget()
    monkeypatch.setattr(layers, "code_digest", lambda: "another version")
    monkeypatch.setattr(layers, "_pruned", set())  # a process of that version
    godstorm._shapes(True)
    assert [p.name.split("-")[0] for p in kept.glob("*.layer")] == ["another version"]  # and the old one went


def test_a_folder_keeps_the_most_recently_used_layers(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layers, "KEPT", 2)
    godstorm._shapes(True)
    godstorm._shapes(False)
    time.sleep(0.05)
    forget()
    godstorm._shapes(True)  # loaded: used most recently
    time.sleep(0.05)
    godstorm._base("en", False)  # a third layer: the least recently used goes
    names = sorted(p.name for p in kept.glob("*.layer"))
    assert len(names) == 2 and sum("_base" in n for n in names) == 1
    forget()
    assert same(godstorm._shapes(True), inspect.unwrap(godstorm._shapes)(True))
    assert len(list(kept.glob("*.layer"))) == 2  # the one still kept was read, not drawn
