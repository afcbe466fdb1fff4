"""Architecture and translation checks over the source tree."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.core.i18n import catalogue

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN_IN_RULES = {"discord", "aiosqlite", "sqlite3", "asyncio", "render", "cogs", "PIL", "time", "datetime"}
CORE_FOR_RULES = {"bot.core.i18n", "bot.core.parse", "bot.core.jsontext", "bot.core.paths"}
"""The only platform modules the rules may use: strings, number parsing, JSON text and data paths."""


def imported_modules(path: Path) -> set[str]:
    """Top packages imported, and full module names under ``bot.`` (imports inside functions too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] if not alias.name.startswith("bot.") else alias.name
                      for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "bot" or node.module.startswith("bot."):  # the name may be a module or an object
                names |= {f"{node.module}.{alias.name}" for alias in node.names}
            else:
                names.add(node.module.split(".")[0])
    return names


def _within(module: str, packages: tuple[str, ...] | set[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _is_renderer(path: Path) -> bool:
    return path.name.startswith("render")


def _is_game_cog(path: Path) -> bool:
    return path.name == "cog.py"


def _rules_files() -> list[Path]:
    return [p for p in (ROOT / "bot" / "games").rglob("*.py") if not _is_renderer(p) and not _is_game_cog(p)]


def test_rules_are_pure_python() -> None:
    files = _rules_files()
    assert len(files) > 40
    for path in files:
        mods = imported_modules(path)
        bad = mods & FORBIDDEN_IN_RULES
        bad |= {m for m in mods if _within(m, ("bot.core", "bot.discord_app", "bot.tools"))
                and not _within(m, CORE_FOR_RULES)}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_renderers_do_not_touch_discord_or_storage() -> None:
    files = [*(ROOT / "render").rglob("*.py"), *(p for p in (ROOT / "bot" / "games").rglob("render*.py"))]
    assert len(files) > 10
    for path in files:
        mods = imported_modules(path)
        assert not mods & {"discord", "aiosqlite", "sqlite3", "cogs"}, path
        assert not {m for m in mods if _within(m, ("bot.discord_app", "bot.tools", "bot.core.store",
                                                   "bot.core.sessions", "bot.core.db"))}, path


def test_the_core_has_no_discord() -> None:
    """``bot/core`` is the platform without Discord: sessions, storage, replays, strings, bots, deadlines."""
    files = list((ROOT / "bot" / "core").rglob("*.py"))
    assert len(files) > 15
    for path in files:
        mods = imported_modules(path)
        bad = (mods & {"discord", "cogs"}) | {m for m in mods if _within(m, ("bot.discord_app", "bot.tools"))}
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_discord_side_uses_no_operator_tool() -> None:
    for path in [*(ROOT / "bot" / "discord_app").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]:
        assert not {m for m in imported_modules(path) if _within(m, ("bot.tools",))}, path


def test_imported_modules_sees_every_form() -> None:
    """The checks above would pass vacuously if the parser missed an import form."""
    sample = ROOT / "var" / "layers_sample.py"
    sample.parent.mkdir(exist_ok=True)
    sample.write_text("import discord.ui\nfrom bot.core import store\ndef f():\n    import bot.tools.arena\n")
    try:
        assert imported_modules(sample) == {"discord", "bot.core.store", "bot.tools.arena"}
    finally:
        sample.unlink()


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
    platform = [p for folder in ("bot/core", "bot/discord_app", "cogs") for p in (ROOT / folder).rglob("*.py")]
    for path in platform:
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    used |= {f"err.{k}" for k in re.findall(r'SessionError\("err\.([a-z_]+)"',
                                              "\n".join(p.read_text() for p in platform))}
    missing = sorted(k for k in used if k not in keys and k[-1] not in "._")
    assert not missing, missing
    for status in ("lobby", "running", "finished", "aborted"):
        assert f"lobby.status_{status}" in keys


def test_each_game_has_name_and_rules() -> None:
    from bot.games.registry import GAMES

    keys = catalogue()
    for game in GAMES:
        assert f"{game}.name" in keys and f"{game}.rules" in keys, game
