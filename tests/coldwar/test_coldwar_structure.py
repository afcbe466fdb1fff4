"""How the Cold War package is built (issue 24): its play is a decision table, its state is typed, its text
lives outside the rules classes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.games.coldwar import engine, game, text
from bot.games.coldwar.game import ColdWar
from bot.games.decision import DecisionGame, DecisionKind

PACKAGE = Path(engine.__file__).parent
RULES = ("ai.py", "bench.py", "cards.py", "catchup.py", "conformance.py", "engine.py", "game.py", "state.py",
         "text.py", "view.py", "vocab.py", "why.py")
"""The package's modules but its renderers (which read the view, a dict by design)."""
TEXT_METHODS = ("action_path", "panel_actions", "event_text", "team_label", "side_name", "status_lines",
                "private_text", "prompt_text", "why_not", "reason_params")


def test_the_game_is_a_decision_table() -> None:
    assert issubclass(ColdWar, DecisionGame)
    assert ColdWar.DECISIONS is engine.DECISIONS
    assert all(isinstance(row, DecisionKind) for row in ColdWar.DECISIONS.values())
    # no per-game turn machinery left: the base derives it from the table
    for name in ("actors", "legal_actions", "apply", "timeout_action", "is_simultaneous", "is_secret",
                 "forced_timeout", "open_decisions"):
        assert name not in vars(ColdWar), name
    assert not hasattr(engine, "Decision")


def test_no_state_is_read_by_string_keys() -> None:
    """The state is :class:`bot.games.coldwar.state.State`: ``s["…"]``, ``state["…"]`` and ``d["…"]`` are gone."""
    pattern = re.compile(r'\b(s|state|d|dec)\[|\.s\[')
    found = [f"{name}:{n}" for name in RULES
             for n, line in enumerate((PACKAGE / name).read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []


def _methods(cls: type, module: object) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(Path(str(getattr(module, "__file__", ""))).read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    return {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}


def test_text_methods_are_one_line_delegations_to_the_text_modules() -> None:
    methods = _methods(ColdWar, game)
    for name in TEXT_METHODS:
        body = [s for s in methods[name].body
                if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]  # the docstring
        assert len(body) == 1 and isinstance(body[0], ast.Return), name
        call = body[0].value
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute), name
        assert isinstance(call.func.value, ast.Name) and call.func.value.id in ("text", "why"), name


def test_the_rules_classes_build_no_text() -> None:
    """Neither the rules (engine.py) nor the platform class (game.py) reads a translation or names a text
    key: they import nothing of ``bot.core.i18n`` or ``bot.games.narration``."""
    for module in (engine, game):
        tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not {m for m in imported if m and ("i18n" in m or "narration" in m)}, module.__name__
    assert text.__name__ == "bot.games.coldwar.text"
