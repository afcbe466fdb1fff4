"""Why a Cold War move is not possible now (issue 25, item 7), for ``ColdWar.why_not``.

The rules refuse every move they do not list with one sentence (``coldwar.err.illegal``). These functions
name the reason, as an i18n key under ``coldwar.why.`` and its parameters: a move of another step (the
step in ``step``, named by :func:`localise`), a group that is not in play, not yours or inactive
(its id in ``group``), a full hand of groups (``n``: the target's limit), an event you have not captured or
cannot use in this round (its id in ``card``). Each check mirrors one the engine makes
(``Engine.legal_turn``, ``usable_events``); what they do not recognise is left to the generic refusal.
Only public things are named: groups in play and captured targets lie face up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.i18n import t
from bot.games.coldwar.text import group_name, target_name

if TYPE_CHECKING:
    from bot.games.coldwar.game import ColdWar

Reason = tuple[str, dict[str, Any]]


def _why(key: str, **params: Any) -> Reason:
    return "coldwar.why." + key, params


def localise(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """``params`` as a reader of ``lang`` sees them: a step, a group and an event by their names."""
    out = dict(params)
    if isinstance(params.get("step"), str):
        out["step"] = t(f"coldwar.why.step.{params['step']}", lang)
    if isinstance(params.get("group"), str):
        out["group"] = group_name(params["group"], lang)
    if isinstance(params.get("card"), str):
        out["card"] = target_name(params["card"], lang)
    return out


def why_not(game: ColdWar, seat: int, action: Any) -> Reason | None:
    """The reason ``action`` is not possible for ``seat`` now, or None (no better word than "not possible")."""
    engine = game.engine
    s = game.s
    if not isinstance(action, dict) or seat not in game.actors() or s.dec is None:
        return None
    step = s.dec.kind
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in game.DECISIONS[step].moves:  # a move of another decision
        return _why("not_this_step", step=step)
    if step != "turn":
        return None
    mine = [g.gid for g in s.table[seat]]
    if kind == "recruit" and len(mine) >= engine.limit():
        return _why("group_limit", n=engine.limit())
    if kind == "wait" and not mine:  # «without groups a seat must recruit»
        return _why("must_recruit")
    if kind == "use":
        group = action.get("group")
        if not isinstance(group, str) or group not in engine.in_play():
            return _why("no_such_group")
        if group not in mine:
            return _why("not_your_group", group=group)
        if not next(g.active for g in s.table[seat] if g.gid == group):
            return _why("group_inactive", group=group)
        return None
    if kind == "event":
        card = action.get("card")
        if not isinstance(card, str) or card not in s.trophies[seat]:
            return _why("event_not_yours")
        if card not in engine.usable_events(seat, "struggle"):
            return _why("event_not_now", card=card)
    return None
