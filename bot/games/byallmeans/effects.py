"""The effect vocabulary: small data-driven operations that card abilities, the symbol-pair table and the
number combinations are written in, and the interpreter that runs them.

An effect is a list of ops (JSON dicts with an ``"op"``), run in a :class:`Frame` on ``State.stack``.
``self``/``opp`` in an op are relative to the frame's controller. An op either runs at once or asks a
seat to choose (targets, an opponent's "or" choice, where a card goes after a combination); the game
then waits with that seat as the actor, and the answer is ``{"type": "choose", "v": value}``.

The vocabulary (``who``/``owner``: ``self``, ``opp``, ``both``/``any``):

=============== ========================================================================================
op              meaning
=============== ========================================================================================
gain / lose     ``who`` gains / loses ``n`` of ``res`` (``rep``, ``inf``, ``trust``); shortfalls cost trust;
                ``per`` (``own_territories``, ``opp_agents``...) multiplies ``n`` by that count
draw            ``who`` draws ``n`` from ``archive`` (``main`` / ``extra``)
mill            top ``n`` cards of an archive to its owner's utility (``archive``: a bound variable or
                ``self.main``, ``opp.extra``...; ``exact``: a plot needs ``n`` cards there)
move_top        top ``n`` of an archive (a variable) onto that player's ``to`` archive
target          a chooser picks a ``kind`` (``territory``, ``agent`` [``hidden``], ``object``, ``buffer_card``,
                ``utility_card``, ``archive``) of an ``owner`` and binds it ``as`` a variable
loyalty         add ``n`` to the loyalty of territory ``target`` (``host``: the cell the source stands on)
to_utility      send ``target`` (a field object or buffer card) to its owner's utility
to_buffer       put ``target`` (from the controller's utility) into the buffer without active symbols
restore_symbols / clear_symbols   on object ``target``
choose          ``chooser`` picks one of ``options`` (``{"key": i18n key, "ops": [...]}``) whose ops can run
if              ``cond`` ``{"exposed": var}``: run ``then`` or ``else``
lose_action     ``who`` loses ``n`` actions in their next turn
discard         ``who`` discards ``n`` cards of their choice from hand
move_symbol     move one active symbol from a field object onto another field object
expose          «раскройте Агента» ``target``: the controller taps it or moves it to a cell without a territory
=============== ========================================================================================

Engine ops (not for card data) take part in the same machinery: ``settle`` and ``route`` (the neutral
zone after an action), ``offer_move`` (an agent moving onto a new territory) and the turn sequence ops
registered by :mod:`bot.games.byallmeans.engine`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.games.base import IllegalAction
from bot.games.byallmeans import data, rules
from bot.games.byallmeans.state import Frame, State
from bot.games.byallmeans.vocab import Choice, Events

Op = dict[str, Any]
Choices = Callable[[State, Frame, Op], list[Any]]
Runner = Callable[[State, Frame, Op, Events], None]
Resolver = Callable[[State, Frame, Op, Any, Events], None]
Feasible = Callable[[State, int, Op], bool]


@dataclass(frozen=True, slots=True)
class OpSpec:
    run: Runner | None = None
    """An op that needs no decision."""
    choices: Choices | None = None
    """An op that needs one: the values its chooser may answer with ([] aborts the frame)."""
    resolve: Resolver | None = None
    feasible: Feasible | None = None
    """Whether the op can do what it says now (a plot «не может в полной мере выполнить условие»)."""
    data: bool = True
    """Allowed in card data (engine ops are not)."""


OPS: dict[str, OpSpec] = {}


def register(name: str, spec: OpSpec) -> None:
    OPS[name] = spec


def seats(frame: Frame | int, who: str) -> list[int]:
    me = frame.controller if isinstance(frame, Frame) else frame
    return {"self": [me], "opp": [rules.other(me)], "both": [me, rules.other(me)],
            "any": [me, rules.other(me)]}[who]


def chooser_of(frame: Frame, op: Op) -> int:
    return seats(frame, op.get("chooser", "self"))[0]


# ---- counters and cards -------------------------------------------------------------------
def amount(s: State, me: int, op: Op) -> int:
    """``n``, or ``n`` for each counted thing when the op says ``per`` (``own_territories``,
    ``opp_territories``, ``own_agents``, ``opp_agents``), counted from the controller's side."""
    per = op.get("per")
    if per is None:
        return int(op["n"])
    side, what = per.split("_", 1)
    seat = me if side == "own" else rules.other(me)
    count = len(rules.territories(s, seat)) if what == "territories" else len(rules.agents(s, seat))
    return int(op["n"]) * count


