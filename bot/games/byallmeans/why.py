"""Why a By All Means card cannot be played now (issue 25, item 7), for ``ByAllMeans.why_not``.

``/bam play card:`` answered every card it could not play with one sentence ("You cannot play that card
now"). These functions name the reason, as an i18n key under ``bam.why.`` and its parameters: not this
step (the opening), a decision to finish first, not in your hand or buffer, no main action left (or the
first turn's last one kept for a draw), the price (a dash, or more reputation than you have), the cell (a
territory there already, not next to one, a rival's territory under an agent...), the conditions printed
on the card, or a plot that cannot do all it says. Cells are field indices in the parameter ``cell``
(:func:`localise` numbers them from 1, as the board does). Each check mirrors one the rules make
(``engine._play_list``, ``rules.placement_ok``...), so a legal play is never given a reason; what they do
not recognise is left to the generic refusal (None). Only what the seat may see is named: a card is named
by the player's own words, never from another seat's hand or an archive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.byallmeans import board, effects, engine, rules
from bot.games.byallmeans.data import CardDef
from bot.games.byallmeans.state import State
from bot.games.byallmeans.text import card_name

if TYPE_CHECKING:
    from bot.games.byallmeans.game import ByAllMeans

Reason = tuple[str, dict[str, Any]]


def _why(key: str, **params: Any) -> Reason:
    return "bam.why." + key, params


def localise(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` as a reader sees them: a cell index becomes its number on the board (1-12)."""
    cell = params.get("cell")
    return {**params, "cell": cell + 1} if isinstance(cell, int) else dict(params)


def _zone(s: State, seat: int, uid: str) -> str | None:
    p = s.players[seat]
    if uid in p.hand:
        return "hand"
    return "buffer" if any(b.uid == uid for b in p.buffer) else None


def why_not(game: ByAllMeans, seat: int, action: Any) -> Reason | None:
    """The reason ``seat`` cannot play the card of ``action`` (a ``play``) now, or None."""
    s = game.s
    if not isinstance(action, dict) or action.get("type") != "play" or seat not in game.actors():
        return None
    if s.phase != "turn":
        return _why("not_this_step")
    if effects.pending(s) is not None:
        return _why("choose_first")
    uid = action.get("uid")
    zone = _zone(s, seat, uid) if isinstance(uid, str) else None
    if zone is None or not isinstance(uid, str):
        return _why("not_in_hand")
    if not engine.main_free(s):
        # «обязан потратить одно из своих основных действий на взятие карты из основного архива или
        # пропустить это действие»: the first turn's last main action is kept for that
        return _why("first_turn_draw") if s.turn.restricted and s.turn.main_left >= 1 else _why("no_main_action")
    card = rules.card_of(s, uid)
    cost = rules.price(s, seat, card, zone)
    if cost is None:
        return _why(f"no_price_{zone}")
    if cost > s.players[seat].rep:
        return _why("cannot_afford", cost=cost, rep=s.players[seat].rep)
    plays = [a for a in engine.TURN_ACTIONS["play"].legal(s, seat) if a["uid"] == uid]
    cell = action.get("cell")
    if not isinstance(cell, int) or isinstance(cell, bool) or not 0 <= cell < len(s.field):
        cell = None
    if plays and (cell is None or any(a.get("cell") == cell for a in plays)):
        return None  # the card can be played there: something else about the action is not (left generic)
    if cell is not None and (reason := _cell(s, seat, card, cell, bool(action.get("face_down")))) is not None:
        return reason
    if plays:  # the card can be played, only not on that cell
        return _why("not_there", cell=cell)
    return _nowhere(s, seat, card)


def _cell(s: State, seat: int, card: CardDef, cell: int, face_down: bool) -> Reason | None:
    """Why ``card`` cannot go to ``cell``, when a rule about that cell says so (else None)."""
    here = s.field[cell]
    if card.type == "territory":
        if here.territory is not None:
            return _why("cell_has_territory", cell=cell)
        if not rules.territories(s) and cell not in board.CENTRAL_CELLS:
            return _why("first_central")
        if cell not in rules.territory_cells(s):
            return _why("not_adjacent", cell=cell)
    elif card.type == "graffiti" or face_down:
        if here.territory is None:
            return _why("graffiti_needs_territory", cell=cell)
        if here.graffiti is not None:
            return _why("cell_has_graffiti", cell=cell)
    elif card.is_agent:
        if here.agent is not None:
            return _why("cell_has_agent", cell=cell)
        if here.territory is not None and here.territory.owner != seat:
            return _why("rival_territory", cell=cell)
    if not rules.placement_ok(s, seat, card, cell):
        return _why("conditions")
    return None


def _nowhere(s: State, seat: int, card: CardDef) -> Reason | None:
    """Why ``card`` (in the hand or buffer, affordable, with a main action left) has no play at all."""
    if card.type == "plot":
        ops = [op for ab in card.abilities_when("plot") for op in ab.ops]
        if not (ops or card.attach):
            return None
        if not rules.placement_ok(s, seat, card, None):
            return _why("conditions")
        if card.attach and not rules.plot_cells(s, seat, card.attach):
            return _why("no_place")
        if not effects.ops_feasible(s, seat, ops):
            # «карта сюжета не может в полной мере выполнить условие … данный сюжет не может быть сыгран»
            return _why("plot_cannot_resolve")
        return None
    if card.type == "territory":
        cells = rules.territory_cells(s)
    elif card.type == "graffiti":
        cells = rules.graffiti_cells(s)
    elif card.is_agent:
        cells = rules.agent_cells(s, seat) + (rules.graffiti_cells(s) if card.type == "graffigent" else [])
    else:
        return None
    if not cells:
        return _why("no_place")
    if not any(rules.placement_ok(s, seat, card, c) for c in cells):
        return _why("conditions")
    return None


def card_reason(game: ByAllMeans, seat: int, text: str, lang: str) -> Reason | None:
    """Why the card ``text`` names (a uid, or its name in ``lang``) cannot be played by ``seat`` now:
    ``no_such_card`` when no card of the seat's hand or buffer has that name, else :func:`why_not` of its
    first copy (hand first). None when there is no better word."""
    s = game.s
    p = s.players[seat]
    wanted = text.strip().casefold()
    own = list(p.hand) + [b.uid for b in p.buffer]
    named = [u for u in own if wanted in (u.casefold(), card_name(s.cards[u], lang).casefold())]
    if not named:  # a card id (the autocomplete's value) is not named: it may be a card the seat cannot see
        return _why("not_in_hand") if wanted in s.cards else _why("no_such_card", card=text.strip())
    for uid in named:
        reason = why_not(game, seat, {"type": "play", "uid": uid})
        if reason is not None:
            return reason
    return None
