"""The standing preferences (issue 10): the defender's dice and the Sky cards' "never answer", set at any
time, also when it is not the player's turn (``Game.standing_actions``).

Rulebook (``risk-godstorm.ru.txt``, "Атака"): "Первым вы (нападающий) и затем ваш оппонент (защитник),
заявляют сколько кубов будет брошено. ... Защитник может бросить 1 или 2 куба – 2 только если у него есть
хотя бы 2 армии в защищающейся территории." The defender declares 1 or 2 dice at each roll; the standing
preference says it for them ("always the most", the default; "always one"), or asks them ("ask me").
Seat 0 attacks Iberia (seat 2) from Gaul; seats 1 and 2 are not to act.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.core.i18n import t
from bot.core.replay import verify
from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.games.base import IllegalAction
from bot.games.godstorm.game import Godstorm
from bot.games.godstorm.playout import choose
from bot.games.godstorm.scenario import put, scenario, script
from tests.godstorm import miracle_kit

ATTACK = {"type": "attack", "from": "Gaul", "to": "Iberia", "dice": 3}


def _rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "roll"]


def _attack_position() -> Godstorm:
    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 3)
    return g


def _off_turn(g: Godstorm, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply a standing action of a seat that is not to act, checking it moved nobody's decision."""
    assert seat not in g.actors()
    before = (g.decision(), g.actors(), {a: g.legal_actions(a) for a in g.actors()})
    assert g.is_standing(seat, action)
    events = g.apply(seat, action)
    assert (g.decision(), g.actors(), {a: g.legal_actions(a) for a in g.actors()}) == before
    return events


def test_every_player_still_in_may_set_them_when_it_is_not_their_turn() -> None:
    g = _attack_position()
    assert g.actors() == [0]
    for seat in (0, 1, 2):  # miracles off: only the dice
        assert g.standing_actions(seat) == [{"type": "dice_pref", "pref": "one"}, {"type": "dice_pref", "pref": "ask"}]
    assert not any(a["type"] == "dice_pref" for a in g.legal_actions(0))  # beside the turn's choices
    g.s.players[1].eliminated = True
    assert g.standing_actions(1) == [] and g.standing_text(1, "en") == ""
    m = miracle_kit.game(step="invade")
    assert {"type": "answer_pref", "never": True} in m.standing_actions(2)
    m.s.outcome = {"winners": [0], "draw": False}
    assert m.standing_actions(2) == []


def test_always_one_set_out_of_turn_is_applied_without_a_question() -> None:
    g = _attack_position()
    events = _off_turn(g, 2, {"type": "dice_pref", "pref": "one"})
    assert events == [{"type": "dice_pref", "to": [2], "pref": "one"}]  # private: nothing for the channel
    g = Godstorm.from_json(g.to_json())
    script(g, [6, 6, 6, 1])
    roll = _rolls(g.apply(0, ATTACK))[0]
    # the book lets the defender throw 2 with 3 armies; the standing "always one" throws 1, unasked
    assert len(roll["dfn"]) == 1 and g.decision() == "turn" and g.actors() == [0]


def test_ask_me_set_out_of_turn_asks_for_one_or_two_dice() -> None:
    g = _attack_position()
    _off_turn(g, 2, {"type": "dice_pref", "pref": "ask"})
    assert g.view(2)["me"]["dice_pref"] == "ask" and "dice_pref" not in g.view(0)["me"]
    g.apply(0, ATTACK)
    assert g.decision() == "defend" and g.actors() == [2]
    # "Защитник может бросить 1 или 2 куба": both offered with 3 armies
    assert [a for a in g.legal_actions(2) if a["type"] == "defend"] == [
        {"type": "defend", "dice": 2}, {"type": "defend", "dice": 1}]
    script(g, [6, 6, 6, 1])
    roll = _rolls(g.apply(2, {"type": "defend", "dice": 1}))[0]
    assert len(roll["dfn"]) == 1 and g.actors() == [0]


def test_ask_me_does_not_ask_a_single_army() -> None:
    g = scenario()
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 2, 1)
    _off_turn(g, 2, {"type": "dice_pref", "pref": "ask"})
    script(g, [1, 1, 1, 6])
    roll = _rolls(g.apply(0, ATTACK))[0]
    # "2 только если у него есть хотя бы 2 армии": one army has only one choice, so nobody is asked
    assert len(roll["dfn"]) == 1 and g.decision() == "turn"


def test_never_answer_set_out_of_turn_skips_the_sky_window() -> None:
    g = miracle_kit.game(step="invade")
    put(g, "Gaul", 0, 6)
    put(g, "Iberia", 1, 3)
    put(g, "Atlas", 1, 5, gods=["sky"])
    miracle_kit.give(g, 1, "men_become_warriors")
    events = _off_turn(g, 1, {"type": "answer_pref", "never": True})
    assert events == [{"type": "answer_pref", "to": [1], "never": True}]
    assert g.standing_actions(1)[-1] == {"type": "answer_pref", "never": False}
    script(g, [1, 1, 1, 6, 6])
    g.apply(0, ATTACK)
    assert g.decision() == "turn" and g.s.terr["Gaul"].armies == 4  # rolled at once, no window


