"""A refused Cold War move says why (issue 25, item 7): the rules refuse every unlisted move with one
sentence ("coldwar.err.illegal"); ``ColdWar.why_not`` names the rule in the way, from the rule summary:
"recruit the top group (never past the limit), use an active group … or wait. No groups: you must
recruit", "a captured event's ability may be used in its phase in a later round"."""

from __future__ import annotations

from bot.core.i18n import t
from bot.core.sessions import not_legal
from bot.games.coldwar.cards import DEPUTY
from tests.coldwar.cw_helpers import fresh, setup_round

CIA, KGB = 0, 1
X = (DEPUTY, DEPUTY)


def test_a_move_of_another_step() -> None:
    g = fresh()
    assert g.s.dec.kind == "first"
    holder = g.s.dec.seat
    assert g.why_not(holder, {"type": "recruit"}) == ("coldwar.why.not_this_step", {"step": "first"})
    assert t("coldwar.why.not_this_step", "ru", **g.reason_params({"step": "first"}, "ru")) == \
        "Это ход не для этого шага: сейчас выбор, кто ходит первым."
    assert t("coldwar.why.not_this_step", "en", **g.reason_params({"step": "turn"}, "en")) == \
        "That is not a move of this step: now it is the struggle for influence."


def test_groups_not_in_play_not_yours_or_inactive() -> None:
    g = setup_round("cuba", [("generals", False), ("radio", True)], [("unions", True)], X)
    assert g.actors() == [CIA]
    assert g.why_not(CIA, {"type": "use", "group": "unions", "target": "radio"}) == \
        ("coldwar.why.not_your_group", {"group": "unions"})
    assert g.why_not(CIA, {"type": "use", "group": "generals", "target": "unions"}) == \
        ("coldwar.why.group_inactive", {"group": "generals"})
    assert g.why_not(CIA, {"type": "use", "group": "spies", "target": "unions"}) == ("coldwar.why.no_such_group", {})
    name = t("coldwar.group.generals", "ru")
    assert t("coldwar.why.group_inactive", "ru", **g.reason_params({"group": "generals"}, "ru")) == \
        f"Группа «{name}» неактивна: использовать можно только активную группу."
    refusal = not_legal(g, CIA, {"type": "use", "group": "unions", "target": "radio"})  # what the platform answers
    assert (refusal.key, refusal.params) == ("coldwar.why.not_your_group", {"group": "unions"})


def test_never_past_the_group_limit_and_no_waiting_without_groups() -> None:
    full = setup_round("greece", [("radio", True), ("workers", True), ("artists", True)], [("unions", True)], X)
    assert full.why_not(CIA, {"type": "recruit"}) == ("coldwar.why.group_limit", {"n": 3})  # Greece: limit 3
    assert t("coldwar.why.group_limit", "ru", n=3) == "У вас уже 3 группы — столько, сколько допускает эта цель."
    bare = setup_round("cuba", [], [("unions", True)], X)
    assert bare.why_not(CIA, {"type": "wait"}) == ("coldwar.why.must_recruit", {})


def test_events_you_did_not_capture_or_cannot_use_yet() -> None:
    g = setup_round("cuba", [("radio", True)], [("unions", True)], X)
    assert g.why_not(CIA, {"type": "event", "card": "cuba"}) == ("coldwar.why.event_not_yours", {})
    g.s.trophies[CIA].append("cuba")
    g.s.won_round["cuba"] = g.s.round  # won this round: usable from the next
    assert g.why_not(CIA, {"type": "event", "card": "cuba"}) == ("coldwar.why.event_not_now", {"card": "cuba"})


def test_a_listed_move_gets_no_reason() -> None:
    g = setup_round("cuba", [("generals", True), ("radio", True)], [("unions", True)], X)
    for action in g.legal_actions(CIA):
        assert g.why_not(CIA, action) is None, action
