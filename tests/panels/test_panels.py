"""Panels that read well on a phone (issue 13): complete confirmations, one live panel per player,
coalesced channel updates, no select with a single option, a link back to the channel post."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.core.i18n import t
from bot.core.sessions import SessionManager, UserInfo
from bot.core.store import Store
from bot.discord_app import boards, delivery
from bot.discord_app.custom_ids import PathSelectId, parse
from bot.discord_app.delivery import Publisher
from bot.discord_app.panels import (
    CONFIRM_ROOM,
    build_panel,
    confirmation,
    decode_prefix,
    has_controls,
    select_chunks,
)
from bot.games import registry
from bot.games.base import Event
from bot.games.coldwar import ColdWar
from tests.panels import games
from tests.platform.toy import toy_manifest

LANGS = ("en", "ru")


# ---- stand-ins for Discord ------------------------------------------------------------------
class Channel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.sent: list[dict[str, Any]] = []
        self.edits: list[tuple[int, dict[str, Any]]] = []

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.sent.append({"content": content, **kwargs})
        return SimpleNamespace(id=self.id * 1000 + len(self.sent))

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                channel.edits.append((message_id, kwargs))

        return Partial()


class Client:
    def __init__(self) -> None:
        self.channels: dict[int, Channel] = {}

    def get_channel(self, channel_id: int) -> Channel:
        return self.channels.setdefault(channel_id, Channel(channel_id))

    async def create_dm(self, user: Any) -> Channel:
        return self.get_channel(-user.id)


class Interaction:
    """The part of an ephemeral answer's interaction that retiring its panel uses."""

    def __init__(self, user_id: int, interaction_id: int) -> None:
        self.id = interaction_id
        self.user = SimpleNamespace(id=user_id)
        self.guild_id = 1
        self.message = None
        self.stripped: list[dict[str, Any]] = []

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.stripped.append(kwargs)

    @property
    def followup(self) -> Any:
        async def edit_message(message_id: int, **kwargs: Any) -> None:
            self.stripped.append({"message": message_id, **kwargs})
        return SimpleNamespace(edit_message=edit_message)


@pytest.fixture
def game_class(monkeypatch: pytest.MonkeyPatch) -> Any:
    def use(cls: type) -> None:
        name = cls.__name__
        monkeypatch.setitem(registry.GAMES, "toy", toy_manifest(f"tests.panels.games:{name}"))
    return use


async def toy_session(tmp_path: Path, channel_id: int = 7) -> tuple[Store, SessionManager, Any]:
    store = await Store.open(tmp_path / "panels.sqlite3")
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=channel_id, host=UserInfo(1, "alice"),
                                    game_key="toy", options={})
    await sessions.join(session.id, UserInfo(2, "bob", lang="ru"))
    await sessions.start(session.id, 1, seed=5)
    return store, sessions, session


def user_of(session: Any, seat: int) -> int:
    return int(session.row.seat_users[seat][0])


# ---- one select level with a single option is skipped ---------------------------------------
async def test_a_select_level_with_one_option_is_chosen_for_the_player(tmp_path: Path, game_class: Any) -> None:
    game_class(games.Wide)
    store, _sessions, session = await toy_session(tmp_path)
    try:
        seat = session.game.actors()[0]
        for lang in LANGS:
            content, view = build_panel(session, seat, lang)
            selects = [c for c in view.children if isinstance(c, discord.ui.Select)]
            # 30 additions, all under "Add": no select offering only "Add"; the 30 go in two selects of 15
            assert [len(s.options) for s in selects] == [15, 15]
            assert [o.label for s in selects for o in s.options] == [f"+{n}" for n in range(1, 31)]
            assert "**Add**" in content
            # nothing above to go back to
            assert not [c for c in view.children if getattr(c, "custom_id", "").startswith("tt:b:")]
            # the select still leads where it says: its prefix is "Add", and option 4 is "+5"
            control = parse(selects[0].custom_id)
            assert isinstance(control, PathSelectId)
            prefix = decode_prefix(session.game, session.id, seat, session.row.seat_counts[seat], lang,
                                   control.prefix_tag)
            assert prefix == [0]
    finally:
        await store.close()