def _gain(s: State, f: Frame, op: Op, ev: Events) -> None:
    for seat in seats(f, op["who"]):
        rules.gain(s, seat, op["res"], amount(s, f.controller, op), ev)


def _lose(s: State, f: Frame, op: Op, ev: Events) -> None:
    for seat in seats(f, op["who"]):
        rules.lose(s, seat, op["res"], amount(s, f.controller, op), ev)


def _draw(s: State, f: Frame, op: Op, ev: Events) -> None:
    for seat in seats(f, op["who"]):
        rules.draw(s, seat, op.get("archive", "main"), op["n"], ev)


def _draw_ok(s: State, me: int, op: Op) -> bool:
    return all(len(getattr(s.players[seat], op.get("archive", "main"))) >= op["n"] for seat in seats(me, op["who"]))


def archive_ref(s: State, f: Frame, ref: str) -> tuple[int, str]:
    value = f.vars.get(ref, ref)
    who, zone = str(value).split(".")
    seat = int(who) if who.isdigit() else seats(f, who)[0]
    return seat, zone


def _mill(s: State, f: Frame, op: Op, ev: Events) -> None:
    seat, zone = archive_ref(s, f, op["archive"])
    pile: list[str] = getattr(s.players[seat], zone)
    for _ in range(min(op["n"], len(pile))):
        uid = pile[-1]
        rules.to_utility(s, uid, ev)


def _mill_ok(s: State, me: int, op: Op) -> bool:
    """``exact``: the archive holds all ``n`` cards; otherwise at least one (a named archive; an archive
    chosen by a ``target`` is checked by that target)."""
    if op["archive"] not in ("self.main", "self.extra", "opp.main", "opp.extra"):
        return True
    seat, zone = archive_ref(s, Frame(me, None, []), op["archive"])
    return len(getattr(s.players[seat], zone)) >= (op["n"] if op.get("exact") else 1)


def _move_top(s: State, f: Frame, op: Op, ev: Events) -> None:
    seat, zone = archive_ref(s, f, op["archive"])
    p = s.players[seat]
    src: list[str] = getattr(p, zone)
    dst: list[str] = getattr(p, op["to"])
    moved = [src.pop() for _ in range(min(op["n"], len(src)))]
    dst.extend(moved)
    ev.append({"type": "bam.move_top", "seat": seat, "from": zone, "to_archive": op["to"], "n": len(moved)})


# ---- targets ------------------------------------------------------------------------------
def candidates(s: State, me: int, op: Op) -> list[Any]:
    owners = seats(me, op.get("owner", "any"))
    kind = op["kind"]
    if kind == "territory":
        return [t.uid for _, t in rules.territories(s) if t.owner in owners]
    if kind == "agent":  # ``hidden``: only agents not yet exposed
        return [a.uid for i, a in rules.agents(s) if a.owner in owners
                and not (op.get("hidden") and rules.exposed(s, i, a))]
    if kind in ("object", "buffer_card"):
        found = [o.uid for _, o in rules.field_objects(s) if o.owner in owners] if kind == "object" else []
        return found + [b.uid for seat in owners for b in s.players[seat].buffer]
    if kind == "utility_card":
        seen: dict[str, str] = {}
        for seat in owners:
            for uid in s.players[seat].utility:
                seen.setdefault(s.cards[uid], uid)
        return sorted(seen.values())
    if kind == "archive":
        zones = [op["archive"]] if "archive" in op else ["main", "extra"]
        return [f"{seat}.{z}" for seat in owners for z in zones if getattr(s.players[seat], z)]
    raise ValueError(kind)


def _target_choices(s: State, f: Frame, op: Op) -> list[Any]:
    return candidates(s, f.controller, op)


