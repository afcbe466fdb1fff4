"""A card that cannot be played says why (issue 25, item 7): ``/bam play`` answered every such card "You
cannot play that card now". ``ByAllMeans.why_not`` names the rule in the way; the reasons quote the rulebook
(«Первая территория выставляется на одну из двух центральных клеток поля», «Агенты могут быть размещены как на
Вашей территории, так и на любой пустой клетке поля», «Размещается только на территории … На одной территории
может быть только одна граффити», the plot that «не может в полной мере выполнить условие»)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.core.i18n import t
from bot.games.byallmeans import ByAllMeans
from bot.games.byallmeans.state import BufferSlot, Frame
from bot.games.byallmeans.why import card_reason
from tests.byallmeans.bam_helpers import fresh, give, put, uid_of


def why(g: ByAllMeans, action: dict[str, Any], seat: int = 0) -> tuple[str, dict[str, Any]] | None:
    return g.why_not(seat, action)


def test_not_during_the_opening_nor_before_the_open_choice() -> None:
    g = ByAllMeans.new([{}, {}], {}, 1)  # the opening: both seats decide on the shuffles
    hand = g.s.players[0].hand or g.s.players[0].main
    assert g.s.phase == "shuffle" and 0 in g.actors()
    assert why(g, {"type": "play", "uid": hand[0]}) == ("bam.why.not_this_step", {})
    g = fresh()
    card = give(g, 0, "T01")
    give(g, 0, "T02")
    g.s.stack.append(Frame(0, None, [{"op": "discard_one", "who": "self", "chooser": "self"}]))  # which card to discard
    assert g.actors() == [0]
    assert why(g, {"type": "play", "uid": card, "cell": 4}) == ("bam.why.choose_first", {})


def test_a_card_not_in_your_hand_or_buffer() -> None:
    g = fresh()
    rival = give(g, 1, "T01")
    assert why(g, {"type": "play", "uid": rival, "cell": 4}) == ("bam.why.not_in_hand", {})
    assert why(g, {"type": "play", "uid": "no such uid"}) == ("bam.why.not_in_hand", {})
    # by name: the player's own words come back, a card id does not (it may be a card they cannot see)
    assert card_reason(g, 0, "Hacker", "en") == ("bam.why.no_such_card", {"card": "Hacker"})
    assert card_reason(g, 0, rival, "en") == ("bam.why.not_in_hand", {})


def test_no_main_action_left_and_the_first_turns_draw() -> None:
    """«обязан потратить одно из своих основных действий на взятие карты из основного архива или пропустить
    это действие»: on the first turn the last main action is kept for it."""
    g = fresh()
    card = give(g, 0, "T01")
    g.s.turn.main_left = 0
    assert why(g, {"type": "play", "uid": card, "cell": 4}) == ("bam.why.no_main_action", {})
    g.s.turn.main_left, g.s.turn.restricted = 1, True
    assert why(g, {"type": "play", "uid": card, "cell": 4}) == ("bam.why.first_turn_draw", {})


def test_the_price_a_dash_or_more_reputation_than_you_have() -> None:
    """The price is (from the hand, from the buffer); a dash means it cannot be played from there."""
    g = fresh()
    hacker = give(g, 0, "A12")  # price 3 / 1
    g.s.players[0].rep = 2
    assert why(g, {"type": "play", "uid": hacker, "cell": 0}) == ("bam.why.cannot_afford", {"cost": 3, "rep": 2})
    g = fresh()
    planned = uid_of(g.s, 0, "T03")  # price 3 / —
    g.s.players[0].buffer.append(BufferSlot(planned, []))
    assert why(g, {"type": "play", "uid": planned, "cell": 4}) == ("bam.why.no_price_buffer", {})
    g = fresh()
    informer = give(g, 0, "A04")  # price — / 0
    assert why(g, {"type": "play", "uid": informer, "cell": 0}) == ("bam.why.no_price_hand", {})


def test_where_a_territory_may_not_go() -> None:
    """The first territory on one of the two central cells (4 and 7 of the 3×4 field, numbered 5 and 8 on
    the board); later ones next to a territory, never onto one."""
    g = fresh()
    land = give(g, 0, "T01")
    assert why(g, {"type": "play", "uid": land, "cell": 0}) == ("bam.why.first_central", {})
    put(g, 1, "T02", 4)
    assert why(g, {"type": "play", "uid": land, "cell": 4}) == ("bam.why.cell_has_territory", {"cell": 4})
    assert why(g, {"type": "play", "uid": land, "cell": 10}) == ("bam.why.not_adjacent", {"cell": 10})
    assert g.reason_params({"cell": 10}, "en") == {"cell": 11}
    assert t("bam.why.not_adjacent", "ru", **g.reason_params({"cell": 10}, "ru")) == \
        "Новая территория выходит рядом с территорией, а клетка 11 ни с одной не граничит."


def test_where_an_agent_or_a_graffiti_may_not_go() -> None:
    g = fresh()
    put(g, 1, "T02", 4)  # the rival's territory
    put(g, 0, "A03", 0)
    agent = give(g, 0, "A12")
    assert why(g, {"type": "play", "uid": agent, "cell": 4}) == ("bam.why.rival_territory", {"cell": 4})
    assert why(g, {"type": "play", "uid": agent, "cell": 0}) == ("bam.why.cell_has_agent", {"cell": 0})
    paint = give(g, 0, "G01")
    assert why(g, {"type": "play", "uid": paint, "cell": 1}) == ("bam.why.graffiti_needs_territory", {"cell": 1})
    put(g, 0, "G02", 4)
    assert why(g, {"type": "play", "uid": paint, "cell": 4}) == ("bam.why.cell_has_graffiti", {"cell": 4})
    g = fresh()  # no territory on the field: a graffiti has nowhere to go
    paint = give(g, 0, "G01")
    assert why(g, {"type": "play", "uid": paint}) == ("bam.why.no_place", {})
    assert why(g, {"type": "play", "uid": paint, "cell": 4}) == ("bam.why.graffiti_needs_territory", {"cell": 4})


def test_conditions_on_the_card_and_a_plot_that_cannot_do_all_it_says() -> None:
    g = fresh()
    put(g, 0, "T01", 4)
    castle = give(g, 0, "T17")  # needs two territories of your own
    assert why(g, {"type": "play", "uid": castle, "cell": 7}) == ("bam.why.conditions", {})
    g = fresh()
    fire = give(g, 0, "P01")  # the rival's top 3 main-archive cards to the utility
    rival = g.s.players[1]
    rival.extra[:0] = rival.main[2:]
    del rival.main[2:]
    assert why(g, {"type": "play", "uid": fire}) == ("bam.why.plot_cannot_resolve", {})


def test_a_legal_play_is_never_given_a_reason() -> None:
    for seed in range(1, 6):
        g = fresh(seed, empty_hands=False)
        put(g, 0, "T01", 4)
        for code in ("T02", "A12", "G01", "P01", "A05"):
            give(g, 0, code)
        plays = [a for a in g.legal_actions(0) if a["type"] == "play"]
        assert plays
        for action in plays:
            assert why(g, action) is None, action


def test_card_reason_reads_the_players_words() -> None:
    g = fresh()
    hacker = give(g, 0, "A12")
    g.s.players[0].rep = 1
    name = t("bam.card.A12", "ru")
    assert card_reason(g, 0, f"  {name.upper()} ", "ru") == ("bam.why.cannot_afford", {"cost": 3, "rep": 1})
    assert card_reason(g, 0, hacker, "en") == ("bam.why.cannot_afford", {"cost": 3, "rep": 1})


# ---- /bam play ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", ["⛔ It costs 3 reputation, and you have 1.",
               "⛔ You have no card “Lighthouse” in your hand or your buffer."]),
    ("ru", ["⛔ Её цена — 3 единицы репутации, а у вас 1.",
            "⛔ У вас нет карты «Lighthouse» ни в руке, ни в буфере."]),
])
async def test_bam_play_says_why_a_card_cannot_be_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         locale: str, expected: list[str]) -> None:
    """``/bam play card:`` with a card the player holds but cannot afford, and with a card they do not hold:
    the reason in the caller's language, not "You cannot play that card now"."""
    import bot.games.byallmeans.cog
    import cogs.common
    from bot.core.sessions import SessionManager, UserInfo
    from bot.core.store import Store
    from bot.games.byallmeans.cog import ByAllMeansCog
    from tests.slash import StandInInteraction, invoke

    answers: list[str] = []

    async def reply(interaction: Any, content: str, **kwargs: Any) -> None:
        answers.append(content)

    async def defer(interaction: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(cogs.common, "reply", reply)  # the refusal, as the bot's command tree answers it
    monkeypatch.setattr(bot.games.byallmeans.cog, "defer", defer)
    store = await Store.open(tmp_path / "b.sqlite3")
    try:
        class Bot:
            sessions = SessionManager(store)

        session = await Bot.sessions.create(guild_id=1, channel_id=6, host=UserInfo(1, "a"), game_key="byallmeans",
                                            options={})
        await Bot.sessions.join(session.id, UserInfo(2, "b"))
        await Bot.sessions.start(session.id, 1, seed=3)
        game = session.game
        assert isinstance(game, ByAllMeans)
        game.s = fresh().s  # seat 0's turn, two main actions
        give(game, 0, "A12")  # price 3
        game.s.players[0].rep = 1
        user = session.row.seat_users[0][0]
        lang = "ru" if locale == "ru" else "en"
        await invoke(ByAllMeansCog.play, ByAllMeansCog(Bot()), StandInInteraction(6, user, locale), t("bam.card.A12", lang))
        await invoke(ByAllMeansCog.play, ByAllMeansCog(Bot()), StandInInteraction(6, user, locale), "Lighthouse")
        assert answers == expected
    finally:
        await store.close()