def test_options_are_spread_evenly_over_selects() -> None:
    labels = [str(n) for n in range(26)]
    assert [len(chunk) for _, chunk in select_chunks(labels)] == [13, 13]
    assert [start for start, _ in select_chunks(labels)] == [0, 13]
    assert [len(chunk) for _, chunk in select_chunks(labels[:25])] == [25]
    assert [len(chunk) for _, chunk in select_chunks([str(n) for n in range(51)])] == [17, 17, 17]
    assert all(len(chunk) > 1 for n in range(2, 101) for _, chunk in select_chunks([str(k) for k in range(n)]))


# ---- confirmations ---------------------------------------------------------------------------
class Rolls:
    """A stand-in game whose events are a long series of rolls, a conquest and a private draw."""

    def event_text(self, event: Event, lang: str) -> str | None:
        if event["type"] == "roll":
            return f"Roll {event['n']}: [6, 5] vs [4] — the defender loses 1."
        if event["type"] == "conquered":
            return "Gaul is conquered.\nMove in 3 to 5 armies."
        if event["type"] == "drew":
            return "You drew Zeus's Thunderbolt."
        return None


def roll_events(n: int) -> list[Event]:
    return [*({"type": "roll", "n": k} for k in range(1, n + 1)), {"type": "conquered"},
            {"type": "drew", "to": [0]}, {"type": "drew", "to": [1]}, {"type": "platform.prompt", "seats": [1]}]


@pytest.mark.parametrize("lang", LANGS)
def test_a_short_outcome_is_shown_whole(lang: str) -> None:
    text = confirmation(Rolls(), roll_events(3), 0, lang)  # type: ignore[arg-type]
    assert text == "✅ " + "\n".join([*(f"Roll {k}: [6, 5] vs [4] — the defender loses 1." for k in (1, 2, 3)),
                                     "Gaul is conquered.", "Move in 3 to 5 armies.", "You drew Zeus's Thunderbolt."])


@pytest.mark.parametrize("lang", LANGS)
def test_a_long_outcome_is_condensed_never_cut_blindly(lang: str) -> None:
    link = "https://discord.com/channels/1/2/3"
    text = confirmation(Rolls(), roll_events(60), 0, lang, link=link)  # type: ignore[arg-type]
    assert len(text) <= CONFIRM_ROOM + 300
    # the first and the last roll, how many in between, the conquest, and the private draw (whole)
    assert "Roll 1:" in text and "Roll 60:" in text
    assert t("panels.more_like_this", lang, n=58) in text
    assert "Gaul is conquered." in text and "You drew Zeus's Thunderbolt." in text
    assert text.count("You drew") == 1  # seat 1's draw is not seat 0's news
    assert t("panels.full_in_channel_link", lang, url=link) in text


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_to_report_says_the_move_was_taken(lang: str) -> None:
    assert confirmation(Rolls(), [{"type": "platform.prompt", "seats": [0]}], 0, lang) == \
        "✅ " + t("panel.done", lang)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGS)
def test_the_wait_that_ends_a_cold_war_round_confirms_all_its_outcomes(lang: str) -> None:
    """Rulebook (cold-war-kgb-vs-cia.ru.txt): "Если оба игрока выбирают выжидание один за другим, фаза
    борьбы за влияние завершается", followed by "4. Перемирие ... 2. Гражданские беспорядки (если есть)"
    and "5. Отчёт": the second wait brings the truce, civil unrest and the report in one action. The
    player who waited sees every one of those outcomes."""
    checked = 0
    for seed in range(1, 40):
        game = ColdWar.new([{}, {}], {}, seed)
        game.seat_names = ["Alice", "Bob"]
        rnd = random.Random(seed)
        for _ in range(400):
            actors = game.actors()
            if not actors:
                break
            seat = actors[0]
            legal = game.legal_actions(seat)
            s = game.s
            ending = s.phase == "struggle" and s.waits == 1 and {"type": "wait"} in legal
            action = {"type": "wait"} if ending or ({"type": "wait"} in legal and rnd.random() < 0.5) \
                else rnd.choice(legal)
            events = game.apply(seat, action)
            if ending:
                texts = [game.event_text(e, lang) for e in events
                         if ("to" not in e or seat in e["to"]) and not e["type"].startswith("platform.")]
                texts = [x for x in texts if x]
                shown = confirmation(game, events, seat, lang)
                for text in texts:
                    assert text.strip().splitlines()[0][:60] in shown, (text, shown)
                checked += len(texts) > 3
        if checked >= 3:
            break
    assert checked >= 3