def test_refusals_change_nothing() -> None:
    g = _attack_position()
    before = g.to_json_text()
    with pytest.raises(IllegalAction) as refused:
        g.apply(2, {"type": "dice_pref", "pref": "most"})  # already so: not offered, and not seat 2's turn
    assert refused.value.key.endswith("not_your_turn")
    with pytest.raises(IllegalAction):
        g.apply(2, {"type": "dice_pref", "pref": "all"})
    with pytest.raises(IllegalAction):
        g.apply(1, {"type": "answer_pref", "never": True})  # no miracle cards in this game
    with pytest.raises(IllegalAction):
        g.apply(2, {"type": "end_turn"})
    assert g.to_json_text() == before


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_current_settings_in_words(lang: str) -> None:
    m = miracle_kit.game(step="invade")
    m.apply(2, {"type": "dice_pref", "pref": "one"})
    text = m.standing_text(2, lang)
    assert t("godstorm.ui.pref_one", lang) in text and t("prefs.answer.ask", lang) in text
    assert t("godstorm.ui.pref_most", lang) in m.standing_text(1, lang)


@pytest.mark.parametrize("seed", [3, 8])
def test_replay_is_exact_with_preferences_changed_out_of_turn(seed: int) -> None:
    """Random games (miracles on) where seats not to act change their preferences at random moments:
    replaying the log from the seed gives the same state after every action, and from a stored state too."""
    seats: list[dict[str, Any]] = [{}, {}, {}]
    options = {"miracles": "on"}
    game = Godstorm.new(seats, options, seed)
    rnd = random.Random(seed)
    log: list[tuple[int, dict[str, Any]]] = []
    texts: list[str] = []
    changed = 0
    for _ in range(3000):
        if game.outcome() is not None:
            break
        idle = [s for s in range(3) if s not in game.actors() and game.standing_actions(s)]
        if idle and rnd.random() < 0.08:
            seat = rnd.choice(idle)
            action = rnd.choice(game.standing_actions(seat))
            _off_turn(game, seat, action)
            changed += 1
        else:
            seat = game.actors()[0]
            action = choose(game, seat, game.legal_actions(seat), rnd)
            game.apply(seat, action)
        log.append((seat, action))
        texts.append(game.to_json_text())
    assert changed >= 10
    again = Godstorm.new(seats, options, seed)
    for i, (seat, action) in enumerate(log):
        again.apply(seat, action)
        assert again.to_json_text() == texts[i], i
        if i == len(log) // 2:
            again = Godstorm.from_json(again.to_json())


# ---- through the session layer: logged with a seq, nobody's clock restarted --------------------
USERS = [UserInfo(21, "ann"), UserInfo(22, "bor", "ru"), UserInfo(23, "cat")]


async def test_the_session_takes_a_preference_from_a_seat_not_to_act(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "p.sqlite3")
    try:
        sessions = SessionManager(store)
        session = await sessions.create(guild_id=1, channel_id=78, host=USERS[0], game_key="godstorm",
                                        options={}, deadline_s=3600)
        for joining in USERS[1:]:
            await sessions.join(session.id, joining)
        session = await sessions.start(session.id, USERS[0].id, seed=7)
        game = session.game
        assert game is not None
        actor = game.actors()[0]
        idle = next(s for s in range(3) if s not in game.actors())
        users = session.row.seat_users
        assert users is not None
        user = users[idle][0]
        seq, clocks = session.row.seq, dict(session.deadlines)
        stored = await store.deadlines(session.id)
        assert clocks and actor in clocks
        with pytest.raises(SessionError) as refused:  # an ordinary move still waits for one's turn
            await sessions.act(session.id, user, idle, game.legal_actions(actor)[0])
        assert refused.value.key == "err.not_your_turn"
        result = await sessions.act(session.id, user, idle, {"type": "dice_pref", "pref": "ask"})
        assert result.events == [{"type": "dice_pref", "to": [idle], "pref": "ask"}]  # no prompt, nothing public
        assert session.row.seq == seq + 1 and game.actors() == [actor]
        assert session.deadlines == clocks and await store.deadlines(session.id) == stored
        logged = (await store.actions(session.id, seq))[-1]
        assert (logged.seq, logged.seat, logged.action) == (seq + 1, idle, {"type": "dice_pref", "pref": "ask"})
        with pytest.raises(SessionError) as again:  # the same again is not offered
            await sessions.act(session.id, user, idle, {"type": "dice_pref", "pref": "ask"})
        assert again.value.key == "err.not_your_turn"
        # the seat to act sets one too: its own clock is not restarted either
        mine = users[actor][0]
        await sessions.act(session.id, mine, actor, {"type": "answer_pref", "never": True})
        assert session.deadlines == clocks
        assert await verify(store, session.id)
    finally:
        await store.close()


