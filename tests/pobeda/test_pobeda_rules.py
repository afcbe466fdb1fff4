"""Turns, dead cards, specials, supply, pass, penalty, seating and end conditions."""

from __future__ import annotations

import json

import pytest

from bot.core.i18n import has, t
from bot.games.base import ADMIN, IllegalAction, Player, Rng
from bot.games.pobeda import Pobeda, texts
from bot.games.pobeda.data import CHIPS_PER_SIDE, cell_index, full_deck
from tests.pobeda.pobeda_helpers import ALL_CARDS, card_total, event_at, give, make, play_event, put, row


def test_new_game_deals_six_cards_and_keeps_151() -> None:
    game = Pobeda.new([{"side": 0}, {"side": 1}, {"side": 2}], {}, 11)
    assert [len(h) for h in game.s.hands] == [6, 6, 6]
    assert len(game.s.deck) == 151 - 18
    assert sorted(game.s.deck + sum(game.s.hands, [])) == sorted(full_deck())
    assert game.actors() == [game.s.dealer] == [game.s.current]
    firsts = {Pobeda.new([{"side": 0}, {"side": 1}, {"side": 2}], {}, seed).s.current for seed in range(30)}
    assert firsts == {0, 1, 2}  # the dealer is random


def test_deck_has_eleven_specials_in_the_documented_split() -> None:
    specials = [c for c in full_deck() if not c.startswith("ev")]
    assert len(full_deck()) == ALL_CARDS and len(specials) == 11
    assert sum(c.startswith("plus1") for c in specials) == 5
    assert sum(c.startswith("minus1") for c in specials) == 4
    assert sum(c.startswith("swap") for c in specials) == 2


def test_event_card_turn_places_discards_draws_and_passes_left() -> None:
    game = make(3)
    card = event_at(game, "E5")
    give(game, 0, card)
    deck = len(game.s.deck)
    hand = len(game.s.hands[0])
    events = game.apply(0, {"type": "play", "card": card, "cell": "E5"})
    assert game.s.owner[cell_index("E5")] == 0
    assert game.s.discard == [card]
    assert len(game.s.hands[0]) == hand  # played one, drew one
    assert len(game.s.deck) == deck - 1
    assert game.s.current == 1
    assert game.view(None)["last_move"] == ["E5"]
    public = [e for e in events if "to" not in e]
    assert public[0]["type"] == "played" and public[0]["event"] == card
    text = game.event_text(public[0], "ru")
    assert "E5" in text and game.s.layout[cell_index("E5")]
    private = [e for e in events if "to" in e]
    assert private and private[0]["to"] == [0] and private[0]["type"] == "drew"


def test_event_card_only_goes_on_its_own_cell() -> None:
    game = make(2)
    card = event_at(game, "E5")
    give(game, 0, card)
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "play", "card": card, "cell": "E6"})
    assert err.value.key == "pobeda.err.wrong_cell"


def test_dead_card_may_only_be_discarded_as_the_turn_with_option_turn() -> None:
    """The older reading, kept as the lobby option ``dead=turn`` (docs/games/pobeda.md)."""
    game = make(2, dead="turn")
    put(game, 1, "E5")
    card = event_at(game, "E5")
    live = event_at(game, "F5")
    give(game, 0, card, live)
    assert {"type": "discard_dead", "card": card} in game.legal_actions(0)
    assert not any(a.get("card") == card and a["type"] == "play" for a in game.legal_actions(0))
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "play", "card": card, "cell": "E5"})
    assert err.value.key == "pobeda.err.occupied"
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "discard_dead", "card": live})
    assert err.value.key == "pobeda.err.not_dead"
    before = len(game.s.hands[0])
    events = game.apply(0, {"type": "discard_dead", "card": card})
    assert events[0] == {"type": "discarded", "seat": 0, "card": card}
    assert len(game.s.hands[0]) == before and card in game.s.discard
    assert game.s.owner[cell_index("E5")] == 1 and game.s.current == 1


def test_not_your_turn_and_card_not_in_hand() -> None:
    game = make(2)
    card = event_at(game, "E5")
    give(game, 1, card)
    with pytest.raises(IllegalAction) as err:
        game.apply(1, {"type": "play", "card": card, "cell": "E5"})
    assert err.value.key == "pobeda.err.not_your_turn"
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "play", "card": card, "cell": "E5"})
    assert err.value.key == "pobeda.err.not_in_hand"