# ---- one live panel per player ---------------------------------------------------------------
async def test_acting_elsewhere_refreshes_the_dm_panel_and_a_new_dm_retires_the_ephemeral(
        tmp_path: Path, game_class: Any) -> None:
    game_class(games.Streak)
    store, sessions, session = await toy_session(tmp_path)
    client = Client()
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    publisher.publish_interval = 0
    try:
        await publisher.publish(session.id)
        seat = session.game.actors()[0]
        user = user_of(session, seat)
        dm = client.get_channel(-user)
        assert len(dm.sent) == 1 and has_controls(dm.sent[0]["view"])
        # the DM panel links to the channel post
        links = [c for c in dm.sent[0]["view"].children if getattr(c, "url", None)]
        assert links and links[0].url.startswith("https://discord.com/channels/1/7/")
        panel_id = 1000 * -user + 1
        # the seat moves through /risk or /game hand: an ephemeral answer shows its new panel
        await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
        interaction = Interaction(user, 501)
        publisher.panels.ephemeral_shown(session, user, seat, interaction, None)  # type: ignore[arg-type]
        await publisher.idle()
        # the DM panel is edited in place (no new DM) to the seat's current panel
        assert len(dm.sent) == 1
        (edited, kwargs), = dm.edits
        assert edited == panel_id and has_controls(kwargs["view"])
        stamp = session.row.seat_counts[seat]
        assert all(f":{seat}:{stamp}:" in c.custom_id for c in kwargs["view"].children
                   if str(getattr(c, "custom_id", "") or "").startswith("tt:a:"))
        # the turn passes and comes back: the new DM panel retires the ephemeral one and the old DM
        for _ in range(2):
            await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
        other = session.game.actors()[0]
        for _ in range(3):
            await sessions.act(session.id, user_of(session, other), other, {"type": "add", "n": 1})
        await publisher.publish(session.id)
        await publisher.idle()
        assert session.game.actors() == [seat]
        assert len(dm.sent) == 2
        assert interaction.stripped == [{"view": None}]
        assert (panel_id, {"view": None}) in dm.edits
    finally:
        await store.close()


async def test_moves_made_in_a_row_elsewhere_refresh_the_dm_panel_once(tmp_path: Path, game_class: Any) -> None:
    """Two moves in a row through ephemeral panels (a play and its ✔, say) bring the DM panel up to date
    with one edit, at the stamp after the second, and not before ``refresh_delay`` has passed."""
    game_class(games.Streak)
    store, sessions, session = await toy_session(tmp_path)
    client = Client()
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    publisher.publish_interval = 0
    publisher.panels.refresh_delay = 0.3
    try:
        await publisher.publish(session.id)
        seat = session.game.actors()[0]
        user = user_of(session, seat)
        dm = client.get_channel(-user)
        assert len(dm.sent) == 1 and not dm.edits
        started = time.monotonic()
        for n in (1, 2):
            await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
            publisher.panels.ephemeral_shown(session, user, seat, Interaction(user, 600 + n), None)  # type: ignore[arg-type]
            await asyncio.sleep(0.05)
        assert session.game.actors() == [seat]  # still the seat's turn: its DM panel keeps controls
        await publisher.idle()
        assert time.monotonic() - started >= 0.3
        (edited, kwargs), = dm.edits  # one edit for the two moves
        assert edited == 1000 * -user + 1
        stamp = session.row.seat_counts[seat]
        ids = [str(c.custom_id) for c in kwargs["view"].children if str(getattr(c, "custom_id", "") or "").startswith("tt:a:")]
        assert ids and all(f":{seat}:{stamp}:" in i for i in ids)
    finally:
        await store.close()


def click_in_place(user: int, interaction_id: int, panel_id: int, dm: Channel) -> Interaction:
    """A click on the DM panel ``panel_id``, answered by editing that message."""
    click = Interaction(user, interaction_id)
    click.guild_id = None  # type: ignore[assignment]
    click.message = SimpleNamespace(id=panel_id)
    click.channel = dm  # type: ignore[attr-defined]
    return click