def _target_resolve(s: State, f: Frame, op: Op, value: Any, ev: Events) -> None:
    f.vars[op["as"]] = value


def field_target(s: State, f: Frame, name: str) -> tuple[int, Any] | None:
    """The field object a variable names (``host`` names a cell: its territory)."""
    value = f.vars.get(name)
    if name == "host" and isinstance(value, int):
        t = s.field[value].territory
        return (value, t) if t is not None else None
    if value is None:
        return None
    return rules.find_field(s, value)


def _loyalty(s: State, f: Frame, op: Op, ev: Events) -> None:
    found = field_target(s, f, op["target"])
    if found is not None and found[1].kind == "territory":
        rules.change_loyalty(s, found[1], op["n"], ev)


def _to_utility(s: State, f: Frame, op: Op, ev: Events) -> None:
    uid = f.vars.get(op["target"])
    if uid is not None and (rules.find_field(s, uid) or rules.find_buffer(s, uid)):
        rules.to_utility(s, uid, ev)


def _to_buffer(s: State, f: Frame, op: Op, ev: Events) -> None:
    uid = f.vars.get(op["target"])
    p = s.players[f.controller]
    if uid in p.utility and len(p.buffer) < rules.BUFFER_SLOTS:
        p.utility.remove(uid)
        rules.to_buffer(s, f.controller, uid, [], ev)  # «карты из утиля перемещаются в буфер без активных символов»


def _symbols_of(s: State, f: Frame, name: str) -> list[str] | None:
    uid = f.vars.get(name)
    if uid is None:
        return None
    found = rules.find_field(s, uid)
    if found is not None:
        return found[1].symbols
    slot = rules.find_buffer(s, uid)
    return slot[1].symbols if slot is not None else None


def _restore_symbols(s: State, f: Frame, op: Op, ev: Events) -> None:
    syms = _symbols_of(s, f, op["target"])
    found = rules.find_field(s, f.vars[op["target"]])
    if syms is not None and not (found and rules.face_down(s, found[1])):  # a face-down card shows none
        syms[:] = list(rules.card_of(s, f.vars[op["target"]]).symbols)
        ev.append({"type": "bam.symbols", "code": s.cards[f.vars[op["target"]]], "symbols": list(syms)})


def _clear_symbols(s: State, f: Frame, op: Op, ev: Events) -> None:
    syms = _symbols_of(s, f, op["target"])
    if syms is not None:
        syms.clear()
        ev.append({"type": "bam.symbols", "code": s.cards[f.vars[op["target"]]], "symbols": []})


# ---- control flow ---------------------------------------------------------------------------
def ops_feasible(s: State, me: int, ops: list[Op] | tuple[Op, ...]) -> bool:
    """Whether every op can do what it says now (variables are assumed bound by earlier targets)."""
    for op in ops:
        spec = OPS[op["op"]]
        if spec.feasible is not None and not spec.feasible(s, me, op):
            return False
    return True


def _choose_choices(s: State, f: Frame, op: Op) -> list[Any]:
    return [i for i, o in enumerate(op["options"]) if ops_feasible(s, f.controller, o["ops"])]


def _choose_resolve(s: State, f: Frame, op: Op, value: Any, ev: Events) -> None:
    option = op["options"][value]
    ev.append({"type": "bam.chose", "seat": chooser_of(f, op), "key": option["key"]})
    f.ops[0:0] = [dict(o) for o in option["ops"]]


def _choose_ok(s: State, me: int, op: Op) -> bool:
    return any(ops_feasible(s, me, o["ops"]) for o in op["options"])


def _if(s: State, f: Frame, op: Op, ev: Events) -> None:
    cond = op["cond"]
    found = field_target(s, f, cond["exposed"])
    truth = found is not None and rules.exposed(s, found[0], found[1])
    f.ops[0:0] = [dict(o) for o in (op["then"] if truth else op.get("else", []))]


def _lose_action(s: State, f: Frame, op: Op, ev: Events) -> None:
    for seat in seats(f, op["who"]):
        s.players[seat].lost_actions += op["n"]
        ev.append({"type": "bam.lost_action", "seat": seat, "n": op["n"]})


