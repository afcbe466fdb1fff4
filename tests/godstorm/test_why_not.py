"""Refusals that say why (issue 25, item 7): ``/risk attack from:Atlantis to:Moscow``, an attack from someone
else's territory and a placement out of step answered "That move is not possible now". ``Godstorm.why_not``
names the reason; the session layer and ``/risk`` use it. Rules quoted from
``shared/rules/risk-godstorm.ru.txt``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.games.godstorm import Godstorm
from bot.games.godstorm.playout import choose
from bot.games.godstorm.scenario import put, scenario
from bot.games.godstorm.state import Move
from cogs.common import refusal_text

WHY = "godstorm.why."


def why(g: Godstorm, action: dict[str, Any], seat: int = 0) -> tuple[str, dict[str, Any]] | None:
    return g.why_not(seat, action)


def attack(src: str, dst: str, dice: int = 1) -> dict[str, Any]:
    return {"type": "attack", "from": src, "to": dst, "dice": dice}


def test_unknown_places_are_named_as_typed() -> None:
    g = scenario()
    put(g, "Gaul", 0, 3)
    assert why(g, attack("Atlantis", "Moscow")) == (WHY + "no_such_place", {"where": "Atlantis"})
    assert why(g, attack("Gaul", "Moscow")) == (WHY + "no_such_place", {"where": "Moscow"})


def test_attack_from_another_players_territory() -> None:
    # «Вы можете атаковать территорию, только соседствующую с вашей.» (rulebook, l. 359)
    g = scenario()
    put(g, "Gaul", 0, 3)
    put(g, "Iberia", 2, 5)
    assert why(g, attack("Iberia", "Gaul")) == (WHY + "not_yours", {"where": "Iberia"})


def test_attack_on_a_territory_that_does_not_border() -> None:
    # «Территории считаются соседними если они имеют общую границу.» (rulebook, l. 361)
    g = scenario()
    put(g, "Gaul", 0, 3)
    assert why(g, attack("Gaul", "Corsica")) == (WHY + "not_adjacent", {"frm": "Gaul", "to": "Corsica"})
    put(g, "Iberia", 0, 2)
    assert why(g, attack("Gaul", "Iberia")) == (WHY + "own_target", {"where": "Iberia"})


def test_attack_needs_two_armies_and_one_more_than_the_dice() -> None:
    # «Вы должны иметь хотя бы 2 армии в той территории из которой производится атака» (l. 359);
    # «вы обязаны иметь хотя бы на 1 армию больше в захватываемой территории чем количество объявленных
    # кубов» (l. 389)
    g = scenario()
    put(g, "Gaul", 0, 1)
    put(g, "Iberia", 2, 2)
    assert why(g, attack("Gaul", "Iberia")) == (WHY + "too_few", {"where": "Gaul", "n": 1})
    put(g, "Gaul", 0, 3)
    assert why(g, attack("Gaul", "Iberia", 3)) == (WHY + "too_many_dice", {"where": "Gaul", "n": 2})
    assert why(g, attack("Gaul", "Iberia", 2)) is None  # legal: no reason


def test_attack_out_of_step_and_placement_out_of_step() -> None:
    g = scenario(step="fortify")
    put(g, "Gaul", 0, 3)
    assert why(g, attack("Gaul", "Iberia")) == (WHY + "attack_step", {"step": "fortify"})
    assert why(g, {"type": "place", "territory": "Gaul", "count": 1}) == (WHY + "place_step", {"step": "fortify"})
    g = scenario(step="invade")
    put(g, "Gaul", 0, 3)
    assert why(g, {"type": "place", "territory": "Gaul", "count": 1}) == (WHY + "place_step", {"step": "invade"})


def test_placement_on_someone_elses_territory_and_too_many_armies() -> None:
    g = scenario(step="raise")
    put(g, "Gaul", 0, 3)
    g.s.pending = 4
    assert why(g, {"type": "place", "territory": "Iberia", "count": 1}) == (WHY + "not_yours", {"where": "Iberia"})
    assert why(g, {"type": "place", "territory": "Gaul", "count": 9}) == (WHY + "too_many_armies", {"n": 4})
    assert why(g, {"type": "place", "territory": "Gaul", "count": 4}) is None


def test_move_in_and_fortify() -> None:
    # «введите в неё хотя бы столько армий сколько вы бросали кубиков при последней атаке» (l. 436)
    g = scenario()
    put(g, "Gaul", 0, 6)
    assert why(g, {"type": "move_in", "count": 2}) == (WHY + "no_move_in", {})
    put(g, "Iberia", 0, 0)
    g.s.move = Move("Gaul", "Iberia", 2, 5)
    assert why(g, {"type": "move_in", "count": 9}) == (WHY + "move_range", {"min": 2, "max": 5})
    assert why(g, attack("Gaul", "Alemannia")) == (WHY + "move_in_first", {})
    # «вы обязаны иметь непрерывный путь от начальной территории до конечной через принадлежащие вам
    # земли» (l. 452)
    g = scenario(step="fortify")
    put(g, "Gaul", 0, 4)
    put(g, "Sumer", 0, 1)
    assert why(g, {"type": "fortify", "from": "Gaul", "to": "Sumer", "count": 1, "gods": []}) == (
        WHY + "no_path", {"frm": "Gaul", "to": "Sumer"})
    put(g, "Iberia", 0, 1)
    # «Вы обязаны оставить хотя бы 1 армию в территории из которой производится переброска.» (l. 452)
    assert why(g, {"type": "fortify", "from": "Gaul", "to": "Iberia", "count": 4, "gods": []}) == (
        WHY + "leave_one", {"where": "Gaul", "n": 3})


def test_reasons_in_the_readers_language() -> None:
    g = scenario(step="fortify")
    put(g, "Gaul", 0, 3)
    key, params = why(g, attack("Gaul", "Iberia")) or ("", {})
    assert refusal_text(SessionError(key, **g.reason_params(params, "ru")), "ru") == (
        "⛔ Атаковать можно на шаге вторжения, а сейчас шаг «укрепление».")
    assert refusal_text(SessionError(key, **g.reason_params(params, "en")), "en") == (
        "⛔ Attacks are made at the invasion step; now it is the step “fortify”.")
    g = scenario()
    key, params = why(g, attack("Iberia", "Gaul")) or ("", {})
    assert refusal_text(SessionError(key, **g.reason_params(params, "ru")), "ru") == "⛔ «Иберия» — не ваша территория."


@pytest.mark.parametrize("seed", [3, 8])
def test_no_legal_action_is_ever_given_a_reason(seed: int) -> None:
    g = Godstorm.new([{}, {}, {}], {}, seed)
    rnd = random.Random(seed)
    for _ in range(600):
        if g.outcome() is not None:
            break
        seat = g.actors()[-1]
        legal = g.legal_actions(seat)
        for action in legal:
            assert g.why_not(seat, action) is None, action
        g.apply(seat, choose(g, seat, legal, rnd))


USERS = [UserInfo(11, "ann"), UserInfo(12, "bor", "ru")]


async def _invading(tmp_path: Path) -> tuple[Store, SessionManager, int]:
    store = await Store.open(tmp_path / "w.sqlite3")
    sessions = SessionManager(store)
    session = await sessions.create(guild_id=1, channel_id=77, host=USERS[0], game_key="godstorm", options={})
    await sessions.join(session.id, USERS[1])
    session = await sessions.start(session.id, USERS[0].id, seed=4)
    rnd = random.Random(1)
    for _ in range(3000):
        game = session.game
        assert game is not None and game.outcome() is None
        if isinstance(game, Godstorm) and game.decision() == "turn" and game.s.step == "invade" and not game.s.pending:
            return store, sessions, session.id
        seat = game.actors()[-1]
        action = choose(game, seat, game.legal_actions(seat), rnd)
        session = (await sessions.act(session.id, (session.row.seat_users or [])[seat][0], seat, action)).session
    raise AssertionError("no invasion step reached")


async def test_session_refusal_names_the_reason(tmp_path: Path) -> None:
    store, sessions, gid = await _invading(tmp_path)
    try:
        session = sessions.sessions[gid]
        game = session.game
        assert isinstance(game, Godstorm)
        seat = game.actors()[0]
        user = (session.row.seat_users or [])[seat][0]
        theirs = next(t for t, v in sorted(game.s.terr.items()) if v.owner not in (seat, None) and v.armies > 1)
        target = next(iter(game.s.terr))
        seq = session.row.seq
        with pytest.raises(SessionError) as caught:
            await sessions.act(gid, user, seat, attack(theirs, target))
        assert caught.value.key == WHY + "not_yours" and caught.value.params == {"where": theirs}
        assert session.row.seq == seq  # refused: nothing changed
        text = refusal_text(SessionError(caught.value.key, **game.reason_params(caught.value.params, "ru")), "ru")
        assert "не ваша территория" in text and game.place(theirs) is not None
        with pytest.raises(SessionError) as caught:
            await sessions.act(gid, user, seat, attack("Atlantis", "Moscow"))
        assert refusal_text(caught.value, "en") == "⛔ There is no territory called “Atlantis” on the map."
        with pytest.raises(SessionError) as caught:  # a game without a reason keeps the generic refusal
            await sessions.act(gid, user, seat, {"type": "no_such_move"})
        assert caught.value.key == "err.not_legal"
    finally:
        await store.close()


async def test_risk_commands_answer_why_in_the_readers_language(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import cogs.common
    from bot.games.godstorm.cog import RiskCog
    from tests.slash import StandInInteraction, invoke

    answers: list[str] = []

    async def reply(interaction: Any, content: str, **kwargs: Any) -> None:
        answers.append(content)

    monkeypatch.setattr(cogs.common, "reply", reply)
    store, sessions, gid = await _invading(tmp_path)
    try:
        session = sessions.sessions[gid]
        game = session.game
        assert isinstance(game, Godstorm)
        seat = game.actors()[0]
        user = (session.row.seat_users or [])[seat][0]
        theirs = next(t for t, v in sorted(game.s.terr.items()) if v.owner not in (seat, None) and v.armies > 1)
        seq = session.row.seq

        class Bot:
            pass

        bot: Any = Bot()
        bot.sessions = sessions
        cog = RiskCog(bot)
        from bot.games.godstorm.text import tname

        # the name typed in Russian is read as the territory it names, though it is no choice of the caller
        await invoke(RiskCog.attack, cog, StandInInteraction(77, user, "ru"), tname(theirs, "ru"), "Moscow", 1)
        assert answers[-1] == f"⛔ «{tname(theirs, 'ru')}» — не ваша территория."
        await invoke(RiskCog.attack, cog, StandInInteraction(77, user, "en-US"), "Atlantis", "Moscow", 1)
        assert answers[-1] == "⛔ There is no territory called “Atlantis” on the map."
        mine = next(t for t, v in sorted(game.s.terr.items()) if v.owner == seat)
        await invoke(RiskCog.place, cog, StandInInteraction(77, user, "en-US"), mine, 3)
        assert answers[-1] == "⛔ You have no armies to place now (step “invasion”): armies are placed when you " \
                              "raise them, at the start of your turn."
        assert session.row.seq == seq  # nothing was applied
    finally:
        await store.close()
