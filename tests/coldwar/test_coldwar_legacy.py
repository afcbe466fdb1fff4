"""Games stored before the printed cards were adopted keep the card set they started with (set 1).

Their states either say ``"cards": 1`` or (stored before card sets existed) have no ``"cards"`` key at
all; both must finish with the old values and the old event powers, while new games use set 2.
"""

import json

from bot.games.coldwar import ColdWar
from bot.games.coldwar.cards import ANALYST, CARD_SETS, DEPUTY
from tests.coldwar.cw_helpers import both_wait, fresh, give, rig_briefing, tables, to_struggle, types

CIA, KGB = 0, 1
OLD = CARD_SETS[1]


def _stored_before_card_sets(seed: int) -> ColdWar:
    """A set-1 game as an earlier release stored it (state version 1: no ``cards`` key), loaded as
    the platform loads it (through ``migrate_state``)."""
    data = fresh(seed, cards=1).to_json()
    del data["state"]["cards"]
    return ColdWar.from_json(ColdWar.migrate_state(json.loads(json.dumps(data)), 1))


def test_version_1_states_and_options_are_card_set_1() -> None:
    data = fresh(3, cards=1).to_json()
    del data["state"]["cards"]
    assert ColdWar.STATE_VERSION == 2
    assert ColdWar.migrate_state(data, 1)["state"]["cards"] == 1 and "cards" not in data["state"]
    assert ColdWar.migrate_options({"goal": 75}, 1) == {"goal": 75, "cards": 1}
    assert ColdWar.from_json(data).engine.c is OLD          # even unmigrated, no "cards" means set 1
    # a replay of an old game: new() with the migrated options rebuilds the old deck
    replayed = ColdWar.new([{"side": 0}, {"side": 1}], ColdWar.migrate_options({"goal": 100}, 1), 3)
    assert replayed.s.tdeck == fresh(3, cards=1).s.tdeck and replayed.engine.c is OLD


def test_new_games_use_the_printed_set_and_old_states_keep_theirs() -> None:
    assert fresh(1).s.cards == 2
    old = _stored_before_card_sets(1)
    assert old.engine.c is OLD
    deck = old.s.tdeck + [old.s.target]
    assert "hungary" in deck and "panama" not in deck
    assert sorted(old.s.gdeck) == sorted(OLD.group_ids)


def test_old_game_plays_a_round_with_the_old_values() -> None:
    """Set 1's Cuba had stability 11: 6 + 6 = 12 is civil unrest there, as it is on the printed card."""
    g = _stored_before_card_sets(2)
    rig_briefing(g, "cuba", 0, tables=([("army", True), ("navy", True)], [("church", True)]))
    assert g.view(None)["target"]["stability"] == 11
    assert "Army (Military, 6)" in g.action_path(CIA, {"type": "use", "group": "army", "target": "church"}, "en")[1]
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    ev = both_wait(g)
    assert {"type": "token", "seat": CIA, "why": "influence"} in ev     # 10 <= 11
    assert g.s.trophies[CIA] == ["cuba"] and g.engine.score(CIA) == OLD.vp("cuba")
    assert all(g.event_text(e, "en") is not None for e in ev if e["type"] != "platform.prompt")
    assert g.s.round == 2 and g.s.cards == 1


def test_old_game_two_analysts_rule_applies_too() -> None:
    """The two-Analysts correction is a rule, not a card: an old game follows it as well."""
    g = _stored_before_card_sets(4)
    rig_briefing(g, "cuba", 0, tables=([("army", True)], [("oil", True), ("television", True)]))
    to_struggle(g, 0, (ANALYST, ANALYST))
    ev = both_wait(g)
    assert [e["seat"] for e in ev if e["type"] == "unrest"] == [KGB]
    assert not [e for e in ev if e["type"] == "ability"] and g.s.analyst is None


def _round_two_with(seat: int, card: str, seed: int = 5) -> ColdWar:
    """Set 1: round 1 ends quietly with ``card`` already in ``seat``'s trophies; the game in round 2."""
    g = fresh(seed, cards=1)
    give(g, seat, [card])
    rig_briefing(g, "cuba", 0, tables=([("army", True)], [("church", True)]))
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    both_wait(g)
    while g.s.dec.kind == "event" and g.s.dec.card != card:
        g.apply(g.actors()[0], {"type": "skip"})
    return g


def test_old_summit_meeting_replaces_the_target_at_briefing() -> None:
    g = _round_two_with(KGB, "summit")
    assert g.s.round == 2 and g.s.dec.to_json() == {"kind": "event", "seat": KGB, "card": "summit"}
    assert "reveal the next one" in g.prompt_text(KGB, "en")
    old, nxt = g.s.target, g.s.tdeck[0]
    before = g.engine.score(KGB)
    ev = g.apply(KGB, {"type": "event", "card": "summit"})
    assert g.s.target == nxt and g.s.tdeck[-1] == old
    assert g.engine.score(KGB) == before - OLD.vp("summit") and "summit" in g.s.tdiscard
    assert {"type": "reveal", "target": nxt} in ev


def test_old_olympic_games_take_the_balance_token() -> None:
    g = _round_two_with(CIA, "olympics")   # CIA captured Cuba, so KGB is behind and holds the token
    assert g.s.balance == KGB
    g.apply(CIA, {"type": "event", "card": "olympics"})
    assert g.s.balance == CIA and g.s.dec.to_json() == {"kind": "first", "seat": CIA}


def test_old_nuclear_escalation_destroys_every_group() -> None:
    g = fresh(8, cards=1)
    give(g, CIA, ["nuclear"])
    g.s.round = 2
    rig_briefing(g, "cuba", 0, tables=([("army", True), ("radio", False)], [("church", True)]))
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    g.apply(CIA, {"type": "event", "card": "nuclear"})
    assert g.s.dec.kind == "discard" and len(g.legal_actions(CIA)) == 3
    g.apply(CIA, {"type": "discard", "group": "church"})
    g.apply(CIA, {"type": "discard", "group": "radio"})
    assert g.s.gdiscard[-3:] == ["church", "radio", "army"] and tables(g) == [[], []]


def test_old_live_benefit_recruits_from_the_deck_in_addition() -> None:
    g = fresh(9, cards=1)
    give(g, CIA, ["protest"])
    g.s.round = 2
    rig_briefing(g, "cuba", 0, tables=([("army", True)], [("church", True)]))
    to_struggle(g, 0, (DEPUTY, DEPUTY))
    top = g.s.gdeck[0]
    ev = g.apply(CIA, {"type": "event", "card": "protest"})
    assert [top, True] in tables(g)[CIA] and g.actors() == [CIA]
    assert "recruit" in types(ev)