def _discard(s: State, f: Frame, op: Op, ev: Events) -> None:
    one = {"op": "discard_one", "who": op["who"], "chooser": op.get("chooser", op["who"])}
    f.ops[0:0] = [dict(one) for _ in range(op["n"])]


def _discard_ok(s: State, me: int, op: Op) -> bool:
    return all(len(s.players[seat].hand) >= op["n"] for seat in seats(me, op["who"]))


def _discard_one_choices(s: State, f: Frame, op: Op) -> list[Any]:
    return sorted(s.players[seats(f, op["who"])[0]].hand)


def _discard_one_resolve(s: State, f: Frame, op: Op, value: Any, ev: Events) -> None:
    rules.to_utility(s, value, ev)


def _move_symbol_choices(s: State, f: Frame, op: Op) -> list[Any]:
    objs = rules.field_objects(s)
    out: list[str] = []
    for _, src in objs:
        for sym in sorted(set(src.symbols)):
            out.extend(f"{src.uid}:{sym}:{dst.uid}" for _, dst in objs if dst is not src)
    return out


def _move_symbol_resolve(s: State, f: Frame, op: Op, value: Any, ev: Events) -> None:
    src_uid, sym, dst_uid = str(value).split(":")
    src, dst = rules.find_field(s, src_uid), rules.find_field(s, dst_uid)
    if src is None or dst is None:
        return
    src[1].symbols.remove(sym)
    dst[1].symbols.append(sym)
    ev.append({"type": "bam.symbol_moved", "sym": sym, "from": s.cards[src_uid], "to_code": s.cards[dst_uid]})


def _move_symbol_ok(s: State, me: int, op: Op) -> bool:
    objs = rules.field_objects(s)
    return len(objs) >= 2 and any(o.symbols for _, o in objs)


def _expose_choices(s: State, f: Frame, op: Op) -> list[Any]:
    """«Если на крате написано “раскройте Агента” это означает, что вы можете повернуть Агента или переместить
    его на клетку поля без территории.» ``tap`` or a free cell; nothing if it is already exposed."""
    found = field_target(s, f, op["target"])
    if found is None or found[1].kind != "agent" or rules.exposed(s, found[0], found[1]):
        return []
    free = [i for i, c in enumerate(s.field) if c.territory is None and c.agent is None]
    return ["tap", *free]


def _expose_resolve(s: State, f: Frame, op: Op, value: Any, ev: Events) -> None:
    found = field_target(s, f, op["target"])
    assert found is not None
    cell, agent = found
    if value == "tap":
        agent.tapped = True
    else:
        s.field[cell].agent = None
        terr = s.field[cell].territory
        if terr is not None and terr.owner == agent.owner:
            rules.change_loyalty(s, terr, -1, ev)
        s.field[value].agent = agent
    ev.append({"type": "bam.exposed", "seat": agent.owner, "code": s.cards[agent.uid]})


register("gain", OpSpec(run=_gain))
register("lose", OpSpec(run=_lose))
register("draw", OpSpec(run=_draw, feasible=_draw_ok))
register("mill", OpSpec(run=_mill, feasible=_mill_ok))
register("move_top", OpSpec(run=_move_top))
register("target", OpSpec(choices=_target_choices, resolve=_target_resolve,
                          feasible=lambda s, me, op: bool(candidates(s, me, op))))
register("loyalty", OpSpec(run=_loyalty))
register("to_utility", OpSpec(run=_to_utility))
register("to_buffer", OpSpec(run=_to_buffer))
register("restore_symbols", OpSpec(run=_restore_symbols))
register("clear_symbols", OpSpec(run=_clear_symbols))
register("choose", OpSpec(choices=_choose_choices, resolve=_choose_resolve, feasible=_choose_ok))
register("if", OpSpec(run=_if))
register("lose_action", OpSpec(run=_lose_action))
register("discard", OpSpec(run=_discard, feasible=_discard_ok))
register("discard_one", OpSpec(choices=_discard_one_choices, resolve=_discard_one_resolve, data=False))
register("expose", OpSpec(choices=_expose_choices, resolve=_expose_resolve))
register("move_symbol", OpSpec(choices=_move_symbol_choices, resolve=_move_symbol_resolve,
                               feasible=_move_symbol_ok))


