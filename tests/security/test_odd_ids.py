"""Issue 23, items 5 and 6, the loose ends: the ``tl:`` vote buttons, the ``ttb:`` bot controls and
their select values, Godstorm's numeric action fields and ``/game deadline`` read what a client sent
through :mod:`bot.core.parse` (a 20-digit game id passed ``isdigit()`` and raised ``OverflowError`` in
SQLite; ``"²"`` passed ``isdigit()`` and raised in ``int()``), every such click gets an answer, and the
deadline floor is one range check. Names in the bot log lines and the replay text are escaped."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core import bots, config, reminders
from bot.core.i18n import t
from bot.core.parse import INT64_MAX
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import LobbyEntry, Store
from bot.games import registry
from bot.games.godstorm.core import as_int
from cogs.bots import BotsCog
from cogs.lifecycle import LifecycleCog
from cogs.stats import seat_names
from render.common import seat_label
from tests.platform.toy import toy_manifest

BAD = "⛔ " + t("err.bad_control", "en")
EVIL = "[Claim prize](https://evil.example)"


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "odd.sqlite3")
    yield store
    await store.close()


class Answers:
    """The response side of a stand-in interaction: records what was sent."""

    def __init__(self) -> None:
        self.done = False
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, **_: Any) -> None:
        self.done = True
        self.sent.append(content)

    async def send(self, content: str, **_: Any) -> None:
        self.sent.append(content)


def click(bot: Any, custom_id: str, user_id: int, values: list[str] | None = None) -> Any:
    data: dict[str, Any] = {"custom_id": custom_id}
    if values is not None:
        data["values"] = values
    answers = Answers()
    return SimpleNamespace(user=SimpleNamespace(id=user_id), channel_id=42, locale=discord.Locale.american_english,
                           extras={}, type=discord.InteractionType.component, data=data, client=bot,
                           response=answers, followup=answers, id=1)


# ---- the tl: vote buttons --------------------------------------------------------------------------
@pytest.mark.parametrize("custom_id", [
    "tl:v:" + "9" * 20 + ":end",  # raised OverflowError in SQLite, unanswered
    f"tl:v:{2**63}:draw", "tl:v:²:end", "tl:v:٣:end", "tl:v:-1:end", "tl:v: 1:end", "tl:v:1:maybe", "tl:v:1", "tl:x:1:end", "tl:",
])
async def test_a_malformed_vote_button_is_answered_not_recognised(store: Store, custom_id: str) -> None:
    bot = SimpleNamespace(sessions=SessionManager(store), store=store)
    interaction = click(bot, custom_id, 2)
    await LifecycleCog(bot).on_interaction(interaction)  # type: ignore[arg-type]
    assert interaction.response.sent == [BAD]


async def test_a_vote_button_of_a_game_that_does_not_exist_is_refused(store: Store) -> None:
    bot = SimpleNamespace(sessions=SessionManager(store), store=store)
    interaction = click(bot, f"tl:v:{INT64_MAX}:end", 2)  # the largest id that parses: looked up, not found
    await LifecycleCog(bot).on_interaction(interaction)  # type: ignore[arg-type]
    [answer] = interaction.response.sent
    assert answer.startswith("⛔") and answer != BAD


# ---- the ttb: bot controls -------------------------------------------------------------------------
def test_bot_control_ids_are_read_by_parse() -> None:
    assert bots.parse_id("ttb:l:5") == ("l", 5)
    assert bots.parse_id(f"ttb:r:{INT64_MAX}") == ("r", INT64_MAX)
    for custom_id in ("ttb:l:" + "9" * 20, f"ttb:l:{2**63}", "ttb:l:²", "ttb:l:٣", "ttb:l:-5", "ttb:l: 5",
                      "ttb:q:5", "ttb:l:5:6", "ttb:l", "ttb:l:" + "1" * 120):
        assert bots.parse_id(custom_id) is None, custom_id


def test_the_absent_option_of_game_new_reads_plain_digits() -> None:
    assert bots.split_options("lines=2 absent=drop absent_after=3") == ("lines=2", {"absent": "drop",
                                                                                   "absent_after": 3})
    for bad in ("absent_after=²", "absent_after=٣", "absent_after=9", "absent_after=-1", "absent_after=" + "9" * 30):
        with pytest.raises(ValueError) as refused:
            bots.split_options(bad)
        assert str(refused.value) == bad  # the pair, for the refusal; not int()'s own message


async def test_odd_select_values_of_the_bot_panel_are_answered_and_change_nothing(store: Store) -> None:
    sessions = SessionManager(store)
    lobby = await sessions.create(guild_id=1, channel_id=42, host=UserInfo(1, "host"), game_key="pobeda",
                                  options={})
    await bots.add_bot(sessions, lobby.id, 1, "quick")
    before = await sessions.get(lobby.id)
    lobby_before = list(before.row.lobby)
    extra_before = dict(before.row.settings.extra)
    bot = SimpleNamespace(sessions=sessions, store=store)
    cog = BotsCog(bot)  # type: ignore[arg-type]
    for kind, value in [("a", "remove:²"), ("a", "remove:" + "9" * 20), ("a", "remove:-" + "9" * 20),
                        ("a", "remove:1"), ("a", "remove:"), ("o", "bot:²"), ("o", "bot:٣"), ("o", "drop:9"),
                        ("o", "bot:0"), ("o", "bot:" + "9" * 25), ("o", "bot:-2")]:
        interaction = click(bot, bots.control_id(kind, lobby.id), 1, [value])
        await cog.on_interaction(interaction)
        assert interaction.response.sent == [BAD], value
    after = await sessions.get(lobby.id)
    assert after.row.lobby == lobby_before and after.row.settings.extra == extra_before


# ---- Godstorm's numeric fields ---------------------------------------------------------------------
def test_godstorm_numbers_from_text_never_raise() -> None:
    assert [as_int(v) for v in ("3", "-3", 7, "0")] == [3, -3, 7, 0]
    for odd in ("²", "٣", "--3", "+3", "3.0", "9" * 25, "", True, None, 2.0):
        assert as_int(odd) is None, odd


@given(st.text(max_size=40))
def test_godstorm_as_int_of_any_text(text: str) -> None:
    value = as_int(text)
    assert value is None or -INT64_MAX <= value <= INT64_MAX


# ---- one deadline floor ----------------------------------------------------------------------------
async def test_parse_duration_and_check_deadline_share_one_floor(store: Store) -> None:
    manager = SessionManager(store, limits=config.Limits())  # the defaults, whatever the environment
    low, high = manager.limits.deadline_min_s, manager.limits.deadline_max_s
    assert (low, high) == (reminders.DEADLINE_MIN_S, reminders.MAX_CUSTOM_S)
    for seconds in (0, 1, low - 1, low, 90, high, high + 1):
        parsed = reminders.parse_duration(f"{seconds}s")
        try:
            checked: int | None = manager.check_deadline(seconds)
        except SessionError as refused:
            assert refused.key == "err.bad_deadline"
            checked = None
        assert parsed == checked, seconds
    assert reminders.parse_duration("10s", min_s=1) == 10  # a lowered floor (TABLETOP_DEADLINE_MIN_S)
    for odd in (math.inf, -math.inf, math.nan, 0.2, -60):
        with pytest.raises(SessionError):
            manager.check_deadline(odd)  # inf raised OverflowError in round()


@pytest.mark.parametrize("text", ["9" * 400, "9" * 400 + "d", "²h", "٣h", "1e3", "-5m", ".", "1.2.3h"])
def test_odd_durations_are_not_durations(text: str) -> None:
    assert reminders.parse_duration(text) is None


@given(st.text(max_size=60))
def test_parse_duration_never_raises(text: str) -> None:
    value = reminders.parse_duration(text)
    assert value is None or value == 0 or reminders.DEADLINE_MIN_S <= value <= reminders.MAX_CUSTOM_S


# ---- names shown ------------------------------------------------------------------------------------
async def test_the_bot_log_lines_escape_a_players_name(store: Store) -> None:
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=42, host=UserInfo(1, EVIL), game_key="toy", options={})
    await sessions.join(session.id, UserInfo(2, "guest"))
    await sessions.start(session.id, 1, seed=7)
    session.row.settings.extra["seat_log"] = [{"type": "platform.takeover", "seat": 0, "users": [1], "seq": 3}]
    [(seq, line)] = bots.seat_log_lines(session, "en")
    assert seq == 3 and r"\[Claim prize\](https\://evil.example)" in line and "https://" not in line


def test_replay_names_are_escaped_for_the_text_and_drawn_as_typed() -> None:
    row = SimpleNamespace(lobby=[LobbyEntry(1, "cool_guy*"), LobbyEntry(2, EVIL)], seat_users=[[1], [2], []])
    names = seat_names(row)  # type: ignore[arg-type]
    assert names == [r"cool\_guy\*", r"\[Claim prize\](https\://evil.example)", "#3"]
    assert [seat_label({"seat_names": names}, s, "?") for s in range(3)] == ["cool_guy*", EVIL, "#3"]
