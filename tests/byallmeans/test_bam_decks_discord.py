"""A player's own deck list brought to the lobby (``/bam deck import``): stored per user, played by that
user's seat, refused before anything is stored when it is not a legal deck. «Колода составляется из 40
карт. В колоде допускается не более двух повторений одной карты.» (rulebook, § Подготовка к игре)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.sessions import SessionError, SessionManager, UserInfo
from bot.core.store import Store
from bot.games.byallmeans import decks
from bot.games.byallmeans.cog import USER_DECKS, checked, deck_text, seat_deck

ALICE, BOB, EVE = UserInfo(1, "alice"), UserInfo(2, "bob"), UserInfo(9, "eve")


def own_deck() -> list[str]:
    """A legal 40-card list that is no preset: half of two presets."""
    press, syndicate = decks.preset("press"), decks.preset("syndicate")
    deck = press[:20] + syndicate[:20]
    while decks.validate(deck):  # too many copies of a card: swap in cards of a third preset
        for code in decks.preset("cityhall"):
            if deck.count(code) < 2:
                for i, c in enumerate(deck):
                    if deck.count(c) > 2:
                        deck[i] = code
                        break
    return deck


async def test_own_deck_is_played_by_its_owner(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "t.sqlite3")
    try:
        sessions = SessionManager(store, clock=lambda: 1000.0)
        lobby = await sessions.create(guild_id=5, channel_id=100, host=ALICE, game_key="byallmeans",
                                      options={"deck": "press"})
        await sessions.join(lobby.id, BOB)
        mine = own_deck()
        assert not decks.validate(mine) and sorted(mine) != sorted(decks.preset("press"))
        with pytest.raises(SessionError):  # only a lobby member brings a deck
            await sessions.set_player_option(lobby.id, EVE.id, USER_DECKS, mine)
        await sessions.set_player_option(lobby.id, BOB.id, USER_DECKS, mine)
        session = await sessions.start(lobby.id, ALICE.id, seed=77)
        assert seat_deck(session, BOB.id) == mine
        assert seat_deck(session, ALICE.id) == decks.preset("press")  # the lobby's option for the other
        bob_seat = session.seats_of(BOB.id)[0]
        game = session.game
        assert game is not None
        dealt = sorted(c for u, c in game.s.cards.items() if u.startswith(f"{bob_seat}."))  # type: ignore[attr-defined]
        assert dealt == sorted(mine)
    finally:
        await store.close()


def test_bad_lists_are_refused_with_the_localised_problems() -> None:
    deck = own_deck()
    _codes, problems = checked(" ".join(deck[:39]), "ru")
    assert problems is not None and "39" in problems and "40" in problems  # «нужно ровно 40»
    _codes, problems = checked(" ".join(deck[:37] + ["T01"] * 3), "en")
    assert problems is not None and "T01" in problems  # three copies, at most two
    codes, problems = checked(decks.export(deck), "en")
    assert problems is None and sorted(codes) == sorted(deck)
    assert decks.export(deck) in deck_text(deck, "en")