# ---- legality of the symbol-pair effects (the rulebook's chapter, as data predicates) ---------
def _nonempty_archive(s: State, zones: tuple[str, ...]) -> bool:
    return any(getattr(p, z) for p in s.players for z in zones)


PREDICATES: dict[str, Callable[[State, int, dict[str, Any]], bool]] = {
    "always": lambda s, me, a: True,
    "any_archive": lambda s, me, a: _nonempty_archive(s, ("main", "extra")),
    "no_zero_trust": lambda s, me, a: all(p.trust > 0 for p in s.players),
    "main_archive_at_least": lambda s, me, a: len(s.players[me].main) >= a["n"],
    # house rule: a full buffer has nowhere to put the card
    "utility_to_buffer": lambda s, me, a: bool(s.players[me].utility) and len(s.players[me].buffer) < rules.BUFFER_SLOTS,
    "any_object": lambda s, me, a: bool(rules.field_objects(s)) or any(p.buffer for p in s.players),
    "any_extra_archive": lambda s, me, a: _nonempty_archive(s, ("extra",)),
    "both_have_territory": lambda s, me, a: bool(rules.territories(s, me)) and bool(
        rules.territories(s, rules.other(me))),
    "opp_hand_at_least": lambda s, me, a: len(s.players[rules.other(me)].hand) >= a["n"],
    "any_buffer_card": lambda s, me, a: any(p.buffer for p in s.players),
    "any_agent": lambda s, me, a: bool(rules.agents(s)),
}


def pair_legal(s: State, me: int, effect: data.PairEffect) -> bool:
    pred = effect.legal
    return PREDICATES[pred["pred"]](s, me, pred)


# ---- the interpreter --------------------------------------------------------------------------
def asked(s: State) -> int | None:
    """The seat the effect stack asks a question now (its answers are :func:`pending`'s), or None."""
    if not s.stack or not s.stack[-1].ops:
        return None
    f = s.stack[-1]
    op = f.ops[0]
    return None if OPS[op["op"]].choices is None else chooser_of(f, op)


def pending(s: State) -> tuple[int, list[Any]] | None:
    """The open decision of the effect stack: (chooser seat, values), or None when nothing waits."""
    if not s.stack or not s.stack[-1].ops:
        return None
    f = s.stack[-1]
    op = f.ops[0]
    spec = OPS[op["op"]]
    if spec.choices is None:
        return None
    return chooser_of(f, op), spec.choices(s, f, op)


def answer(s: State, seat: int, value: Choice, ev: Events) -> None:
    waiting = pending(s)
    if waiting is None or waiting[0] != seat or value not in waiting[1]:
        raise IllegalAction("bam.err.not_a_choice")
    f = s.stack[-1]
    op = f.ops.pop(0)
    spec = OPS[op["op"]]
    assert spec.resolve is not None
    spec.resolve(s, f, op, value, ev)
    run(s, ev)


def run(s: State, ev: Events) -> None:
    """Run ops until the stack is empty, a seat must choose, or the game is over.

    A decision with exactly one possible answer is taken at once. A card's decision with none ends its
    frame (house rule: an effect whose target has gone does the rest of nothing); an engine step with none
    is simply skipped.
    """
    while s.stack and s.result is None:
        f = s.stack[-1]
        if not f.ops:
            s.stack.pop()
            continue
        op = f.ops[0]
        spec = OPS[op["op"]]
        if spec.choices is not None:
            values = spec.choices(s, f, op)
            if not values:
                if spec.data:
                    f.ops.clear()
                else:  # an engine step with nothing to decide (no agent to move, no card to discard)
                    f.ops.pop(0)
                continue
            if len(values) == 1:
                f.ops.pop(0)
                assert spec.resolve is not None
                spec.resolve(s, f, op, values[0], ev)
                continue
            return
        f.ops.pop(0)
        assert spec.run is not None
        spec.run(s, f, op, ev)
    if s.result is not None:
        s.stack.clear()
