"""Architecture and translation checks over the source tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.i18n import catalogue

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_RULES = {"discord", "aiosqlite", "sqlite3", "asyncio", "render", "cogs", "PIL", "time", "datetime"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0] if not node.module.startswith("bot.") else node.module)
    return names


def test_rules_are_pure_python() -> None:
    files = list((ROOT / "bot" / "games").rglob("*.py"))
    assert files
    for path in files:
        bad = imported_modules(path) & FORBIDDEN_IN_RULES
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"
        assert "bot.store" not in imported_modules(path) and "bot.sessions" not in imported_modules(path)


def test_renderers_do_not_touch_discord_or_storage() -> None:
    for path in (ROOT / "render").rglob("*.py"):
        mods = imported_modules(path)
        assert not mods & {"discord", "aiosqlite", "sqlite3", "cogs"}, path
        assert not {m for m in mods if m in ("bot.store", "bot.sessions", "bot.delivery")}, path


def test_every_string_has_russian_and_english() -> None:
    entries = catalogue()
    assert len(entries) > 50
    for key, value in entries.items():
        assert set(value) >= {"ru", "en"}, key
        assert value["ru"].strip() and value["en"].strip(), key


def test_every_literal_key_used_by_the_platform_exists() -> None:
    pattern = re.compile(r"""\bt\(\s*["']([a-z0-9_]+\.[a-z0-9_.]+)["']""")
    keys = catalogue()
    used: set[str] = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).glob("*.py"):
            used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    used |= {f"err.{k}" for k in re.findall(r'SessionError\("err\.([a-z_]+)"',
                                              "\n".join(p.read_text() for p in (ROOT / "bot").glob("*.py")))}
    missing = sorted(k for k in used if k not in keys and k[-1] not in "._")
    assert not missing, missing
    for status in ("lobby", "running", "finished", "aborted"):
        assert f"lobby.status_{status}" in keys


def test_each_game_has_name_and_rules() -> None:
    from bot.games.registry import GAMES

    keys = catalogue()
    for game in GAMES:
        assert f"{game}.name" in keys and f"{game}.rules" in keys, game