def control_stamps(kwargs: dict[str, Any]) -> set[int] | None:
    """The stamps of the action controls an edit left on its message (None: it left none); a stand-in
    for a click's answer says its stamp."""
    if "stamp" in kwargs:
        return {kwargs["stamp"]}
    view = kwargs.get("view")
    ids = [parse(str(c.custom_id)) for c in (view.children if view is not None else [])
           if str(getattr(c, "custom_id", "") or "").startswith("tt:a:")]
    return {i.stamp for i in ids} or None  # type: ignore[union-attr]


@pytest.mark.parametrize("held", ["drawing", "sending"])
async def test_a_refresh_of_the_dm_panel_never_leaves_it_older_than_a_click_answered_on_it(
        tmp_path: Path, game_class: Any, monkeypatch: pytest.MonkeyPatch, held: str) -> None:
    """A refresh of the DM panel is under way (still drawing, or its edit already on its way) when the
    player clicks that panel and the click is answered in place, at the next stamp. The panel must end at
    the newest stamp, not keep buttons that answer "no longer available" (CI's Cold War e2e: the seat was
    left with the panel of the move before). A refresh not sent yet gives way; one already on its way may
    land after the answer, so the panel is edited once more."""
    game_class(games.Streak)
    store, sessions, session = await toy_session(tmp_path)
    client = Client()
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    publisher.publish_interval = 0
    publisher.panels.refresh_delay = 0
    try:
        await publisher.publish(session.id)
        await publisher.idle()
        seat = session.game.actors()[0]
        user = user_of(session, seat)
        dm = client.get_channel(-user)
        panel_id = 1000 * -user + 1
        assert len(dm.sent) == 1 and not dm.edits
        gate, reached = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            reached.set()
            await gate.wait()  # the refresh's board takes its time, or Discord takes its time with the edit

        draw = boards.personal_board

        async def drawing(*args: Any) -> bytes | None:
            if held == "drawing":
                await hold()
            return await draw(*args)

        monkeypatch.setattr(boards, "personal_board", drawing)

        class Partial:
            def __init__(self, message_id: int) -> None:
                self.message_id = message_id

            async def edit(self, **kwargs: Any) -> None:
                if held == "sending":
                    await hold()
                dm.edits.append((self.message_id, kwargs))

        dm.get_partial_message = Partial  # type: ignore[method-assign, assignment]
        # a move made through an ephemeral panel: the DM panel's refresh is built
        await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
        publisher.panels.ephemeral_shown(session, user, seat, Interaction(user, 701), None)  # type: ignore[arg-type]
        await asyncio.wait_for(reached.wait(), 5)
        built = session.row.seat_counts[seat]
        # meanwhile the player clicks the DM panel: the move is made and the click's answer edits the panel
        publisher.panels.touching(session.id, user)  # as cogs/controls.py does, before the move
        await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
        newest = session.row.seat_counts[seat]
        assert newest == built + 1 and session.game.actors() == [seat]
        dm.edits.append((panel_id, {"content": "the click's answer", "stamp": newest}))
        publisher.panels.answered(click_in_place(user, 702, panel_id, dm), session, seat,  # type: ignore[arg-type]
                                  in_place=True)
        await asyncio.sleep(0.05)
        gate.set()  # the refresh built before the click goes on
        await publisher.idle()
        shown = [control_stamps(kwargs) for message, kwargs in dm.edits if message == panel_id]
        if held == "drawing":
            assert shown == [{newest}]  # the refresh gave way: the click's answer is the panel
        else:
            assert shown == [{newest}, {built}, {newest}]  # landed over the answer, then edited once more
    finally:
        await store.close()


