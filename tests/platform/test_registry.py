"""The registry of game manifests (issue 24): one line per game, more from ``TABLETOP_GAMES_EXTRA``, and no
per-game table left in the platform."""

from __future__ import annotations

import ast
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
OPERATOR_TOOLS = {"bench.py", "bench_delivery.py", "bench_loop.py", "bench_pg.py"}
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


def test_no_platform_module_names_a_game() -> None:
    """Every per-game table reads the manifests: outside ``bot/games/``, ``render/`` and the games' own cogs,
    no module has a game's key as a string (operator benchmarks excepted, see :data:`OPERATOR_TOOLS`)."""
    keys = set(registry.GAMES) | {TOY.key}
    game_cogs = {m.cog.split(".")[-1] + ".py" for m in registry.GAMES.values() if m.cog}
    files = [p for p in (ROOT / "bot").glob("*.py") if p.name not in OPERATOR_TOOLS]
    files += [p for p in (ROOT / "cogs").glob("*.py") if p.name not in game_cogs]
    named = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if node.value in keys:
                    named.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert not named, named
