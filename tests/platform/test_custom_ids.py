"""Custom ids reveal no private choice; moderator controls work only in the game's channel; an
unexpected failure is answered with a short apology and logged with the game id.

A custom id is visible to Discord, to logs and to anyone a message is forwarded to. An unkeyed
hash of an action is reversible by hashing every action of the (small) action space, so the tags
are HMAC-SHA256 with a per-install secret kept in the database.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.core.config import load_config
from bot.core.i18n import t
from bot.core.sessions import Session, SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app import custom_ids, limits, panels
from bot.discord_app.app import create_bot
from bot.games import registry
from cogs import lifecycle as lifecycle_cog
from cogs.common import Refused, channel_game, check_moderator, refusal_text
from cogs.controls import ControlsCog
from cogs.game import GameCog
from cogs.tree import TabletopTree, answer_error
from tests.pg_server import PgServer, new_pg_url
from tests.platform.toy import toy_manifest


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())




@pytest.fixture
async def store(tmp_path: Path):
    store = await Store.open(tmp_path / "ids.sqlite3")
    yield store
    await store.close()


async def running_toy(store: Store, channel_id: int = 42) -> tuple[SessionManager, Session]:
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=channel_id, host=UserInfo(1, "host"), game_key="toy",
                                    options={})
    await sessions.join(session.id, UserInfo(2, "guest"))
    await sessions.start(session.id, 1, seed=7)
    return sessions, session


async def install_key(store: Store) -> bytes:
    """What the bot does at start: the controls cog loads (or creates) the per-install secret."""
    await ControlsCog(SimpleNamespace(store=store)).cog_load()  # type: ignore[arg-type]
    return panels.control_key()


def plain_hashes(action: dict[str, Any]) -> set[str]:
    """Tags an eavesdropper could compute without the secret, at every length up to the tag's."""
    out: set[str] = set()
    for raw in (json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False), json.dumps(action)):
        for name in ("md5", "sha1", "sha256", "blake2b"):
            digest = hashlib.new(name, raw.encode()).hexdigest()
            out |= {digest[:n] for n in range(8, 33)}
        out |= {hashlib.blake2b(raw.encode(), digest_size=n).hexdigest() for n in (4, 5, 6, 8)}
    return out


def tags(view: discord.ui.View, kind: str) -> list[str]:
    return [str(item.custom_id).split(":")[5] for item in view.children
            if str(getattr(item, "custom_id", "")).startswith(f"tt:{kind}:")]


async def test_action_tags_are_keyed_and_round_trip(store: Store) -> None:
    key = await install_key(store)
    _sessions, session = await running_toy(store)
    game = session.game
    assert game is not None
    seat = game.actors()[0]
    _content, view = panels.build_panel(session, seat, "en")
    found = tags(view, "a")
    legal = game.legal_actions(seat)
    assert len(found) == len(legal) >= 2
    for tag in found:
        assert len(tag) == panels.TAG_HEX and int(tag, 16) >= 0
        assert all(tag not in plain_hashes(action) for action in legal)
    stamp = session.row.seat_counts[seat]
    # each tag leads back to its own action, and only with this install's secret
    assert [panels.find_action(game, session.id, seat, stamp, tag) for tag in found] == legal
    other = b"another install's secret!" * 2
    assert all(panels.action_hash(a, session.id, seat, stamp, key=other) not in found for a in legal)
    # the same action in another turn or another game does not look the same
    action = legal[0]
    assert len({panels.action_hash(action, session.id, seat, stamp, key=key),
                panels.action_hash(action, session.id, seat, stamp + 1, key=key),
                panels.action_hash(action, session.id + 1, seat, stamp, key=key)}) == 3


async def test_old_unkeyed_tags_match_nothing(store: Store) -> None:
    await install_key(store)
    _sessions, session = await running_toy(store)
    game = session.game
    assert game is not None
    seat = game.actors()[0]
    stamp = session.row.seat_counts[seat]
    for action in game.legal_actions(seat):
        # the tag buttons carried before this change: 10 hex digits of an unkeyed blake2b
        raw = json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        legacy = hashlib.blake2b(raw.encode(), digest_size=5).hexdigest()
        assert panels.find_action(game, session.id, seat, stamp, legacy) is None
    assert panels.decode_prefix(game, session.id, seat, stamp, "en", "-") is None


