"""The registry of game manifests (issue 24): one line per game, more from ``TABLETOP_GAMES_EXTRA``, and no
per-game table left in the platform."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import registry
from bot.games.manifest import GameManifest, RendererSpec
from tests.toygame import MANIFEST as TOY

ROOT = Path(__file__).resolve().parents[2]
"""Benchmarks name the games they measure (their defaults and game-specific figures), not a table the
platform reads."""


def test_extra_manifests_come_from_the_environment() -> None:
    assert registry.extra_refs({registry.EXTRA_ENV: " tests.toygame:MANIFEST, ,x.y:Z "}) == [
        "tests.toygame:MANIFEST", "x.y:Z"]
    assert registry.extra_refs({}) == []
    loaded = registry.load_manifests([*registry.BUILTIN, "tests.toygame:MANIFEST"])
    assert list(loaded) == [*registry.GAMES][:len(registry.BUILTIN)] + [TOY.key]
    assert loaded[TOY.key] is TOY


@pytest.mark.parametrize(("refs", "words"), [
    (["tests.no_such_package:MANIFEST"], "cannot be imported"),
    (["tests.toygame:NOTHING"], "cannot be imported"),
    (["tests.toygame.game:CATCHUP"], "is not a GameManifest"),
    (["tests.toygame:MANIFEST", "tests.toygame:MANIFEST"], "two manifests"),
])
def test_a_bad_extra_reference_stops_with_its_name(refs: list[str], words: str) -> None:
    with pytest.raises(RuntimeError, match=words):
        registry.load_manifests(refs)


def test_a_process_started_with_the_variable_knows_the_game() -> None:
    code = ("import json; from bot.games import registry; from bot.core.i18n import t; "
            "print(json.dumps([list(registry.GAMES), t('toygame.name', 'en')]))")
    env = {**os.environ, registry.EXTRA_ENV: "tests.toygame:MANIFEST"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60, check=True)
    keys, name = json.loads(out.stdout)
    assert keys == [*registry.GAMES, "toygame"] and name == "Hidden tic-tac-toe"


def test_a_renderer_spec_names_functions_that_exist() -> None:
    drawer = RendererSpec("tests.toygame.render", personal="render_personal").load()
    assert drawer.board.__name__ == "render" and drawer.zoom is None
    with pytest.raises(AttributeError, match="no function 'missing'"):
        RendererSpec("tests.toygame.render", zoom="missing").load()
    odd = GameManifest(key="odd", rules="tests.toygame.render:render", renderer=RendererSpec("tests.toygame.render"))
    with pytest.raises(TypeError):
        odd.game_class()
