"""Every game option can be set from the lobby message, however many a game has.

A Discord message holds at most five rows of components, and a select takes a whole row ("Each action row
can contain one select menu": Discord's component reference). The lobby's first row is its buttons and a
team game's second its team select, so Godstorm (six options) and Pobeda (five) could not offer a select
per option: the last row becomes one shared select, an entry per option and value.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.core.i18n import t
from bot.core.session import Session
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app.custom_ids import OptionId, parse
from bot.games.registry import game_class
from cogs.common import MORE_OPTIONS, lobby_message, shared_option

HOST = UserInfo(1, "alice")


@pytest.fixture
async def sessions(tmp_path: Path) -> AsyncIterator[SessionManager]:
    store = await Store.open(tmp_path / "lobby.sqlite3")
    yield SessionManager(store)
    await store.close()


async def lobby(sessions: SessionManager, key: str, options: dict[str, object] | None = None) -> Session:
    session = await sessions.create(guild_id=1, channel_id=77, host=HOST, game_key=key, options=options or {},
                                    deadline_s=3600)
    await sessions.join(session.id, HOST)
    return session


def selects(view: discord.ui.View | None) -> list[discord.ui.Select[discord.ui.View]]:
    assert view is not None
    return [item for item in view.children if isinstance(item, discord.ui.Select)]


def reachable(session: Session) -> set[tuple[str, object]]:
    """Every (option, value) the lobby's selects can set."""
    _, view = lobby_message(session)
    specs = session.cls.option_specs()
    found: set[tuple[str, object]] = set()
    for select in selects(view):
        control = parse(select.custom_id)
        if not isinstance(control, OptionId):
            continue
        for option in select.options:
            if control.name == MORE_OPTIONS:
                named = shared_option(specs, option.value)
                assert named is not None, option.value
                found.add((named[0].name, named[1]))
            else:
                spec = next(s for s in specs if s.name == control.name)
                found.add((spec.name, spec.choices[int(option.value)][0]))
    return found


@pytest.mark.parametrize(("key", "options"), [("godstorm", {}), ("pobeda", {}), ("pobeda", {"teams": 2}),
                                              ("coldwar", {}), ("byallmeans", {})])
async def test_every_option_and_value_is_in_the_lobby(sessions: SessionManager, key: str,
                                                      options: dict[str, object]) -> None:
    session = await lobby(sessions, key, options)
    _, view = lobby_message(session)
    assert view is not None
    assert max(item.row or 0 for item in view.children) <= 4  # five rows, the buttons' included
    assert all(len(s.options) <= 25 for s in selects(view))
    wanted = {(spec.name, value) for spec in game_class(key).option_specs() for value, _ in spec.choices}
    assert reachable(session) == wanted


async def test_the_shared_select_names_its_options_in_the_readers_language(sessions: SessionManager) -> None:
    session = await lobby(sessions, "godstorm")
    _, view = lobby_message(session)
    shared = [s for s in selects(view) if s.custom_id.endswith(":" + MORE_OPTIONS)]
    assert len(shared) == 1
    labels = [o.label for o in shared[0].options]
    language = session.row.lang
    assert t("godstorm.opt.undo_window", language) + ": " + t("godstorm.opt.undo_window.60", language) in labels
    assert t("godstorm.opt.undo_window", "ru") == "Окно отмены перед броском атаки"  # both languages exist
    assert t("lobby.more_options", "ru", options="A, B") == "Ещё: A, B…"


def test_a_forged_or_stale_shared_value_names_nothing() -> None:
    specs = game_class("pobeda").option_specs()
    assert shared_option(specs, "undo_window.2") == (next(s for s in specs if s.name == "undo_window"), 60)
    for value in ("undo_window.4", "undo_window.-1", "undo_window.x", "nosuch.0", "", "."):
        assert shared_option(specs, value) is None, value