async def test_a_click_answered_on_the_dm_panel_as_a_new_dm_panel_goes_out_keeps_a_live_panel(
        tmp_path: Path, game_class: Any) -> None:
    """A new DM panel is on its way (the announcement of the other seat's move) as the player clicks their
    current DM panel, answered in place at the next stamp. The new panel's bookkeeping runs first and takes
    the clicked panel's controls away; the click's, run next, takes the new panel's away. The player must be
    left with one live panel at the newest stamp, not none (CI's Cold War e2e: the seat had no panel)."""
    game_class(games.Streak)
    store, sessions, session = await toy_session(tmp_path)
    client = Client()
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    publisher.publish_interval = 0
    publisher.panels.refresh_delay = 0
    try:
        await publisher.publish(session.id)
        await publisher.idle()
        seat = session.game.actors()[0]
        user = user_of(session, seat)
        dm = client.get_channel(-user)
        clicked = 1000 * -user + 1  # the DM panel on screen
        built = session.row.seat_counts[seat]
        panels = publisher.panels
        # the publisher is sending a new DM panel, built at this stamp: the current one is listed as stale
        await panels.replacing(session.id, user)
        new = (await dm.send("the new DM panel")).id
        # the player clicks the panel on screen: the move is made and the answer edits that panel
        panels.touching(session.id, user)
        await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
        newest = session.row.seat_counts[seat]
        assert newest == built + 1 and session.game.actors() == [seat]
        dm.edits.append((clicked, {"content": "the click's answer", "stamp": newest}))
        answered_at = time.monotonic()
        # the new DM's bookkeeping runs first (it went out first), then the click's
        new_shown = asyncio.create_task(panels.dm_shown(session, user, seat, dm, new, built, shown_at=answered_at))
        panels.answered(click_in_place(user, 801, clicked, dm), session, seat, in_place=True)  # type: ignore[arg-type]
        await new_shown
        await publisher.idle()

        def live(message: int) -> set[int] | None:
            """The stamps of the message's controls after its last edit."""
            return control_stamps([k for m, k in dm.edits if m == message][-1])

        assert live(new) is None  # retired: the clicked panel is the newer one on screen
        assert live(clicked) == {newest}
    finally:
        await store.close()


async def test_a_click_answered_in_place_keeps_the_controls_of_the_panel_it_was_on(
        tmp_path: Path, game_class: Any) -> None:
    """``/game hand`` shows a panel; a click on it is answered by editing that same message to the next
    decision. It is the live panel, not an older one: its controls stay (CI's Cold War e2e saw the
    clicked panel lose them when the retiring ran before the player's next click)."""
    game_class(games.Streak)
    store, sessions, session = await toy_session(tmp_path)
    publisher = Publisher(Client(), sessions, store)  # type: ignore[arg-type]
    publisher.publish_interval = 0
    try:
        seat = session.game.actors()[0]
        user = user_of(session, seat)
        hand = Interaction(user, 601)  # /game hand: its reply is message 77
        publisher.panels.answered(hand, session, seat, 77)  # type: ignore[arg-type]
        await publisher.idle()
        await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
        click = Interaction(user, 602)
        click.message = SimpleNamespace(id=77)  # the button was on message 77, edited in place
        publisher.panels.answered(click, session, seat, in_place=True)  # type: ignore[arg-type]
        await publisher.idle()
        assert hand.stripped == [] and click.stripped == []
        # a later /game hand (a new message) does retire it, through the click's token
        later = Interaction(user, 603)
        publisher.panels.answered(later, session, seat, 78)  # type: ignore[arg-type]
        await publisher.idle()
        assert hand.stripped == [] and click.stripped == [{"view": None}]
    finally:
        await store.close()