async def test_the_secret_is_created_once_and_survives_a_restart(store: Store) -> None:
    assert await store.get_meta(panels.CONTROL_KEY_META) is None
    first = await install_key(store)
    stored = await store.get_meta(panels.CONTROL_KEY_META)
    assert stored is not None and bytes.fromhex(stored) == first and len(first) == 32
    panels.set_control_key(b"x" * 32)  # as if another process had run meanwhile
    assert await install_key(store) == first  # a restart reads the same secret: old buttons keep working


class Branchy:
    """A stand-in game with two-level action paths, many enough to need nested selects."""

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return [{"card": c, "target": k} for c in range(12) for k in range(3)]

    def panel_actions(self, seat: int, lang: str) -> list[dict[str, Any]]:
        return self.legal_actions(seat)

    def action_path(self, seat: int, action: dict[str, Any], lang: str) -> list[str]:
        return [f"card {action['card']}", f"target {action['target']}"]

    def panel_path(self, seat: int, action: dict[str, Any], lang: str) -> list[str]:
        return self.action_path(seat, action, lang)


def test_path_prefixes_are_tagged_not_spelled_out() -> None:
    panels.set_control_key(b"k" * 32)
    game = Branchy()
    found = list(panels.prefixes(game, 0, "en"))  # type: ignore[arg-type]
    assert sorted(found) == [[]] + [[c] for c in range(12)]
    for prefix in found:
        tag = panels.encode_prefix(prefix, 9, 0, 3)
        assert len(tag) == panels.PREFIX_HEX and "." not in tag and tag != str(prefix[0] if prefix else "-")
        assert panels.decode_prefix(game, 9, 0, 3, "en", tag) == prefix  # type: ignore[arg-type]
    # the branch a player opened cannot be read off the select's id: all twelve tags differ
    assert len({panels.encode_prefix([c], 9, 0, 3) for c in range(12)}) == 12
    assert panels.decode_prefix(game, 9, 0, 4, "en", panels.encode_prefix([5], 9, 0, 3)) is None  # type: ignore[arg-type]


def interaction(user_id: int, channel_id: int, *, moderator: bool) -> Any:
    perms = discord.Permissions(manage_channels=moderator)
    return SimpleNamespace(user=SimpleNamespace(id=user_id), channel_id=channel_id, permissions=perms)


async def test_moderator_controls_check_the_channel(store: Store) -> None:
    _sessions, session = await running_toy(store, channel_id=42)
    check_moderator(interaction(99, 42, moderator=True), session)  # a moderator here
    check_moderator(interaction(1, 42, moderator=False), session)  # the host
    with pytest.raises(SessionError) as refused:
        check_moderator(interaction(99, 43, moderator=True), session)  # a moderator of another channel
    assert refused.value.key == "err.wrong_channel"
    with pytest.raises(SessionError) as refused:
        check_moderator(interaction(1, 7, moderator=True), session)  # even the host, on a forwarded copy
    assert refused.value.key == "err.wrong_channel"
    with pytest.raises(SessionError) as refused:
        check_moderator(interaction(2, 42, moderator=False), session)
    assert refused.value.key == "err.moderator_only"


def test_refusals_clip_what_the_user_typed() -> None:
    typed = "@everyone " + "очень_длинная_опция" * 300
    text = refusal_text(SessionError("err.bad_option", name=typed, value=typed), "ru")
    assert limits.size(text) < limits.size(t("err.bad_option", "ru", name="", value="")) + 2 * limits.ECHO + 4
    assert "@everyone" not in text


class Answers:
    """The response side of a stand-in interaction: records what was sent."""

    def __init__(self, done: bool) -> None:
        self.done = done
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str, **kwargs: Any) -> None:
        self.done = True
        self.sent.append(("response", {"content": content, **kwargs}))

    async def send(self, content: str, **kwargs: Any) -> None:
        self.sent.append(("followup", {"content": content, **kwargs}))


