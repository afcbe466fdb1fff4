"""The turn: the actions a seat may take (one table, :data:`TURN_ACTIONS`), their costs, combinations,
the neutral zone, and the start and end of a turn as op sequences on the effect stack.

«Каждый игрок в свой ход может совершить два основных действия. Одно дополнительное действие, если под
контролем игрока (на поле) есть Агент.» An action's ``cost`` is ``main`` (a main action), ``agent`` (the
additional action if still unused, else a main action: «Агент может использовать ваши действия») or
``free`` (utilisation, «Сбросьте эту карту», ending the turn).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Generic, TypeVar

from bot.games.base import IllegalAction
from bot.games.byallmeans import data, effects, rules
from bot.games.byallmeans.effects import OpSpec, register
from bot.games.byallmeans.state import Frame, NeutralEntry, State, TurnState
from bot.games.byallmeans.vocab import (
    AgentAction,
    CardAction,
    DrawMainAction,
    EndTurnAction,
    Events,
    NeutralAction,
    NumberAction,
    PlayAction,
    SkipAction,
    SymbolsAction,
    TurnAct,
    over,
)

FIRST_HAND = 4
EMPTY_HAND_DRAW = 2
EMPTY_ARCHIVE_LOSS = 3

START_OPS: list[dict[str, Any]] = [{"op": "untap"}, {"op": "triggers", "when": "turn_start"}, {"op": "empty_hand"},
                                   {"op": "lost_action"}]
"""Steps 1-3 of «Порядок срабатывания эффектов» (with the house-rule untap first)."""
END_OPS: list[dict[str, Any]] = [{"op": "triggers", "when": "turn_end"}, {"op": "rival_window", "used": 0, "chooser": "opp"},
                                 {"op": "overpopulation"},
                                 {"op": "empty_archive"}, {"op": "remove_disloyal"}, {"op": "status_check"},
                                 {"op": "next_turn"}]
"""Steps 7-12, with the rival's discards and utilisations («в конце хода соперника») after step 8."""
RIVAL_WINDOW = 2


# ---- the turn sequence ------------------------------------------------------------------------
def start_turn(s: State, seat: int, number: int, restricted: bool) -> None:
    s.phase = "turn"
    s.turn = TurnState(active=seat, number=number, main_left=2, extra_used=False, restricted=restricted)
    s.stack.append(Frame(seat, None, [dict(op) for op in START_OPS]))