# ---- the private panel: its own section, also when it is not the seat's turn --------------------
def _settings_buttons(view: Any) -> list[Any]:
    import discord  # noqa: PLC0415

    from bot.discord_app.custom_ids import BackId, parse  # noqa: PLC0415

    return [b for b in view.children if isinstance(b, discord.ui.Button)
            and isinstance(parse(str(b.custom_id or "")), BackId)]


async def test_the_panel_offers_the_preferences_behind_one_settings_button_off_turn_and_at_the_root(
        tmp_path: Path) -> None:
    """Issue 25: the preferences no longer take a button each on every panel (three on a phone); one ⚙️
    button opens them in place, each is a button there (found at click time like any choice), with a
    way back; applying one answers with the panel's first level showing the new setting in words."""
    import discord  # noqa: PLC0415

    from bot.discord_app.custom_ids import ActionId, BackId, parse  # noqa: PLC0415
    from bot.discord_app.panels import SETTINGS, build_panel, decode_prefix, find_action  # noqa: PLC0415

    store = await Store.open(tmp_path / "panel.sqlite3")
    try:
        sessions = SessionManager(store)
        session = await sessions.create(guild_id=1, channel_id=79, host=USERS[0], game_key="godstorm", options={})
        for joining in USERS[1:]:
            await sessions.join(session.id, joining)
        session = await sessions.start(session.id, USERS[0].id, seed=11)
        game = session.game
        assert game is not None
        actor = game.actors()[0]
        idle = next(s for s in range(3) if s not in game.actors())
        assert len(game.standing_actions(idle)) == 3
        for lang in ("en", "ru"):
            content, view = build_panel(session, idle, lang)
            assert t("panel.waiting", lang) in content and game.standing_text(idle, lang) in content
            buttons = [b for b in view.children if isinstance(b, discord.ui.Button)]
            assert len(buttons) == 1 and buttons[0].label == t("prefs.button", lang)  # one ⚙️, nothing else
            assert buttons[0].style == discord.ButtonStyle.secondary and buttons[0].row == 4
            control = parse(str(buttons[0].custom_id))
            assert isinstance(control, BackId) and control.seat == idle
            stamp = control.stamp
            assert decode_prefix(game, session.id, idle, stamp, lang, control.prefix_tag) == SETTINGS
            # the ⚙️ level: the settings in words, a button per preference and one back to the first level
            content, view = build_panel(session, idle, lang, SETTINGS)
            assert game.standing_text(idle, lang) in content and t("prefs.menu", lang) in content
            buttons = [b for b in view.children if isinstance(b, discord.ui.Button)]
            found = []
            for b in buttons[:-1]:
                action_id = parse(str(b.custom_id))
                assert isinstance(action_id, ActionId) and action_id.seat == idle and action_id.stamp == stamp
                found.append(find_action(game, session.id, idle, action_id.stamp, action_id.tag))
            assert found == game.standing_actions(idle)  # each button is one preference, found at click time
            assert buttons[0].label == " · ".join([t("godstorm.ui.act.dice_pref", lang), t("godstorm.ui.pref_one", lang)])
            back = parse(str(buttons[-1].custom_id))
            assert buttons[-1].label == t("panel.back", lang) and isinstance(back, BackId)
            assert decode_prefix(game, session.id, idle, stamp, lang, back.prefix_tag) == []
        # the seat to act: its choices (primary) and, at the panel's first level, the same one ⚙️ button
        content, view = build_panel(session, actor, "en")
        secondary = [b for b in view.children if isinstance(b, discord.ui.Button)
                     and b.style == discord.ButtonStyle.secondary]
        assert [b.label for b in secondary] == [t("prefs.button", "en")] and len(_settings_buttons(view)) == 1
        assert game.standing_text(actor, "en") in content and t("panel.waiting", "en") not in content
        # pressing a preference on the ⚙️ level: applied, the stamp moves on (the old ⚙️ is stale)
        _, view = build_panel(session, idle, "en", SETTINGS)
        first = parse(str(view.children[0].custom_id))
        assert isinstance(first, ActionId)
        action = find_action(game, session.id, idle, first.stamp, first.tag)
        assert action == {"type": "dice_pref", "pref": "one"}
        await sessions.act(session.id, session.row.seat_users[idle][0], idle, action, first.stamp)
        assert game.s.dice_pref == {str(idle): "one"}
        content, view = build_panel(session, idle, "en")
        assert t("godstorm.ui.pref_one", "en") in game.standing_text(idle, "en") in content
        again = parse(str(_settings_buttons(view)[0].custom_id))
        assert isinstance(again, BackId) and again.stamp == first.stamp + 1
        with pytest.raises(SessionError) as stale:  # the old ⚙️ level's buttons: refused like any old control
            session.check_seat(session.row.seat_users[idle][0], idle, first.stamp)
        assert stale.value.key == "err.stale"
        assert find_action(game, session.id, idle, first.stamp, first.tag) is None  # and no longer offered
    finally:
        await store.close()