def test_plus1_goes_on_any_free_non_corner_cell() -> None:
    game = make(2)
    put(game, 1, "C3")
    give(game, 0, "plus1_1", "plus1_2")
    cells = {a["cell"] for a in game.legal_actions(0) if a["card"].startswith("plus1")}
    assert "C3" not in cells and "A1" not in cells and "L12" not in cells and len(cells) == 139
    assert all(a["card"] == "plus1_1" for a in game.legal_actions(0) if a["card"].startswith("plus1"))
    for cell in ("A1", "C3"):
        with pytest.raises(IllegalAction):
            game.apply(0, {"type": "play", "card": "plus1_2", "cell": cell})
    game.apply(0, {"type": "play", "card": "plus1_2", "cell": "K11"})  # any copy is accepted
    assert game.s.owner[cell_index("K11")] == 0


def test_minus1_returns_the_chip_and_swap_replaces_it() -> None:
    game = make(2)
    put(game, 1, "C3", "D4")
    put(game, 0, "E5")
    give(game, 0, "minus1_1", "swap_1")
    supply = game.supply(1)
    targets = {a["cell"] for a in game.legal_actions(0) if a["card"] == "minus1_1"}
    assert targets == {"C3", "D4"}  # never one's own chip
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "play", "card": "minus1_1", "cell": "E5"})
    events = game.apply(0, {"type": "play", "card": "minus1_1", "cell": "C3"})
    assert game.s.owner[cell_index("C3")] == -1 and game.supply(1) == supply + 1
    assert events[0]["victim"] == 1
    assert "C3" in game.event_text(events[0], "en")
    game.s.current = 0
    game.apply(0, {"type": "play", "card": "swap_1", "cell": "D4"})
    assert game.s.owner[cell_index("D4")] == 0 and game.supply(1) == supply + 2


def test_swap_can_finish_a_line() -> None:
    game = make(2)
    put(game, 0, *row("A", "E", 8))
    put(game, 1, "F8")
    give(game, 0, "swap_1")
    game.apply(0, {"type": "play", "card": "swap_1", "cell": "F8"})
    assert game.outcome()["winners"] == [0]


def test_special_without_target_is_dead() -> None:
    game = make(2, dead="turn")
    give(game, 0, "minus1_1")
    assert {"type": "discard_dead", "card": "minus1_1"} in game.legal_actions(0)
    game.apply(0, {"type": "discard_dead", "card": "minus1_1"})
    assert "minus1_1" in game.s.discard


def test_empty_supply_allows_only_minus1_and_discards() -> None:
    game = make(2, dead="turn")
    free = [i for i in range(144) if game.s.layout[i] is not None][:CHIPS_PER_SIDE]
    for i in free:
        game.s.owner[i] = 0
    assert game.supply(0) == 0
    put(game, 1, "L11")
    game.s.hands[0] = []
    give(game, 0, event_at(game, "K11"), "plus1_1", "swap_1", "minus1_1")
    legal = game.legal_actions(0)
    plays = [a for a in legal if a["type"] == "play"]
    assert plays == [{"type": "play", "card": "minus1_1", "cell": "L11"}]
    assert {a["card"] for a in legal if a["type"] == "discard_dead"} == {
        event_at(game, "K11"), "plus1_1", "swap_1"}
    with pytest.raises(IllegalAction) as err:
        game.apply(0, {"type": "play", "card": event_at(game, "K11"), "cell": "K11"})
    assert err.value.key == "pobeda.err.no_chips"
    assert game.prompt_text(0, "en") == t("pobeda.prompt.no_chips", "en")


def test_pass_is_the_timeout_and_plays_and_draws_nothing() -> None:
    game = make(3)
    assert game.timeout_action(0) == {"type": "pass"}
    assert game.timeout_action(1) is None
    assert {"type": "pass"} not in game.legal_actions(0)
    snapshot = (list(game.s.hands[0]), len(game.s.deck))
    with pytest.raises(IllegalAction):
        game.apply(1, {"type": "pass"})
    events = game.apply(0, {"type": "pass"})
    assert events[0] == {"type": "passed", "seat": 0}
    assert (game.s.hands[0], len(game.s.deck)) == snapshot
    assert game.s.current == 1
    assert game.event_text(events[0], "ru") == t("pobeda.evt.passed", "ru", who=texts.who(game, 0, "ru"))


def test_seat_with_no_cards_draws_and_is_skipped() -> None:
    game = make(3)
    game.s.hands[1] = []
    deck = len(game.s.deck)
    events = game.apply(0, {"type": "pass"})
    assert game.s.current == 2
    assert len(game.s.hands[1]) == 1 and len(game.s.deck) == deck - 1
    assert {"type": "skipped", "seat": 1, "drew": True} in events


def test_cards_run_out_more_lines_wins() -> None:
    game = make(2, lines=3)
    put(game, 0, *row("A", "E", 10))
    game.s.deck = []
    card = event_at(game, "K2")
    game.s.hands = [[], [card]]
    play_event(game, 0, "F10")
    assert game.outcome() is None and game.s.current == 1
    game.apply(1, {"type": "play", "card": card, "cell": "K2"})
    assert game.outcome() == {"winners": [0], "draw": False, "reason": "cards", "lines": [1, 0]}
    assert game.actors() == [] and game.legal_actions(0) == []