def _untap(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    """House rule: the rulebook never says when agents stand up again; they do at the start of their
    controller's turn (and their per-turn action record is cleared)."""
    for _, o in rules.field_objects(s):
        if o.owner == f.controller:
            o.tapped = False
            o.used.clear()


def _triggers(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    """Steps 1-2 / 7-8: the active player's cards (``turn_start``/``turn_end``: of their controller's turn),
    then the opponent's (``rival_turn_start``/``rival_turn_end``). «Если срабатывают два эффекта
    одновременно … Эффекты карт активного игрока. Эффекты карт неактивного игрока.» Each player's own
    triggers wait in a ``pick_trigger`` step: «порядок срабатывания этих эффектов определяет контролирующий
    эффекты игрок». The rival's step is pushed first because the stack runs its top first."""
    active = f.controller
    for seat in (rules.other(active), active):
        when = op["when"] if seat == active else f"rival_{op['when']}"
        left = [o.uid for _, o in rules.field_objects(s) if o.owner == seat and not rules.face_down(s, o)
                and rules.card_of(s, o.uid).abilities_when(when)]
        if left:
            s.stack.append(Frame(seat, None, [{"op": "pick_trigger", "when": when, "left": left}]))


def _pick_trigger_choices(s: State, f: Frame, op: dict[str, Any]) -> list[Any]:
    return [u for u in op["left"] if rules.find_field(s, u) is not None]


def _pick_trigger_resolve(s: State, f: Frame, op: dict[str, Any], value: Any, ev: Events) -> None:
    """The chosen card's trigger runs whole (a frame on top), then the controller picks the next one."""
    rest = [u for u in op["left"] if u != value]
    if rest:
        f.ops.insert(0, {**op, "left": rest})
    found = rules.find_field(s, value)
    assert found is not None
    ops = [dict(x) for ab in rules.card_of(s, value).abilities_when(op["when"]) for x in ab.ops]
    s.stack.append(Frame(f.controller, value, ops, {"this": value, "host": found[0]}))


def _empty_hand(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    """«Если в вашей руке на начало вашего хода нет карт, то вы берете две карты из вашего основного архива»."""
    if not s.players[f.controller].hand:
        rules.draw(s, f.controller, "main", EMPTY_HAND_DRAW, ev)


def _lost_action_choices(s: State, f: Frame, op: dict[str, Any]) -> list[Any]:
    if s.players[f.controller].lost_actions <= 0:
        return []
    return ["main", "extra"] if rules.agents(s, f.controller) and not s.turn.extra_used else ["main"]


def _lost_action_resolve(s: State, f: Frame, op: dict[str, Any], value: Any, ev: Events) -> None:
    p = s.players[f.controller]
    p.lost_actions -= 1
    if value == "extra":
        s.turn.extra_used = True
    else:
        s.turn.main_left = max(0, s.turn.main_left - 1)
    ev.append({"type": "bam.action_lost", "seat": f.controller, "which": value})
    if p.lost_actions > 0:
        f.ops.insert(0, dict(op))


def _rival_window_choices(s: State, f: Frame, op: dict[str, Any]) -> list[Any]:
    """«Если на карте есть словосочетание «Сбросьте эту карту» или слово «Утилизация», вы можете получить
    эффект от сброса этой карты, в конце хода соперника. Таких действий может быть не более двух.»"""
    rival = rules.other(f.controller)
    if op["used"] >= RIVAL_WINDOW:
        return []
    p = s.players[rival]
    out: list[Any] = [f"discard:{u}" for u in sorted(p.hand) if rules.card_of(s, u).abilities_when("discard")]
    if p.main:
        out += [f"utilise:{u}" for u in sorted(p.hand) if rules.card_of(s, u).utilise]
    return ["pass", *out] if out else []


def _rival_window_resolve(s: State, f: Frame, op: dict[str, Any], value: Any, ev: Events) -> None:
    if value == "pass":
        return
    rival = rules.other(f.controller)
    kind, _, uid = str(value).partition(":")
    if kind == "utilise":
        _utilise(s, rival, {"type": "utilise", "uid": uid}, ev)
    else:
        _discard(s, rival, {"type": "discard", "uid": uid}, ev)
    f.ops.insert(0, {**op, "used": op["used"] + 1})


def _overpopulation(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    rules.lose(s, f.controller, "rep", rules.overpopulation(s, f.controller), ev)


def _empty_archive(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    """«Если заканчивается основной архив, то в конце каждого вашего хода вы будете терять три единицы репутации.»"""
    if not s.players[f.controller].main:
        rules.lose(s, f.controller, "rep", EMPTY_ARCHIVE_LOSS, ev)


def _remove_disloyal(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    for _, t in rules.territories(s):
        if t.loyalty <= 0 and rules.find_field(s, t.uid) is not None:
            rules.to_utility(s, t.uid, ev)


STALL_TURNS = 20
"""House rule 40: this many turns in a row that leave the public position as it was two turns before end the
game in a draw («stalemate»)."""


def public_digest(s: State) -> str:
    """A digest of what the table shows: counters, zone sizes, buffers, utility piles and the field."""
    parts = [[p.rep, p.inf, p.trust, len(p.hand), len(p.main), len(p.extra), len(p.utility), p.lost_actions,
              [(b.uid, sorted(b.symbols)) for b in p.buffer]] for p in s.players]
    field = [(i, o.uid, o.loyalty, sorted(o.symbols), o.tapped, len(o.shadows)) for i, o in rules.field_objects(s)]
    text = json.dumps([parts, field], separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _stalled(s: State) -> bool:
    """Track dead positions: ten rounds in which the table comes back to the same state (house rule 40)."""
    key = public_digest(s)
    s.stall = s.stall + 1 if len(s.stall_keys) == 2 and s.stall_keys[0] == key else 0
    s.stall_keys = (s.stall_keys + [key])[-2:]
    return s.stall >= STALL_TURNS


def _status_check(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    result = rules.status(s)
    if result is None and _stalled(s):
        result = {"winners": [], "draw": True, "reasons": ["stalemate"]}
    if result is not None:
        s.result = dict(result)
        s.phase = "over"
        ev.append(over(result))


def _next_turn(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    seat = rules.other(f.controller)
    ev.append({"type": "bam.turn", "seat": seat, "number": s.turn.number + 1})
    start_turn(s, seat, s.turn.number + 1, restricted=False)


# ---- the neutral zone -------------------------------------------------------------------------
def _settle(s: State, f: Frame, op: dict[str, Any], ev: Events) -> None:
    """«Куда отправляются карты (символы) из нейтральной зоны после окончания действия»: a plot and a card
    played from the buffer in a number combination go to the utility; a card from the hand may go to the
    buffer or the utility (one ``route`` decision each)."""
    routes = []
    for entry in list(s.neutral):
        cell = op.get("attach")
        if entry.role == "plot" and cell is not None and s.field[cell].territory is not None \
                and s.field[cell].plot is None:  # a lasting plot stays on the field (house rule 34)
            rules.take(s, entry.uid)
            rules.place_plot(s, f.controller, entry.uid, cell, ev)
        elif entry.role == "plot" or entry.origin == "buffer":
            rules.to_utility(s, entry.uid, ev)
        else:
            routes.append({"op": "route", "uid": entry.uid})
    f.ops[0:0] = routes


def _route_choices(s: State, f: Frame, op: dict[str, Any]) -> list[Any]:
    entry = next((e for e in s.neutral if e.uid == op["uid"]), None)
    if entry is None:
        return []
    out: list[Any] = ["utility"]
    if len(s.players[f.controller].buffer) < rules.BUFFER_SLOTS:
        if data.NEUTRAL_SYMBOL in _unspent(s, entry):
            out.extend(f"buffer:{sym}" for sym in data.active_symbols())
        else:
            out.append("buffer")
    return out


def _unspent(s: State, entry: NeutralEntry) -> list[str]:
    left = list(rules.card_of(s, entry.uid).symbols)
    for sym in entry.spent:
        if sym in left:
            left.remove(sym)
    return left


def _route_resolve(s: State, f: Frame, op: dict[str, Any], value: Any, ev: Events) -> None:
    """«При попадании в буфер на карту кладутся все неиспользованные символы»; «Если карта с Сиреневым
    символом попадает в буфер, то такой символ превращается в любой активный символ на ваш выбор.»"""
    entry = next(e for e in s.neutral if e.uid == op["uid"])
    if value == "utility":
        rules.to_utility(s, entry.uid, ev)
        return
    chosen = str(value).partition(":")[2]
    symbols = [chosen if sym == data.NEUTRAL_SYMBOL else sym for sym in _unspent(s, entry)]
    s.neutral.remove(entry)
    rules.to_buffer(s, f.controller, entry.uid, symbols, ev)


def _offer_move_choices(s: State, f: Frame, op: dict[str, Any]) -> list[Any]:
    """«В момент выхода на поле вашей территории, если ваш Агент находится на другой вашей территории, то он
    может переместиться … на новую территорию, при этом, если Агент был повернут, то он разворачивается.»"""
    cell = op["cell"]
    t = s.field[cell].territory
    if t is None or t.owner != f.controller or s.field[cell].agent is not None:
        return []
    movers = [a.uid for i, a in rules.agents(s, f.controller) if i != cell and rules.on_own_territory(s, i, a.owner)]
    return ["stay", *movers] if movers else []


def _offer_move_resolve(s: State, f: Frame, op: dict[str, Any], value: Any, ev: Events) -> None:
    if value == "stay":
        return
    found = rules.find_field(s, value)
    assert found is not None
    old, agent = found
    s.field[old].agent = None
    old_t = s.field[old].territory
    if old_t is not None:
        rules.change_loyalty(s, old_t, -1, ev)
    cell = op["cell"]
    s.field[cell].agent = agent
    agent.tapped = False
    new_t = s.field[cell].territory
    assert new_t is not None
    rules.change_loyalty(s, new_t, 1, ev)
    ev.append({"type": "bam.agent_moved", "seat": agent.owner, "code": s.cards[agent.uid], "cell": cell})


for _name, _spec in {
    "untap": OpSpec(run=_untap, data=False),
    "triggers": OpSpec(run=_triggers, data=False),
    "pick_trigger": OpSpec(choices=_pick_trigger_choices, resolve=_pick_trigger_resolve, data=False),
    "empty_hand": OpSpec(run=_empty_hand, data=False),
    "lost_action": OpSpec(choices=_lost_action_choices, resolve=_lost_action_resolve, data=False),
    "rival_window": OpSpec(choices=_rival_window_choices, resolve=_rival_window_resolve, data=False),
    "overpopulation": OpSpec(run=_overpopulation, data=False),
    "empty_archive": OpSpec(run=_empty_archive, data=False),
    "remove_disloyal": OpSpec(run=_remove_disloyal, data=False),
    "status_check": OpSpec(run=_status_check, data=False),
    "next_turn": OpSpec(run=_next_turn, data=False),
    "settle": OpSpec(run=_settle, data=False),
    "route": OpSpec(choices=_route_choices, resolve=_route_resolve, data=False),
    "offer_move": OpSpec(choices=_offer_move_choices, resolve=_offer_move_resolve, data=False),
}.items():
    register(_name, _spec)


# ---- action availability ----------------------------------------------------------------------
def main_free(s: State, draw: bool = False) -> bool:
    """A main action is left; on the first player's first turn the last one is reserved for a draw."""
    need = 1 if draw or not s.turn.restricted else 2
    return s.turn.main_left >= need


def agent_free(s: State, seat: int) -> bool:
    return bool(rules.agents(s, seat)) and (not s.turn.extra_used or main_free(s))


def spend(s: State, cost: str, kind: str) -> None:
    if cost == "main":
        s.turn.main_left -= 1
        if kind in ("draw_main", "skip"):
            s.turn.restricted = False
    elif cost == "agent":
        if not s.turn.extra_used:
            s.turn.extra_used = True
        else:
            s.turn.main_left -= 1


# ---- sources of symbols -------------------------------------------------------------------------
def symbol_sources(s: State, seat: int) -> list[str]:
    """``h:uid:sym`` (a hand card's printed symbol), ``b:uid:sym`` (an active symbol in the buffer),
    ``f:uid:sym`` (an active symbol on a field object the seat controls). The lilac one never counts."""
    p = s.players[seat]
    out = [f"h:{u}:{sym}" for u in sorted(p.hand) for sym in sorted(set(rules.card_of(s, u).symbols))]
    out += [f"b:{b.uid}:{sym}" for b in sorted(p.buffer, key=lambda x: x.uid) for sym in sorted(set(b.symbols))]
    out += [f"f:{o.uid}:{sym}" for _, o in rules.field_objects(s) if o.owner == seat for sym in sorted(set(o.symbols))]
    # «Активные символы на этих Агентах считаются общими и могут быть использованы обоими игроками.»
    out += [f"f:{twin.uid}:{sym}" for _, mine in rules.agents(s, seat) for _, twin in rules.doubles(s, mine)
            for sym in sorted(set(twin.symbols))]
    return [x for x in out if not x.endswith(":" + data.NEUTRAL_SYMBOL)]


def _pair_allowed(a: str, b: str) -> bool:
    """«Две карты из руки», «одна из руки, другая из буфера», «обе из буфера», «на поле на двух разных
    объектах»: the field pairs only with the field (house rule), and never one card twice."""
    za, ua, _ = a.split(":")
    zb, ub, _ = b.split(":")
    if ua == ub:
        return False
    return (za == "f") == (zb == "f")


def symbol_actions(s: State, seat: int) -> list[SymbolsAction]:
    srcs = symbol_sources(s, seat)
    out: list[SymbolsAction] = []
    for a, b in combinations(srcs, 2):
        if not _pair_allowed(a, b):
            continue
        effect = data.pair_effect(a.rsplit(":", 1)[1], b.rsplit(":", 1)[1])
        key = _combo_key(effect.id, [a.split(":")[1], b.split(":")[1]])
        if key in s.turn.combos or not effects.pair_legal(s, seat, effect):
            continue
        out.append({"type": "symbols", "a": a, "b": b})
    return out


def _combo_key(effect: str, uids: list[str]) -> str:
    """«Исключение составляет повтор одной комбинации два раза за ход одними и теми же картами.»"""
    return f"{effect}:{','.join(sorted(uids))}"


def number_actions(s: State, seat: int) -> list[NumberAction]:
    """Subsets of hand and buffer cards whose numbers add up to 5, 7, 9, 11 or 13 («Карты на поле в цифровой
    комбинации играть нельзя»; «не можете сыграть «5» Махинации одной картой»).

    Interchangeable cards (the same card in the hand, or in the buffer with the same active symbols) are
    listed once: a combination takes the first of them, so a big hand does not multiply the list by its
    copies (house rule 39). Cards already in a combination this turn come last in their group, so a
    repeat with the same cards is avoided when a twin can stand in."""
    p = s.players[seat]
    used = {u for key in s.turn.combos for u in key.split(":", 1)[1].split(",")}
    groups: dict[tuple[Any, ...], list[str]] = {}
    for uid in sorted(p.hand):
        groups.setdefault((s.cards[uid], "hand"), []).append(uid)
    for b in sorted(p.buffer, key=lambda x: x.uid):
        groups.setdefault((s.cards[b.uid], "buffer", tuple(sorted(b.symbols))), []).append(b.uid)
    pool = [(rules.card_of(s, uids[0]).number, sorted(uids, key=lambda u: (u in used, u)))
            for _, uids in sorted(groups.items(), key=lambda kv: kv[1][0])]
    combos = data.number_combos()
    top = max(combos)
    out: list[NumberAction] = []

    def walk(i: int, chosen: list[str], total: int) -> None:
        if i == len(pool):
            if chosen and total in combos and len(chosen) >= combos[total].min_cards:
                cards = sorted(chosen)
                if _combo_key(combos[total].id, cards) not in s.turn.combos:
                    out.append({"type": "number", "sum": total, "cards": cards})
            return
        number, uids = pool[i]
        walk(i + 1, chosen, total)
        for k in range(1, len(uids) + 1):
            if total + number * k > top:
                break
            walk(i + 1, chosen + uids[:k], total + number * k)

    walk(0, [], 0)
    return out


# ---- enumerators and appliers of the turn actions -----------------------------------------------
def _draw_main_list(s: State, seat: int) -> list[DrawMainAction]:
    return [{"type": "draw_main"}] if main_free(s, draw=True) and s.players[seat].main else []


def _draw_main(s: State, seat: int, a: DrawMainAction, ev: Events) -> None:
    rules.draw(s, seat, "main", 1, ev)


def _skip_list(s: State, seat: int) -> list[SkipAction]:
    """«обязан потратить одно из своих основных действий на взятие карты из основного архива или пропустить
    это действие»."""
    return [{"type": "skip"}] if s.turn.restricted and s.turn.main_left >= 1 else []


def _skip(s: State, seat: int, a: SkipAction, ev: Events) -> None:
    ev.append({"type": "bam.skip", "seat": seat})


def _where(s: State, seat: int, uid: str) -> tuple[str, list[str]]:
    """``hand`` or ``buffer``, and the symbols the card would carry onto the field: printed from the hand
    (house rule), the active ones from the buffer."""
    p = s.players[seat]
    if uid in p.hand:
        return "hand", [x for x in rules.card_of(s, uid).symbols]
    for b in p.buffer:
        if b.uid == uid:
            return "buffer", list(b.symbols)
    raise IllegalAction("bam.err.not_yours")


def _play_list(s: State, seat: int) -> list[PlayAction]:
    if not main_free(s):
        return []
    p = s.players[seat]
    out: list[PlayAction] = []
    for uid in sorted(p.hand) + [b.uid for b in p.buffer]:
        zone, _ = _where(s, seat, uid)
        card = rules.card_of(s, uid)
        cost = rules.price(s, seat, card, zone)
        if cost is None or cost > p.rep:
            continue
        if card.type == "territory":
            out += [{"type": "play", "uid": uid, "cell": c} for c in rules.territory_cells(s)
                    if rules.placement_ok(s, seat, card, c)]
        elif card.is_agent:
            if card.type == "graffigent":  # «можно вывести на поле рубашкой вверх (только на территорию, притом любую)»
                out += [{"type": "play", "uid": uid, "cell": c, "face_down": True} for c in rules.graffiti_cells(s)]
            twin = rules.twin_of(s, seat, s.cards[uid])
            if twin is not None:  # a second copy under your control becomes a shadow, wherever it is played
                out.append({"type": "play", "uid": uid, "shadow": twin.uid})
                continue
            mine = [a.uid for _, a in rules.agents(s, seat)]
            for c in rules.agent_cells(s, seat):
                if not rules.placement_ok(s, seat, card, c):
                    continue
                if len(mine) < rules.MAX_AGENTS:
                    out.append({"type": "play", "uid": uid, "cell": c})
                else:
                    out += [{"type": "play", "uid": uid, "cell": c, "replace": r} for r in sorted(mine)]
        elif card.type == "graffiti":
            out += [{"type": "play", "uid": uid, "cell": c} for c in rules.graffiti_cells(s)
                    if rules.placement_ok(s, seat, card, c)]
        elif card.type == "plot":
            ops = [op for ab in card.abilities_when("plot") for op in ab.ops]
            if not (ops or card.attach) or not rules.placement_ok(s, seat, card, None):
                continue
            if card.attach:  # «Если карта сюжета не может в полной мере выполнить условие»: it needs a territory
                out += [{"type": "play", "uid": uid, "cell": c} for c in rules.plot_cells(s, seat, card.attach)
                        if effects.ops_feasible(s, seat, ops)]
            elif effects.ops_feasible(s, seat, ops):
                out.append({"type": "play", "uid": uid})
    return out


def _play(s: State, seat: int, a: PlayAction, ev: Events) -> None:
    uid = a["uid"]
    zone, symbols = _where(s, seat, uid)
    card = rules.card_of(s, uid)
    rules.pay(s, seat, rules.price(s, seat, card, zone) or 0, ev)
    if "replace" in a:  # «обязаны отправить с поля в утиль одного из двух Агентов»
        old = rules.find_field(s, a["replace"])
        # «Когда Агент с тенью должен отправиться в утиль, вместо этого в утиль отправляется карта, ставшая
        # тенью» (l. 289): one call sends the shadow in the Agent's place, which then stays (house rule 33).
        # Rules version 1 sent the Agent along with its shadows.
        while s.rules < 2 and old is not None and old[1].shadows:
            rules.to_utility(s, a["replace"], ev)
        rules.to_utility(s, a["replace"], ev)
    rules.take(s, uid)
    if card.type == "territory":
        rules.place_territory(s, seat, uid, a["cell"], symbols, ev)
    elif a.get("face_down"):
        rules.place_graffiti(s, seat, uid, a["cell"], symbols, ev)
    elif "shadow" in a:
        found = rules.find_field(s, a["shadow"])
        assert found is not None
        rules.add_shadow(s, found[1], uid, symbols, ev)
    elif card.is_agent:
        rules.place_agent(s, seat, uid, a["cell"], symbols, ev)
    elif card.type == "graffiti":
        rules.place_graffiti(s, seat, uid, a["cell"], symbols, ev)
    else:  # a plot waits in the neutral zone until its action ends, then goes to the utility (or stays)
        s.neutral.append(NeutralEntry(uid, zone, "plot"))
        ev.append({"type": "bam.plot", "seat": seat, "code": s.cards[uid]})
        settle: dict[str, Any] = {"op": "settle"}
        frame_vars: dict[str, Any] = {"this": uid}
        if "cell" in a:
            settle["attach"] = frame_vars["host"] = a["cell"]
        ops = [dict(op) for ab in card.abilities_when("plot") for op in ab.ops] + [settle]
        rules.fire(s, "rival_plays_plot", rules.other(seat))  # runs once the plot has resolved
        s.stack.append(Frame(seat, uid, ops, frame_vars))


def _number_list(s: State, seat: int) -> list[NumberAction]:
    return number_actions(s, seat) if main_free(s) else []


def _number(s: State, seat: int, a: NumberAction, ev: Events) -> None:
    combo = data.number_combos()[a["sum"]]
    s.turn.combos.append(_combo_key(combo.id, a["cards"]))
    for uid in a["cards"]:
        origin = rules.take(s, uid)
        s.neutral.append(NeutralEntry(uid, origin, "number"))
    ev.append({"type": "bam.number", "seat": seat, "sum": combo.sum, "combo": combo.id,
               "codes": [s.cards[u] for u in a["cards"]]})
    s.stack.append(Frame(seat, None, [dict(op) for op in combo.ops] + [{"op": "settle"}]))


def _symbols_list(s: State, seat: int) -> list[SymbolsAction]:
    return symbol_actions(s, seat) if main_free(s) else []


def _symbols(s: State, seat: int, a: SymbolsAction, ev: Events) -> None:
    """A hand card goes to the neutral zone; from a buffer card or a field object only the symbol goes, and
    «Символы выводятся из игры»."""
    syms = [a["a"].rsplit(":", 1)[1], a["b"].rsplit(":", 1)[1]]
    effect = data.pair_effect(*syms)
    s.turn.combos.append(_combo_key(effect.id, [a["a"].split(":")[1], a["b"].split(":")[1]]))
    codes = []
    for src in (a["a"], a["b"]):
        zone, uid, sym = src.split(":")
        codes.append(s.cards[uid])
        if zone == "h":
            rules.take(s, uid)
            s.neutral.append(NeutralEntry(uid, "hand", "symbol", [sym]))
        elif zone == "b":
            found = rules.find_buffer(s, uid)
            assert found is not None
            found[1].symbols.remove(sym)
        else:
            obj = rules.find_field(s, uid)
            assert obj is not None
            obj[1].symbols.remove(sym)
    ev.append({"type": "bam.symbols_played", "seat": seat, "effect": effect.id, "symbols": syms, "codes": codes})
    s.stack.append(Frame(seat, None, [dict(op) for op in effect.ops] + [{"op": "settle"}]))


def _neutral_list(s: State, seat: int) -> list[NeutralAction]:
    """«Нейтральная комбинация может быть разыграна, если в вашей руке есть карта с СИРЕНЕВЫМ символом. Вы
    можете комбинировать этот символ с любым доступным символом в руке или буфере»."""
    if not main_free(s):
        return []
    p = s.players[seat]
    out: list[NeutralAction] = []
    for uid in sorted(p.hand):
        if data.NEUTRAL_SYMBOL not in rules.card_of(s, uid).symbols:
            continue
        partners = [x for x in symbol_sources(s, seat) if x[0] in "hb" and x.split(":")[1] != uid]
        if partners:
            out.append({"type": "neutral", "uid": uid})
    return out


def _neutral(s: State, seat: int, a: NeutralAction, ev: Events) -> None:
    """No effect, and «второй символ не будет израсходован»: only the lilac card passes through the neutral
    zone, to be buffered with an active symbol of the player's choice instead of its lilac one."""
    rules.take(s, a["uid"])
    s.neutral.append(NeutralEntry(a["uid"], "hand", "neutral"))
    ev.append({"type": "bam.neutral", "seat": seat, "code": s.cards[a["uid"]]})
    s.stack.append(Frame(seat, None, [{"op": "settle"}]))


AGENT_DOES = ("attack", "hunt", "inform", "ability")


def _agent_list(s: State, seat: int) -> list[AgentAction]:
    """«Способности Агента по умолчанию» and its activated ability; «Агент не может совершать действий, если
    он повернут»; «Агент не может повторять одно действие два раза за ход»."""
    if not agent_free(s, seat):
        return []
    out: list[AgentAction] = []
    targets = [a for i, a in rules.agents(s, rules.other(seat)) if rules.exposed(s, i, a)]
    for _, agent in rules.agents(s, seat):
        if agent.tapped:
            continue
        if "attack" not in agent.used:
            out.append({"type": "agent", "uid": agent.uid, "do": "attack"})
        if "hunt" not in agent.used:
            out += [{"type": "agent", "uid": agent.uid, "do": "hunt", "target": t.uid} for t in targets]
        if "inform" not in agent.used and s.players[seat].extra:
            out.append({"type": "agent", "uid": agent.uid, "do": "inform"})
        if "ability" not in agent.used:
            for ab in rules.card_of(s, agent.uid).abilities_when("activated"):
                if not ab.free and effects.ops_feasible(s, seat, ab.ops):
                    out.append({"type": "agent", "uid": agent.uid, "do": "ability"})
                    break
    return out


def _agent(s: State, seat: int, a: AgentAction, ev: Events) -> None:
    found = rules.find_field(s, a["uid"])
    assert found is not None
    cell, agent = found
    was_reckless = rules.reckless(s, cell, agent)
    agent.tapped = True
    agent.used.append(a["do"])
    eff = rules.efficiency(s, agent)
    ev.append({"type": "bam.agent", "seat": seat, "code": s.cards[agent.uid], "do": a["do"]})
    if a["do"] == "attack":
        rules.lose(s, rules.other(seat), "rep", eff, ev)
    elif a["do"] == "hunt":
        target = rules.find_field(s, a["target"])
        assert target is not None
        if eff >= rules.resilience(s, target[1]):
            rules.to_utility(s, target[1].uid, ev)
    elif a["do"] == "inform":
        rules.draw(s, seat, "extra", 1, ev)
    else:
        ab = next(x for x in rules.card_of(s, agent.uid).abilities_when("activated") if not x.free)
        s.stack.append(Frame(seat, agent.uid, [dict(op) for op in ab.ops], {"this": agent.uid, "host": cell}))
    if a["do"] in ("attack", "hunt") and was_reckless:  # «Безбашенность»
        rules.lose(s, seat, "rep", eff, ev)


def _activate_list(s: State, seat: int) -> list[CardAction]:
    """«Использовать Активируемую способность объекта под вашим контролем» (non-agent objects, a main
    action) and «Активируемая способность объекта, на которую не тратится действия» (any object, agents
    included, without tapping). House rule 26: an Agent's free ability once per turn («Агент не может
    повторять одно действие два раза за ход», l. 308); other objects have no such limit (l. 47 sets none):
    an ordinary one costs a main action each time, and the one free ability of the pool (the Secret Mark)
    draws a card, so it stops with the main archive. A tapped agent uses none («Агент не может совершать
    действий, если он повернут»)."""
    out: list[CardAction] = []
    for _, o in rules.field_objects(s):
        if o.owner != seat or rules.face_down(s, o):
            continue
        if o.kind == "agent" and (o.tapped or "ability" in o.used):
            continue
        for ab in rules.card_of(s, o.uid).abilities_when("activated"):
            if o.kind == "agent" and not ab.free:
                continue
            if (ab.free or main_free(s)) and effects.ops_feasible(s, seat, ab.ops):
                out.append({"type": "activate", "uid": o.uid})
                break
    return out


def _activate(s: State, seat: int, a: CardAction, ev: Events) -> None:
    found = rules.find_field(s, a["uid"])
    assert found is not None
    cell, obj = found
    obj.used.append("ability")
    abilities = rules.card_of(s, obj.uid).abilities_when("activated")
    ab = next((x for x in abilities if x.free), abilities[0]) if obj.kind == "agent" else abilities[0]
    if obj.kind != "agent" and not ab.free:
        spend(s, "main", "activate")
    s.stack.append(Frame(seat, obj.uid, [dict(op) for op in ab.ops], {"this": obj.uid, "host": cell}))


def _utilise_list(s: State, seat: int) -> list[CardAction]:
    p = s.players[seat]
    if not p.main:
        return []
    return [{"type": "utilise", "uid": u} for u in sorted(p.hand) if rules.card_of(s, u).utilise]


def _utilise(s: State, seat: int, a: CardAction, ev: Events) -> None:
    """«можете сбросить эту карту из руки в утиль и взять карту из основного архива, утилизация не является
    действием»."""
    rules.to_utility(s, a["uid"], ev)
    rules.draw(s, seat, "main", 1, ev)


def _discard_list(s: State, seat: int) -> list[CardAction]:
    return [{"type": "discard", "uid": u} for u in sorted(s.players[seat].hand)
            if rules.card_of(s, u).abilities_when("discard")]


def _discard(s: State, seat: int, a: CardAction, ev: Events) -> None:
    """«Если на карте есть словосочетание «Сбросьте эту карту», то ее сброс не является действием в ваш ход.
    Сброс не требует оплаты цены.»"""
    rules.to_utility(s, a["uid"], ev)
    ab = rules.card_of(s, a["uid"]).abilities_when("discard")[0]
    s.stack.append(Frame(seat, a["uid"], [dict(op) for op in ab.ops]))


def _end_list(s: State, seat: int) -> list[EndTurnAction]:
    return [{"type": "end_turn"}]


def _end(s: State, seat: int, a: EndTurnAction, ev: Events) -> None:
    end_turn(s, ev)


def end_turn(s: State, ev: Events) -> None:
    ev.append({"type": "bam.end_turn", "seat": s.turn.active})
    s.turn.main_left = 0
    s.stack.append(Frame(s.turn.active, None, [dict(op) for op in END_OPS]))


A = TypeVar("A", bound=TurnAct)


@dataclass(frozen=True, slots=True)
class TurnAction(Generic[A]):
    cost: str
    """``main``, ``agent`` or ``free`` (spent by the dispatcher; ``activate`` spends for itself)."""
    legal: Callable[[State, int], list[A]]
    apply: Callable[[State, int, A, Events], None]


TURN_ACTIONS: dict[str, TurnAction[Any]] = {
    "draw_main": TurnAction("main", _draw_main_list, _draw_main),
    "skip": TurnAction("main", _skip_list, _skip),
    "play": TurnAction("main", _play_list, _play),
    "number": TurnAction("main", _number_list, _number),
    "symbols": TurnAction("main", _symbols_list, _symbols),
    "neutral": TurnAction("main", _neutral_list, _neutral),
    "agent": TurnAction("agent", _agent_list, _agent),
    "activate": TurnAction("free", _activate_list, _activate),
    "utilise": TurnAction("free", _utilise_list, _utilise),
    "discard": TurnAction("free", _discard_list, _discard),
    "end_turn": TurnAction("free", _end_list, _end),
}
"""Every action of the active seat while no effect waits for a decision: its cost, what is legal, what it does
(the moves of the ``turn`` decision, ``phases.DECISIONS``)."""


def turn_actions(s: State, seat: int) -> list[TurnAct]:
    return [a for spec in TURN_ACTIONS.values() for a in spec.legal(s, seat)]


def turn_move(s: State, seat: int, action: TurnAct, ev: Events) -> None:
    """Carry out a listed turn action (``ByAllMeans.apply`` checked it): pay its cost, do it, run the stack."""
    spec = TURN_ACTIONS[action["type"]]
    spend(s, spec.cost, action["type"])
    spec.apply(s, seat, action, ev)
    settle_turn(s, ev)


def settle_turn(s: State, ev: Events) -> None:
    """Run the stack; then end the turn by itself once no main action is left and no agent can act."""
    effects.run(s, ev)
    while s.result is None and not s.stack and s.phase == "turn" and s.turn.main_left <= 0 \
            and not _agent_list(s, s.turn.active):
        end_turn(s, ev)
        effects.run(s, ev)