# ---- coalesced channel updates ---------------------------------------------------------------
async def test_moves_of_one_turn_coalesce_and_the_turn_change_goes_out_at_once(
        tmp_path: Path, game_class: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    game_class(games.Streak)
    drawn: list[int] = []  # the seq of every board drawn for the channel post
    render = delivery.render_png

    async def counted(session: Any, lang: str) -> bytes | None:
        drawn.append(session.row.seq)
        return await render(session, lang)

    monkeypatch.setattr(delivery, "render_png", counted)
    store, sessions, session = await toy_session(tmp_path)
    client = Client()
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    publisher.publish_interval = 1.0
    publisher.panels.refresh_delay = 0  # idle() would wait a DM panel's refresh out, and the interval with it
    channel = client.get_channel(7)
    try:
        publisher.request(session.id)
        await publisher.idle()
        assert len(channel.sent) == 1
        seat = session.game.actors()[0]
        user = user_of(session, seat)
        started = time.monotonic()
        for _ in range(2):  # two moves in the same turn
            await sessions.act(session.id, user, seat, {"type": "add", "n": 1})
            publisher.request(session.id)
            await asyncio.sleep(0.05)
        assert session.id in publisher.holding and len(channel.sent) == 1 and not channel.edits
        await publisher.settled(session.id)  # a bot waiting for the post is not held up by the hold
        await sessions.act(session.id, user, seat, {"type": "add", "n": 1})  # the third ends the turn
        publisher.request(session.id)
        await publisher.idle()
        assert time.monotonic() - started < 0.95  # no waiting out the interval when the turn passes
        assert len(channel.sent) == 2 and not channel.edits  # one new post carries the three moves
        assert channel.sent[1]["content"].count("adds 1") == 3
        assert sum(1 for m in channel.sent if "file" in m) == 2
        # a lone move of the next turn is published once the interval has passed (never lost): its text
        # at once, its board when the board interval has passed since the turn's post
        other = session.game.actors()[0]
        drawn.clear()
        await sessions.act(session.id, user_of(session, other), other, {"type": "add", "n": 2})
        publisher.request(session.id)
        await publisher.idle()
        (text_id, text), (board_id, board) = channel.edits
        assert "adds 2" in text["content"] and "attachments" not in text
        assert board_id == text_id and list(board) == ["attachments"] and len(board["attachments"]) == 1
        assert drawn == [session.row.seq]  # the board is drawn once, when it is due: not for the text edit too
    finally:
        await store.close()


async def test_an_unchanged_board_is_not_uploaded_again(tmp_path: Path, game_class: Any) -> None:
    game_class(games.Streak)
    store, sessions, session = await toy_session(tmp_path)
    client = Client()
    publisher = Publisher(client, sessions, store)  # type: ignore[arg-type]
    publisher.publish_interval = 0
    channel = client.get_channel(7)
    try:
        await publisher.publish(session.id)
        seat = session.game.actors()[0]
        # the toy's board shows the total: +1 changes it; then the same total again after a penalty undoes it
        await sessions.act(session.id, user_of(session, seat), seat, {"type": "add", "n": 1})
        await publisher.publish(session.id)
        await sessions.act_admin(session.id, 1, {"type": "penalty"})
        await publisher.publish(session.id)
        await sessions.act_admin(session.id, 1, {"type": "penalty"})  # the total was 1: stays at 0
        await publisher.publish(session.id)
        assert [("attachments" in kwargs) for _, kwargs in channel.edits] == [True, True, False]
    finally:
        await store.close()


# ---- prompts name only the choices offered ------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_the_cold_war_turn_prompt_names_only_the_offered_choices(lang: str) -> None:
    phrases = {k: t(f"coldwar.prompt.turn_{k}", lang) for k in ("recruit", "use", "event", "wait")}
    seen: set[frozenset[str]] = set()
    for seed in range(1, 8):
        game = ColdWar.new([{}, {}], {}, seed)
        rnd = random.Random(seed)
        for _ in range(300):
            actors = game.actors()
            if not actors:
                break
            seat = actors[0]
            legal = game.legal_actions(seat)
            if game.s.dec.kind == "turn":
                offered = {a["type"] for a in legal} & set(phrases)
                prompt = game.prompt_text(seat, lang)
                assert {k for k, phrase in phrases.items() if phrase in prompt} == offered, (prompt, offered)
                seen.add(frozenset(offered))
            game.apply(seat, rnd.choice(legal))
    assert frozenset({"recruit"}) in seen and frozenset({"recruit", "use", "wait"}) in seen


# ---- Godstorm: attacks grouped by target ---------------------------------------------------------
def godstorm_attack_turn(players: int = 3, seed: int = 5) -> Any:
    from bot.games.base import Rng
    from bot.games.godstorm import Godstorm
    from bot.games.godstorm.ai import GodstormBot

    game = Godstorm.new([{} for _ in range(players)], {}, seed)
    bot, rng = GodstormBot("strong"), Rng(seed)
    while not (game.s.phase == "turn" and game.s.battle is None and game.s.move is None
               and sum(a["type"] == "attack" for a in game.legal_actions(game.actors()[0])) > 20):
        seat = game.actors()[0]
        game.apply(seat, bot.choose(game.view(seat), game.legal_actions(seat), rng))
    return game


@pytest.mark.parametrize("lang", LANGS)
def test_godstorm_attacks_are_chosen_by_target_then_source(lang: str) -> None:
    from bot.discord_app.panels import choices_under, level_labels
    from bot.games.godstorm.text import tname

    game = godstorm_attack_turn()
    seat = game.actors()[0]
    attack_root = t("godstorm.act.attack", lang)
    roots = level_labels(choices_under(game, seat, lang, [])[0], 0)
    under, _ = choices_under(game, seat, lang, [roots.index(attack_root)])
    depth = 1
    while True:  # a continent level comes first when the player holds many territories
        labels = level_labels(under, depth)
        if all(label.startswith("→") for label in labels):
            break
        depth += 1
    targets = {c.action["to"] for c in under}
    assert len(labels) == len(targets) > 1
    for label in labels:  # under one target label, every attack goes there, from one or more sources
        there = {c.action["to"] for c in under if c.path[depth] == label}
        assert len(there) == 1
        # the next level names where the attack comes from
        assert all(tname(c.action["from"], lang) in c.path[depth + 1] for c in under if c.path[depth] == label)


# ---- a card peeked at is named once --------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
async def test_a_media_peek_names_the_card_once_in_the_answer(tmp_path: Path, lang: str) -> None:
    """Rulebook (cold-war-kgb-vs-cia.ru.txt): "Общественная группа позволяет игроку подсмотреть верхнюю
    карту в колоде групп и решить: сбросить эту группу, положить её перед собой ... или вернуть наверх".
    The answer to the use of the group names that card once, though both the event and the panel's
    private text mention it (and no DM repeats it: see the e2e tests)."""
    store = await Store.open(tmp_path / "cw.sqlite3")
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=9, host=UserInfo(1, "alice", lang=lang),
                                    game_key="coldwar", options={})
    await sessions.join(session.id, UserInfo(2, "bob", lang=lang))
    await sessions.start(session.id, 1, seed=3)
    rnd = random.Random(3)
    try:
        for _ in range(600):
            game = session.game
            actors = game.actors() if game is not None else []
            if not actors:
                break
            seat = actors[0]
            legal = game.legal_actions(seat)
            uses = [a for a in legal if a["type"] == "use"]
            action = rnd.choice(uses) if uses and rnd.random() < 0.8 else rnd.choice(legal)
            result = await sessions.act(session.id, user_of(session, seat), seat, action)
            game = result.session.game
            if game.actors() == [seat] and game.s.dec.kind == "media":
                note = confirmation(game, result.events, seat, lang)
                content, _view = build_panel(result.session, seat, lang, note=note)
                peeked = [line for line in game.private_text(seat, lang).splitlines()
                          if line and line in note]
                assert peeked, (note, game.private_text(seat, lang))
                for line in peeked:
                    assert content.count(line) == 1, content
                return
        pytest.fail("no media peek came up")
    finally:
        await store.close()