def test_cards_run_out_equal_lines_is_a_draw() -> None:
    game = make(2)
    game.s.deck = []
    game.s.hands = [[event_at(game, "C3")], []]
    game.apply(0, {"type": "play", "card": event_at(game, "C3"), "cell": "C3"})
    assert game.outcome() == {"winners": [0, 1], "draw": True, "reason": "cards", "lines": [0, 0]}
    assert game.event_text({"type": "game_over", **game.outcome()}, "en").startswith("Game over: a draw")
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "pass"})


def test_great_victory_needs_the_chosen_number_of_lines() -> None:
    game = make(2, lines=2)
    put(game, 0, *row("A", "E", 10))
    play_event(game, 0, "F10")
    assert game.outcome() is None
    put(game, 0, *row("A", "E", 11))
    play_event(game, 0, "F11")
    assert game.outcome()["winners"] == [0] and game.outcome()["lines"] == [2, 0]


def team_game() -> Pobeda:
    return make(4, teams=2)


def test_penalty_each_member_returns_one_card() -> None:
    game = team_game()
    assert game.admin_actions() == [{"type": "penalty", "side": 0}, {"type": "penalty", "side": 1}]
    before = json.dumps(game.to_json())
    with pytest.raises(IllegalAction):
        game.apply(ADMIN, {"type": "penalty", "side": 5})
    assert json.dumps(game.to_json()) == before
    deck = len(game.s.deck)
    events = game.apply(ADMIN, {"type": "penalty", "side": 1})
    assert events == [{"type": "penalty", "side": 1, "seats": [1, 3]}]
    assert game.actors() == [1, 3] and game.is_simultaneous() and game.forced_timeout() == 3600
    assert game.legal_actions(0) == [] and game.admin_actions() == []
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "pass"})
    card = game.s.hands[1][0]
    events = game.apply(1, {"type": "penalty_card", "card": card})
    public = [e for e in events if "to" not in e]
    assert public == [{"type": "penalty_card", "seat": 1}]
    assert card not in json.dumps(public)
    assert game.view(None)["penalty"] == {"side": 1, "waiting": [1, 3], "chosen": [1]}
    assert card not in game.view(None)["discard"] and card not in game.view(0).get("hand", [])
    assert game.actors() == [3]
    with pytest.raises(IllegalAction):
        game.apply(1, {"type": "penalty_card", "card": game.s.hands[1][0]})
    timeout = game.timeout_action(3)
    assert timeout["type"] == "penalty_card" and timeout["card"] in game.s.hands[3]
    snapshot = json.dumps(game.to_json())
    assert game.timeout_action(3) == timeout and json.dumps(game.to_json()) == snapshot
    events = game.apply(3, timeout)
    assert events[-1] == {"type": "penalty_done", "side": 1, "deck": deck + 2}
    assert game.s.penalty is None and not game.is_simultaneous()
    assert len(game.s.deck) == deck + 2
    assert [len(h) for h in game.s.hands] == [6, 5, 6, 5]
    assert card in game.s.deck and card_total(game) == 151
    assert game.actors() == [0]


def test_penalty_only_in_team_games() -> None:
    game = make(2)
    assert game.admin_actions() == []
    with pytest.raises(IllegalAction) as err:
        game.apply(ADMIN, {"type": "penalty", "side": 0})
    assert err.value.key == "pobeda.err.not_team_game"