@pytest.mark.parametrize("already_answered", [False, True])
async def test_unexpected_command_failure_gets_an_apology_and_a_log_line(
        store: Store, caplog: pytest.LogCaptureFixture, already_answered: bool) -> None:
    sessions, session = await running_toy(store, channel_id=42)
    real = create_bot(load_config({"DISCORD_TOKEN": "x", "DATABASE_PATH": ":memory:"}, read_dotenv=False))
    assert isinstance(real.tree, TabletopTree)  # the bot's tree answers every command's failure
    bot = SimpleNamespace(sessions=sessions, store=store)
    answers = Answers(already_answered)
    command = GameCog.game.get_command("board")
    assert isinstance(command, app_commands.Command)
    inter = SimpleNamespace(
        user=SimpleNamespace(id=2), channel_id=42, locale=discord.Locale.russian, extras={}, command=command,
        type=discord.InteractionType.application_command, client=bot, response=answers, followup=answers,
    )
    error = app_commands.CommandInvokeError(command, ZeroDivisionError("division by zero"))
    with caplog.at_level(logging.ERROR):
        await real.tree.on_error(inter, error)  # type: ignore[arg-type]
    await real.close()
    assert [kind for kind, _ in answers.sent] == ["followup" if already_answered else "response"]
    sent = answers.sent[0][1]
    assert sent["content"] == "⚠️ " + t("err.unexpected", "ru") and sent["ephemeral"] is True
    record = next(r for r in caplog.records if r.levelno == logging.ERROR)
    assert f"game {session.id}" in record.getMessage() and "/game board" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is ZeroDivisionError


async def test_moderator_commands_are_refused_by_their_check(store: Store) -> None:
    """``/game abort|admin|pause|resume`` carry the moderator check (cogs.common.moderator_only): anyone
    else is refused before the body runs, and the tree answers privately in their language; with no
    game in the channel the check lets the body say so. The body gets the session the check loaded."""
    sessions, session = await running_toy(store, channel_id=42)
    bot = SimpleNamespace(sessions=sessions, store=store)
    group = GameCog.game
    moderated = [group.get_command("abort"), group.get_command("admin"), lifecycle_cog.pause, lifecycle_cog.resume]

    def stand_in(user_id: int, channel_id: int, answers: Answers) -> Any:
        return SimpleNamespace(user=SimpleNamespace(id=user_id), channel_id=channel_id, client=bot, extras={},
                               permissions=discord.Permissions.none(), locale=discord.Locale.russian,
                               response=answers, followup=answers)

    for command in moderated:
        assert isinstance(command, app_commands.Command) and len(command.checks) == 1
        check = command.checks[0]
        answers = Answers(False)
        guest = stand_in(2, 42, answers)
        with pytest.raises(Refused) as refused:
            await check(guest)
        await answer_error(guest, refused.value)
        assert answers.sent == [("response", {"content": "⛔ " + t("err.moderator_only", "ru"), "ephemeral": True})]
        host = stand_in(1, 42, Answers(False))
        assert await check(host) is True
        assert await channel_game(host) is session  # loaded once: the body sees what the check saw
        assert await check(stand_in(2, 43, Answers(False))) is True  # no game here: the body says so