def test_publish_interval_is_configured_from_the_environment() -> None:
    from bot.core.config import ConfigError, load_config

    assert load_config({"DISCORD_TOKEN": "x"}, read_dotenv=False).publish_interval == 4.0
    assert load_config({"DISCORD_TOKEN": "x", "PUBLISH_INTERVAL": "0"}, read_dotenv=False).publish_interval == 0
    assert load_config({"DISCORD_TOKEN": "x", "PUBLISH_INTERVAL": "2.5"}, read_dotenv=False).publish_interval == 2.5
    with pytest.raises(ConfigError, match="PUBLISH_INTERVAL"):
        load_config({"DISCORD_TOKEN": "x", "PUBLISH_INTERVAL": "soon"}, read_dotenv=False)


def test_panel_refresh_delay_is_configured_from_the_environment() -> None:
    from bot.core.config import ConfigError, load_config
    from bot.discord_app.livepanels import REFRESH_DELAY

    assert load_config({"DISCORD_TOKEN": "x"}, read_dotenv=False).panel_refresh_delay == REFRESH_DELAY == 1.0
    assert load_config({"DISCORD_TOKEN": "x", "PANEL_REFRESH_DELAY": "0.25"}, read_dotenv=False).panel_refresh_delay == 0.25
    assert load_config({"DISCORD_TOKEN": "x", "PANEL_REFRESH_DELAY": "-3"}, read_dotenv=False).panel_refresh_delay == 0
    with pytest.raises(ConfigError, match="PANEL_REFRESH_DELAY"):
        load_config({"DISCORD_TOKEN": "x", "PANEL_REFRESH_DELAY": "later"}, read_dotenv=False)