def test_team_chips_and_lines_are_shared() -> None:
    game = team_game()
    assert [game.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    put(game, 0, "A6", "B6", "C6")
    game.s.current = 2
    put(game, 0, "D6", "E6")
    play_event(game, 2, "F6")
    assert game.outcome()["winners"] == [0]
    assert game.side_name(0, "en") == "Team Red"


def test_options_and_player_ranges() -> None:
    assert Pobeda.player_range({}) == (2, 3)
    assert Pobeda.player_range({"teams": 2}) == (2, 12)
    assert Pobeda.player_range({"teams": 3}) == (3, 12)
    assert Pobeda.team_count({"teams": 3}, 9) == 3 and Pobeda.team_count({}, 3) == 0
    specs = Pobeda.option_specs()
    assert [s.name for s in specs] == ["lines", "teams", "dead", "layout", "undo_window"]
    assert Pobeda.default_options()["undo_window"] == 30  # issue 27: new games wait 30 s for the ✔
    assert Pobeda.default_options()["dead"] == "replace"  # the house rule's default
    for spec in specs:
        assert has(spec.label_key) and all(has(label) for _, label in spec.choices)
        assert len(spec.choices) <= 25
    with pytest.raises(IllegalAction):
        Pobeda.player_range({"lines": 4})


def test_arrange_seats_solo_and_teams() -> None:
    rng = Rng(3)
    solo = Pobeda.arrange_seats([Player(10), Player(11), Player(12)], {}, rng)
    assert solo.seat_users == [[10], [11], [12]]
    assert solo.seat_info == [{"side": 0}, {"side": 1}, {"side": 2}]
    with pytest.raises(IllegalAction):
        Pobeda.arrange_seats([Player(i) for i in range(4)], {}, rng)
    picks = [Player(1, 0), Player(2, 0), Player(3, 0), Player(4, 1), Player(5, None), Player(6, None)]
    team = Pobeda.arrange_seats(picks, {"teams": 2}, rng)
    sides = [info["side"] for info in team.seat_info]
    assert sides == [0, 1, 0, 1, 0, 1]  # alternating around the table
    assert {u for users in team.seat_users for u in users} == {1, 2, 3, 4, 5, 6}
    assert [team.seat_users[i][0] for i in (0, 2, 4)] == [1, 2, 3]
    twelve = Pobeda.arrange_seats([Player(i) for i in range(12)], {"teams": 2}, rng)
    assert [info["side"] for info in twelve.seat_info] == [0, 1] * 6
    with pytest.raises(IllegalAction) as err:
        Pobeda.arrange_seats([Player(1, 0), Player(2, 0)], {"teams": 2}, rng)
    assert err.value.key == "pobeda.err.empty_team"
    game = Pobeda.new(team.seat_info, {"teams": 2}, 5)
    assert game.view(None)["sides"][0]["seats"] == [0, 2, 4]


def test_shuffled_layout_is_seeded() -> None:
    a = Pobeda.new([{"side": 0}, {"side": 1}], {"layout": "shuffled"}, 42)
    b = Pobeda.new([{"side": 0}, {"side": 1}], {"layout": "shuffled"}, 42)
    c = Pobeda.new([{"side": 0}, {"side": 1}], {"layout": "chrono"}, 42)
    assert a.s.layout == b.s.layout != c.s.layout
    assert sorted(x for x in a.s.layout if x) == sorted(x for x in c.s.layout if x)
    assert [a.s.layout[i] for i in (0, 11, 132, 143)] == [None] * 4


def test_view_hides_hands_and_shows_the_board() -> None:
    game = make(3)
    card = next(c for c in game.s.hands[0] if c.startswith("ev"))
    cell = game.legal_actions(0)[[a.get("card") for a in game.legal_actions(0)].index(card)]["cell"]
    game.apply(0, {"type": "play", "card": card, "cell": cell})
    public = game.view(None)
    assert "hand" not in public
    hidden = set(game.s.deck) | set(sum(game.s.hands, []))
    dumped = json.dumps(public)
    assert not any(f'"{card}"' in dumped for card in hidden - set(game.s.layout))
    assert public["chips"] == [{"cell": cell, "side": 0, "locked": False}]
    assert public["hand_counts"] == [6, 6, 6] and public["deck"] == len(game.s.deck)
    mine = game.view(1)
    assert sorted(mine["hand"]) == sorted(game.s.hands[1])
    for lang in ("ru", "en"):
        status = "\n".join(game.status_lines(lang))
        assert not any(card in status for card in hidden if not card.startswith("ev"))
        assert game.private_text(1, lang).count("\n") == 6


def test_action_paths_group_specials_by_row() -> None:
    game = make(2)
    give(game, 0, "plus1_1")
    paths = [game.action_path(0, a, "en") for a in game.legal_actions(0)]
    special = [p for p in paths if p[0] == "+1"]
    assert len(special) == 140 and {len(p) for p in special} == {3}
    assert ["+1", "Row 5", "E5"] in special
    assert len({p[1] for p in special}) == 12
    assert all(len(label) <= 80 for p in paths for label in p)
    ru = game.action_path(0, {"type": "play", "card": "ev001", "cell": "B1"}, "ru")
    assert ru == ["22.06.1941 Нападение Германии на СССР"]


def test_every_i18n_key_used_exists() -> None:
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    keys = set()
    for path in list((root / "bot/games/pobeda").glob("*.py")) + [root / "bot/games/pobeda/render.py"]:
        keys |= set(re.findall(r'"(pobeda\.[a-z0-9_.]+)"', path.read_text(encoding="utf-8")))
    keys |= {f"pobeda.err.target_{k}" for k in ("plus1", "minus1", "swap")}
    keys |= {f"pobeda.evt.{k}" for k in ("plus1", "minus1", "swap")}
    keys |= {f"pobeda.card.{k}.help" for k in ("plus1", "minus1", "swap")}
    keys |= {f"pobeda.colour.{k}" for k in ("red", "blue", "green")}
    # "pobeda.players" and "pobeda.move_players" are single keys with inline CLDR plural forms
    missing = sorted(k for k in keys if not has(k))
    assert missing == []