async def test_unexpected_control_failure_gets_an_apology_and_a_log_line(
        store: Store, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    sessions, session = await running_toy(store, channel_id=42)
    bot = SimpleNamespace(sessions=sessions, store=store)
    cog = ControlsCog(bot)  # type: ignore[arg-type]

    async def broken_route(self: ControlsCog, interaction: Any, parts: list[str]) -> None:
        raise ZeroDivisionError("division by zero")  # a bug somewhere below the router

    monkeypatch.setattr(ControlsCog, "route", broken_route)
    answers = Answers(False)
    inter = SimpleNamespace(
        user=SimpleNamespace(id=2), channel_id=42, guild_id=1, locale=discord.Locale.american_english, extras={},
        type=discord.InteractionType.component, data={"custom_id": f"tt:p:{session.id}"}, client=bot,
        response=answers, followup=answers, id=1,
    )
    with caplog.at_level(logging.ERROR):
        await cog.on_interaction(inter)  # type: ignore[arg-type]
    assert answers.sent == [("response", {"content": "⚠️ " + t("err.unexpected", "en"), "ephemeral": True})]
    record = next(r for r in caplog.records if r.levelno == logging.ERROR)
    assert f"game {session.id}" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is ZeroDivisionError


# ---- the named custom ids (bot/discord_app/custom_ids.py) -------------------------------------------------
# The wire format is fixed by the messages already posted; each expected id below is spelled out by
# hand from that format (``tt:<kind>:<game>:...``), not produced by the code under test.
WIRE = [
    (custom_ids.ActionId(12, 1, 7, "0123456789abcdef"), "tt:a:12:1:7:0123456789abcdef"),
    (custom_ids.PathSelectId(12, 0, 3, "a1b2c3d4e5f6", 2), "tt:n:12:0:3:a1b2c3d4e5f6:2"),
    (custom_ids.BackId(12, 0, 3, "a1b2c3d4e5f6"), "tt:b:12:0:3:a1b2c3d4e5f6"),
    (custom_ids.PanelId(5), "tt:p:5"),
    (custom_ids.LobbyId(5, "join"), "tt:l:5:join"),
    (custom_ids.LobbyId(5, "leave"), "tt:l:5:leave"),
    (custom_ids.LobbyId(5, "start"), "tt:l:5:start"),
    (custom_ids.LobbyId(5, "cancel"), "tt:l:5:cancel"),
    (custom_ids.TeamId(5), "tt:t:5"),
    (custom_ids.OptionId(5, "layout"), "tt:o:5:layout"),
    (custom_ids.ConcedeId(5), "tt:c:5"),
    (custom_ids.AbortId(5), "tt:x:5"),
    (custom_ids.AdminId(5, "fedcba9876543210"), "tt:m:5:fedcba9876543210"),
    (custom_ids.DmRetryId(5), "tt:d:5"),
    (custom_ids.UndoId(5, 1, 7, 42, "0123456789abcdef"), "tt:u:5:1:7:42:0123456789abcdef"),
    (custom_ids.TakebackAnswerId(5, "a1b2c3d4", "y", "fedcba9876543210"), "tt:k:5:a1b2c3d4:y:fedcba9876543210"),
]


@pytest.mark.parametrize(("control", "wire"), WIRE, ids=[w for _, w in WIRE])
def test_every_kind_builds_the_wire_format_and_parses_back(control: custom_ids.ControlId, wire: str) -> None:
    assert control.build() == wire
    assert custom_ids.parse(wire) == control
    assert type(custom_ids.parse(wire)) is type(control)


def test_every_kind_is_routed() -> None:
    """A kind without a handler would be a button that can never work."""
    from cogs.controls import HANDLERS

    assert {type(c) for c, _ in WIRE} == set(custom_ids.KINDS.values()) == set(HANDLERS)


def test_ids_of_other_bots_are_not_ours() -> None:
    for text in ("", "tt", "xx:a:1:0:0:ab", "TT:p:5", "ttp:5", "persistent_view:abc"):
        assert custom_ids.parse(text) is None


@pytest.mark.parametrize("text", [
    "tt:", "tt:p", "tt:p:", "tt:z:5", "tt:p:x", "tt:p:-5", "tt:p:+5", "tt:p: 5", "tt:p:５",  # full-width digit
    "tt:p:5:extra", "tt:a:1:0:0", "tt:a:1:0:0:ab:cd", "tt:a:1:x:0:ab", "tt:a:1:0:-1:ab",
    "tt:n:1:0:0:ab", "tt:n:1:0:0:ab:x", "tt:b:1:0:0", "tt:l:5", "tt:l:5:dance", "tt:o:5", "tt:m:5",
    "tt:x:5:6", "tt:p:" + "9" * 120,
])
def test_malformed_ids_raise_a_clear_error(text: str) -> None:
    with pytest.raises(custom_ids.MalformedId):
        custom_ids.parse(text)
    assert issubclass(custom_ids.MalformedId, ValueError)  # the router answers err.bad_control for it


def test_tags_are_opaque_so_pre_keyed_controls_parse_and_then_match_nothing() -> None:
    """Old buttons (10-hex unkeyed tags, dotted or "-" prefixes) must answer "no longer available",
    not "bad control": they parse, and the tag lookup finds nothing."""
    assert custom_ids.parse("tt:a:3:0:2:0a1b2c3d4e") == custom_ids.ActionId(3, 0, 2, "0a1b2c3d4e")
    assert custom_ids.parse("tt:n:3:0:2:1.4:0") == custom_ids.PathSelectId(3, 0, 2, "1.4", 0)
    assert custom_ids.parse("tt:b:3:0:2:-") == custom_ids.BackId(3, 0, 2, "-")


def test_building_refuses_what_would_not_parse_back() -> None:
    with pytest.raises(custom_ids.MalformedId):
        custom_ids.ActionId(1, 0, 0, "a:b").build()
    with pytest.raises(custom_ids.MalformedId):
        custom_ids.OptionId(1, "odd:name").build()
    with pytest.raises(custom_ids.MalformedId):
        custom_ids.LobbyId(1, "dance")


def test_the_100_character_limit() -> None:
    """Discord refuses a custom id over 100 characters; the bot must never build one."""
    assert limits.CUSTOM_ID == 100
    # the longest id the bot builds: a path select with game, seat and stamp of many digits
    longest = custom_ids.PathSelectId(10**15, 99, 10**9, "f" * panels.PREFIX_HEX, 3).build()
    assert len(longest) <= 100
    fits = "tt:m:1:" + "a" * (100 - len("tt:m:1:"))
    assert len(fits) == 100 and custom_ids.AdminId(1, "a" * 93).build() == fits
    assert custom_ids.parse(fits) == custom_ids.AdminId(1, "a" * 93)
    with pytest.raises(ValueError, match="over 100"):
        custom_ids.AdminId(1, "a" * 94).build()
    with pytest.raises(ValueError, match="over 100"):
        custom_ids.OptionId(1, "o" * 100).build()


async def test_panel_controls_parse_to_their_seat_and_stamp(store: Store) -> None:
    await install_key(store)
    _sessions, session = await running_toy(store)
    game = session.game
    assert game is not None
    seat = game.actors()[0]
    _content, view = panels.build_panel(session, seat, "en")
    parsed = [custom_ids.parse(str(item.custom_id)) for item in view.children]
    assert parsed and all(isinstance(p, custom_ids.ActionId) for p in parsed)
    assert {(p.game_id, p.seat, p.stamp) for p in parsed} == {(session.id, seat, 0)}  # type: ignore[union-attr]


async def test_the_seat_check_is_one_and_the_same_for_controls_and_commands(store: Store) -> None:
    """The cog (before decoding a tag) and the session layer (before applying) ask the same question."""
    sessions, session = await running_toy(store)
    game = session.game
    assert game is not None
    seat = game.actors()[0]
    user = session.row.seat_users[seat][0]  # type: ignore[index]
    other_seat_user = session.row.seat_users[1 - seat][0]  # type: ignore[index]
    session.check_seat(user, seat, 0)
    session.check_seat(user, seat)  # a command carries no stamp
    for who, stamp, key in ((99, 0, "err.spectator"), (other_seat_user, 0, "err.not_your_seat"),
                            (user, 1, "err.stale")):
        with pytest.raises(SessionError) as refused:
            session.check_seat(who, seat, stamp)
        assert refused.value.key == key
        with pytest.raises(SessionError) as refused:
            await sessions.act(session.id, who, seat, game.legal_actions(seat)[0], stamp)
        assert refused.value.key == key
    assert session.row.seq == 0  # nothing was applied


def component(bot: Any, custom_id: str, user_id: int, answers: Answers) -> Any:
    return SimpleNamespace(
        user=SimpleNamespace(id=user_id), channel_id=42, guild_id=1, locale=discord.Locale.american_english,
        extras={}, type=discord.InteractionType.component, data={"custom_id": custom_id}, client=bot,
        response=answers, followup=answers, id=1,
    )


async def test_the_router_answers_malformed_stale_and_foreign_ids(store: Store) -> None:
    await install_key(store)
    sessions, session = await running_toy(store, channel_id=42)
    bot = SimpleNamespace(sessions=sessions, store=store)
    cog = ControlsCog(bot)  # type: ignore[arg-type]
    game = session.game
    assert game is not None
    seat = game.actors()[0]
    user = session.row.seat_users[seat][0]  # type: ignore[index]
    tag = panels.action_hash(game.legal_actions(seat)[0], session.id, seat, 0)
    cases = [
        (f"tt:a:{session.id}:x:0:{tag}", "⛔ " + t("err.bad_control", "en")),  # forged: the seat is no number
        (f"tt:q:{session.id}", "⛔ " + t("err.bad_control", "en")),  # no such kind
        (custom_ids.ActionId(session.id, seat, 1, tag).build(), "⛔ " + t("err.stale", "en")),  # a later stamp
        (custom_ids.ActionId(session.id, seat, 0, "0a1b2c3d4e").build(), "⛔ " + t("err.stale", "en")),  # old tag
    ]
    for custom_id, expected in cases:
        answers = Answers(False)
        await cog.on_interaction(component(bot, custom_id, user, answers))
        assert [(kind, sent["content"], sent.get("ephemeral")) for kind, sent in answers.sent] == [
            ("response", expected, True)], custom_id
    answers = Answers(False)
    await cog.on_interaction(component(bot, "another_bot:button", user, answers))
    assert answers.sent == []  # not ours: left alone
    assert session.row.seq == 0  # nothing was played



async def test_odd_numbers_and_malformed_bot_ids_get_an_answer(store: Store) -> None:
    """Issue 23, item 5: a 20-digit game id raised OverflowError below the router, a malformed ``ttb:``
    id (the bot controls' family, routed by cogs/bots.py) got no answer at all, and a select value that
    is no plain number (``²``, ``-1``) reached ``int()`` or picked from the end of a list. Each is now
    answered "not recognised" and changes nothing; a well-formed ``ttb:`` id is left to its router."""
    await install_key(store)
    sessions, session = await running_toy(store, channel_id=42)
    bot = SimpleNamespace(sessions=sessions, store=store)
    cog = ControlsCog(bot)  # type: ignore[arg-type]
    bad = [("response", "⛔ " + t("err.bad_control", "en"), True)]
    for custom_id in ("tt:p:" + "9" * 20, f"tt:x:{2**63}", "tt:p:²", "ttb:l:x", "ttb:q:5", "ttb:l:5:6", "ttb:",
                      "ttb:l:²"):
        answers = Answers(False)
        await cog.on_interaction(component(bot, custom_id, 2, answers))
        assert [(kind, sent["content"], sent.get("ephemeral")) for kind, sent in answers.sent] == bad, custom_id
    answers = Answers(False)
    await cog.on_interaction(component(bot, f"ttb:l:{session.id}", 2, answers))
    assert answers.sent == []  # cogs/bots.py answers that one
    lobby = await sessions.create(guild_id=1, channel_id=43, host=UserInfo(1, "host"), game_key="toy", options={})
    for value in ("²", "-1", "9" * 30, "1e3", "٣"):
        answers = Answers(False)
        click = component(bot, custom_ids.TeamId(lobby.id).build(), 3, answers)
        click.data["values"] = [value]
        await cog.on_interaction(click)
        assert [(kind, sent["content"]) for kind, sent in answers.sent] == [(k, c) for k, c, _ in bad], value
    assert [p.user for p in (await sessions.get(lobby.id)).row.lobby] == [1]  # nobody joined
    assert session.row.seq == 0


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_processes_starting_at_once_on_one_database_agree_on_the_secret(
        backend: str, tmp_path: Path, pg_server: PgServer | None) -> None:
    """Two processes of one deployment (issue 14) load the controls cog at the same moment on an
    empty database: both must end with the same secret, or a button built by one is refused as
    stale by the other (seen in the two-process e2e). Each store here looks slowly, so both look
    before either writes: with a read-then-write, each kept the secret it had generated."""
    target: Path | str = tmp_path / "shared.sqlite3" if backend == "sqlite" else await new_pg_url(pg_server)
    stores = [await Store.open(target) for _ in range(2)]
    try:
        for st in stores:
            original = st.get_meta

            async def slow_get(key: str, original: Any = original) -> str | None:
                value = await original(key)
                await asyncio.sleep(0.05)
                return value

            st.get_meta = slow_get  # type: ignore[method-assign]
        keys: list[bytes] = []

        async def load(st: Store) -> None:
            await ControlsCog(SimpleNamespace(store=st)).cog_load()  # type: ignore[arg-type]
            keys.append(panels.control_key())  # this process's secret (set just now, no await between)

        await asyncio.gather(*(load(st) for st in stores))
        stored = await stores[0].get_meta(panels.CONTROL_KEY_META)
        assert stored is not None and keys == [bytes.fromhex(stored)] * 2
    finally:
        for st in stores:
            await st.close()
