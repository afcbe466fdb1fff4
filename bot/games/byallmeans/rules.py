"""Rule primitives over the state: counters, finding and moving cards, field queries and placement.

Everything that changes the state goes through here so that the rulebook's side rules (a shortfall
costs trust, reputation over 21 costs trust, negative loyalty costs reputation, a card never enters the
opponent's zones, influence follows control) hold whoever triggers the change. Functions append events
to ``ev``; triggered abilities are pushed as :class:`Frame` s and run by ``effects.run``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.games.byallmeans import board, data
from bot.games.byallmeans.state import BufferSlot, FieldObj, Frame, State
from bot.games.byallmeans.vocab import Events, Outcome

REP_CAP = 21
BUFFER_SLOTS = 2
MAX_AGENTS = 2
WIN_INFLUENCE = 10


def other(seat: int) -> int:
    return 1 - seat


def owner_of(uid: str) -> int:
    return int(uid.split(".", 1)[0])


def card_of(s: State, uid: str) -> data.CardDef:
    return data.card(s.cards[uid])


# ---- counters ------------------------------------------------------------------------------
def gain(s: State, seat: int, res: str, n: int, ev: Events) -> None:
    """Gain ``n`` of ``rep``, ``inf`` or ``trust``.

    «каждый раз, когда вы получаете репутацию, превышающую значение 21, вы теряете столько единиц
    доверия, на сколько вы превысили это значение» (house rule: only the part of *this* gain above 21).
    """
    if n <= 0:
        return
    p = s.players[seat]
    if res == "rep":
        old = p.rep
        p.rep += n
        ev.append({"type": "bam.gain", "seat": seat, "res": res, "n": n})
        excess = p.rep - max(old, REP_CAP)
        if excess > 0:
            ev.append({"type": "bam.excess", "seat": seat, "n": excess})
            lose(s, seat, "trust", excess, ev)
    elif res == "inf":
        p.inf += n
        ev.append({"type": "bam.gain", "seat": seat, "res": res, "n": n})
    elif res == "trust":
        p.trust += n
        ev.append({"type": "bam.gain", "seat": seat, "res": res, "n": n})
    else:
        raise ValueError(res)


def lose(s: State, seat: int, res: str, n: int, ev: Events) -> None:
    """Lose ``n``: «Каждый раз, когда вы должны потерять репутацию или влияние, но их недостаточно для
    потери, вы теряете столько единиц доверия, сколько не хватило». Trust stops at 0."""
    if n <= 0:
        return
    p = s.players[seat]
    if res == "trust":
        taken = min(p.trust, n)
        p.trust -= taken
        ev.append({"type": "bam.lose", "seat": seat, "res": res, "n": taken})
        return
    have = p.rep if res == "rep" else p.inf
    taken = min(have, n)
    if res == "rep":
        p.rep -= taken
    elif res == "inf":
        p.inf -= taken
    else:
        raise ValueError(res)
    ev.append({"type": "bam.lose", "seat": seat, "res": res, "n": taken})
    if n > taken:
        lose(s, seat, "trust", n - taken, ev)


def pay(s: State, seat: int, cost: int, ev: Events) -> None:
    """A price is paid with reputation, never more than the seat has (checked by the caller)."""
    if cost > 0:
        s.players[seat].rep -= cost
        ev.append({"type": "bam.pay", "seat": seat, "n": cost})


# ---- finding things ------------------------------------------------------------------------
def field_objects(s: State) -> list[tuple[int, FieldObj]]:
    return [(i, o) for i, cell in enumerate(s.field) for o in cell.objects()]


def find_field(s: State, uid: str) -> tuple[int, FieldObj] | None:
    for i, cell in enumerate(s.field):
        for o in cell.objects():
            if o.uid == uid:
                return i, o
    return None


def find_buffer(s: State, uid: str) -> tuple[int, BufferSlot] | None:
    for seat, p in enumerate(s.players):
        for slot in p.buffer:
            if slot.uid == uid:
                return seat, slot
    return None


def territories(s: State, seat: int | None = None) -> list[tuple[int, FieldObj]]:
    return [(i, c.territory) for i, c in enumerate(s.field)
            if c.territory is not None and (seat is None or c.territory.owner == seat)]


def agents(s: State, seat: int | None = None) -> list[tuple[int, FieldObj]]:
    return [(i, c.agent) for i, c in enumerate(s.field)
            if c.agent is not None and (seat is None or c.agent.owner == seat)]


def on_own_territory(s: State, cell: int, seat: int) -> bool:
    t = s.field[cell].territory
    return t is not None and t.owner == seat


def exposed(s: State, cell: int, agent: FieldObj) -> bool:
    """«Агент является раскрытым, когда повернут и/или когда находится на клетке поля без вашей территории.»"""
    return agent.tapped or not on_own_territory(s, cell, agent.owner)


def reckless(s: State, cell: int, agent: FieldObj) -> bool:
    """Recklessness: the turn it came in (unless operative), and always on a cell without its territory."""
    if not on_own_territory(s, cell, agent.owner):
        return True
    return agent.entered == s.turn.number and not card_of(s, agent.uid).operative


def face_down(s: State, obj: FieldObj) -> bool:
    """A graffigent played «рубашкой вверх»: a graffiti, «теряя тип Агента-Граффигента»."""
    return obj.kind == "graffiti" and card_of(s, obj.uid).type == "graffigent"


@cache
def _statics(code: str) -> tuple[dict[str, Any], ...]:
    return tuple(m for ability in data.card(code).abilities if ability.when == "static" for m in ability.mods)


def static_mods(s: State, stat: str) -> list[tuple[FieldObj, dict[str, Any]]]:
    """The modifiers of ``stat`` that static abilities («Статический эффект объекта, находящегося на поле»)
    of the objects on the field apply now. A face-down graffigent has no abilities."""
    out: list[tuple[FieldObj, dict[str, Any]]] = []
    for cell in s.field:
        for o in (cell.territory, cell.graffiti, cell.agent, cell.plot):
            if o is None:
                continue
            mods = _statics(s.cards[o.uid])
            if mods and not face_down(s, o):
                out.extend((o, m) for m in mods if m["stat"] == stat)
    return out


def _agent_mod(src: FieldObj, mod: dict[str, Any], agent: FieldObj) -> int:
    scope = mod.get("scope", "this")
    if scope == "this":
        return mod["n"] if src is agent else 0
    if scope == "own_agents":
        return mod["n"] if src.owner == agent.owner else 0
    if scope == "opp_agents":
        return mod["n"] if src.owner != agent.owner else 0
    raise ValueError(scope)


def efficiency(s: State, agent: FieldObj) -> int:
    """«Если под вашим контролем на поле есть любой другой Агент или Агент-Граффигент, то Агент-Граффигент
    имеет на одну единицу эффективности больше.» Static abilities add to it; never below 0."""
    card = card_of(s, agent.uid)
    bonus = card.type == "graffigent" and any(a is not agent for _, a in agents(s, agent.owner))
    mods = sum(_agent_mod(src, m, agent) for src, m in static_mods(s, "efficiency"))
    return max(0, card.efficiency + int(bonus) + mods)


def resilience(s: State, agent: FieldObj) -> int:
    """«Если на поле под вашим контролем есть граффити, то Агент-Граффигент имеет на одну единицу стойкости
    больше.» Static abilities add to it; never below 0."""
    card = card_of(s, agent.uid)
    bonus = card.type == "graffigent" and any(c.graffiti is not None and c.graffiti.owner == agent.owner
                                              for c in s.field)
    mods = sum(_agent_mod(src, m, agent) for src, m in static_mods(s, "resilience"))
    return max(0, card.resilience + int(bonus) + mods)


def price(s: State, seat: int, card: data.CardDef, zone: str) -> int | None:
    """The price of playing ``card`` from ``zone`` (``hand``: X, ``buffer``: Y) for ``seat``: the printed
    one (None is the dash) changed by static price modifiers, never below 0."""
    base = card.cost[0 if zone == "hand" else 1]
    if base is None:
        return None
    for src, m in static_mods(s, "price"):
        mine = src.owner == seat
        if (m.get("who", "self") == "self") == mine and (not m.get("types") or card.type in m["types"]):
            base += m["n"]
    return max(0, base)


def placement_ok(s: State, seat: int, card: data.CardDef, cell: int | None) -> bool:
    """The placement conditions printed on the card («соблюдая условия его вывода, указанные на карте»;
    graffiti «если это не противоречит написанному на карте»)."""
    for req in card.requires:
        cond = req["cond"]
        terr = s.field[cell].territory if cell is not None else None
        if cond == "own_territories" and len(territories(s, seat)) < req["n"]:
            return False
        if cond == "agent_on_field" and not agents(s, seat):
            return False
        if cond in ("own_territory_cell", "own_territory") and (terr is None or terr.owner != seat):
            return False
        if cond == "opp_territory" and (terr is None or terr.owner == seat):
            return False
        if cond == "min_rep" and s.players[seat].rep < req["n"]:
            return False
        if cond == "opp_agents" and len(agents(s, other(seat))) < req["n"]:
            return False
    return True


# ---- loyalty -------------------------------------------------------------------------------
def change_loyalty(s: State, terr: FieldObj, n: int, ev: Events) -> None:
    """«Если верность территории получает минусовое значение, то контролирующий ее игрок СРАЗУ после этого
    теряет количество единиц репутации равное минусовому значению» (house rule: the newly negative part)."""
    if n == 0:
        return
    old = terr.loyalty
    terr.loyalty += n
    ev.append({"type": "bam.loyalty", "uid": terr.uid, "code": s.cards[terr.uid], "n": n})
    below = max(0, -terr.loyalty) - max(0, -old)
    if below > 0:
        lose(s, terr.owner, "rep", below, ev)


def overpopulation(s: State, seat: int) -> int:
    """«если верность семь, то две и т.д.»: one reputation per point of loyalty above five."""
    return sum(max(0, t.loyalty - 5) for _, t in territories(s, seat))


# ---- moving cards --------------------------------------------------------------------------
def take(s: State, uid: str) -> str:
    """Remove ``uid`` from wherever it is (not the field) and name the zone it came from."""
    for p in s.players:
        for zone in ("hand", "main", "extra", "utility"):
            pile: list[str] = getattr(p, zone)
            if uid in pile:
                pile.remove(uid)
                return zone
        for slot in p.buffer:
            if slot.uid == uid:
                p.buffer.remove(slot)
                return "buffer"
    for entry in s.neutral:
        if entry.uid == uid:
            s.neutral.remove(entry)
            return "neutral"
    raise KeyError(uid)


def draw(s: State, seat: int, archive: str, n: int, ev: Events) -> int:
    """Draw up to ``n`` cards from the top of an archive into the hand; returns how many."""
    p = s.players[seat]
    pile: list[str] = getattr(p, archive)
    got = [pile.pop() for _ in range(min(n, len(pile)))]
    p.hand.extend(got)
    if got:
        ev.append({"type": "bam.draw", "seat": seat, "archive": archive, "n": len(got)})
        ev.append({"type": "bam.drew", "to": [seat], "codes": [s.cards[u] for u in got]})
    return len(got)


def to_utility(s: State, uid: str, ev: Events) -> None:
    """Send a card to its owner's utility pile from anywhere.

    «Если ваша карта должна попасть в руку или утиль соперника, вместо этого она отправляется в ваш
    утиль»: the pile is always the owner's. A card leaving the field undoes what its presence did
    (influence, an agent's extra loyalty) and fires its «попадает в утиль» abilities.
    """
    found = find_field(s, uid)
    if found is not None and found[1].shadows:
        # «Когда Агент с тенью должен отправиться в утиль, вместо этого в утиль отправляется карта, ставшая тенью.»
        shadow = found[1].shadows.pop()
        for sym in card_of(s, shadow).symbols:
            if sym in found[1].symbols:
                found[1].symbols.remove(sym)
        s.players[owner_of(shadow)].utility.append(shadow)
        ev.append({"type": "bam.utility", "code": s.cards[shadow], "seat": owner_of(shadow), "from": "field"})
        return
    if found is not None:
        leave_field(s, found[0], found[1], ev)
        zone = "field"
    else:
        zone = take(s, uid)
    s.players[owner_of(uid)].utility.append(uid)
    # ``from``: the zone it left (``hand``, ``main``, ``extra``, ``buffer``, ``field``...), so a reader can
    # tell a card discarded from a hand or milled from an archive (the catch-up's "cards taken from you")
    ev.append({"type": "bam.utility", "code": s.cards[uid], "seat": owner_of(uid), "from": zone})
    if found is not None and found[1].kind == "agent":
        # «Когда один из этих Агентов с поля отправляется в утиль, второй также отправляется в утиль.»
        for _, twin in doubles(s, found[1]):
            to_utility(s, twin.uid, ev)


def doubles(s: State, agent: FieldObj) -> list[tuple[int, FieldObj]]:
    """«Если под контролем соперника есть такой же Агент, как и под вашим контролем, такой Агент считается
    двойным.»"""
    code = s.cards[agent.uid]
    return [(i, a) for i, a in agents(s, other(agent.owner)) if s.cards[a.uid] == code]


def twin_of(s: State, seat: int, code: str) -> FieldObj | None:
    """The agent of ``code`` that ``seat`` already controls (a new copy becomes its shadow)."""
    return next((a for _, a in agents(s, seat) if s.cards[a.uid] == code), None)


def leave_field(s: State, cell: int, obj: FieldObj, ev: Events) -> None:
    c = s.field[cell]
    card = card_of(s, obj.uid)
    if obj is c.agent:
        c.agent = None
        if c.territory is not None and c.territory.owner == obj.owner:
            change_loyalty(s, c.territory, -1, ev)
    elif obj is c.plot:
        c.plot = None
    elif obj is c.graffiti:
        c.graffiti = None
        if obj.kind == "graffiti" and card.type == "graffigent" and c.territory is not None:
            change_loyalty(s, c.territory, -1, ev)
    elif obj is c.territory:
        c.territory = None
        reverse_influence(s, obj, card, ev)
        if c.plot is not None:  # a lasting plot stays only while its territory does
            to_utility(s, c.plot.uid, ev)
        g = c.graffiti
        if g is not None and face_down(s, g) and c.agent is None and len(agents(s, g.owner)) < MAX_AGENTS:
            # «Если такая граффити оказывается на свободной клетке … она переворачивается и становится
            # Агентом-Граффигентом»
            c.graffiti = None
            c.agent = FieldObj(g.uid, g.owner, "agent", list(card_of(s, g.uid).symbols), entered=s.turn.number)
            ev.append({"type": "bam.flipped", "seat": g.owner, "code": s.cards[g.uid], "cell": cell})
        elif g is not None:  # house rule: a graffiti never stands without a territory
            to_utility(s, g.uid, ev)
    if not face_down(s, obj):  # a face-down graffigent has no abilities (house rule 25)
        for ability in card.abilities_when("leave"):
            s.stack.append(Frame(obj.owner, obj.uid, list(ability.ops)))


def reverse_influence(s: State, obj: FieldObj, card: data.CardDef, ev: Events) -> None:
    """«Если вы теряете контроль над объектом, происходит обратное действие.»"""
    if card.influence > 0:
        lose(s, obj.owner, "inf", card.influence, ev)
    elif card.influence < 0:
        gain(s, other(obj.owner), "inf", -card.influence, ev)


def to_buffer(s: State, seat: int, uid: str, symbols: list[str], ev: Events) -> None:
    p = s.players[seat]
    if len(p.buffer) >= BUFFER_SLOTS:
        raise ValueError("buffer full")
    p.buffer.append(BufferSlot(uid, list(symbols)))
    ev.append({"type": "bam.buffered", "seat": seat, "code": s.cards[uid], "symbols": list(symbols)})


def fire(s: State, when: str, seat: int, exclude: str | None = None) -> None:
    """Conditional triggers («↗»): the field cards of ``seat`` with abilities ``when``, in the order their
    controller picks (``pick_trigger``), pushed as one frame."""
    left = [o.uid for _, o in field_objects(s) if o.owner == seat and o.uid != exclude and not face_down(s, o)
            and card_of(s, o.uid).abilities_when(when)]
    if left:
        s.stack.append(Frame(seat, None, [{"op": "pick_trigger", "when": when, "left": left}]))


# ---- placement -----------------------------------------------------------------------------
def territory_cells(s: State) -> list[int]:
    """Cells a new territory may take: a central cell for the very first one, then any cell without a
    territory next to a territory (either player's)."""
    if not territories(s):
        return list(board.CENTRAL_CELLS)
    return [i for i in board.all_cells() if s.field[i].territory is None
            and any(s.field[n].territory is not None for n in board.neighbours(i))]


def agent_cells(s: State, seat: int) -> list[int]:
    """«Агенты могут быть размещены как на Вашей территории, так и на любой пустой клетке поля»; never two
    agents on one cell."""
    return [i for i in board.all_cells() if s.field[i].agent is None
            and ((ter := s.field[i].territory) is None or ter.owner == seat)]


def graffiti_cells(s: State) -> list[int]:
    """«Размещается только на территории … На одной территории может быть только одна граффити.»"""
    return [i for i in board.all_cells() if s.field[i].territory is not None and s.field[i].graffiti is None]


def place_territory(s: State, seat: int, uid: str, cell: int, symbols: list[str], ev: Events) -> None:
    """«Порядок срабатывания эффектов при выходе территории на поле»: impacts, then influence, then the
    card's # abilities; then an agent of the owner on another of its territories may move in."""
    card = card_of(s, uid)
    terr = FieldObj(uid, seat, "territory", list(symbols), card.loyalty, entered=s.turn.number)
    c = s.field[cell]
    c.territory = terr
    ev.append({"type": "bam.placed", "seat": seat, "code": s.cards[uid], "cell": cell})
    if c.agent is not None:
        if c.agent.owner == seat:  # «Агент разворачивается» and the territory counts it
            c.agent.tapped = False
            terr.loyalty += 1
        else:  # «Если на клетку с вашим Агентом устанавливается территория соперника … в утиль»
            to_utility(s, c.agent.uid, ev)
    # 1. impacts both ways
    for n in board.arrow_targets(cell, card.arrows, seat):
        t = s.field[n].territory
        if t is not None:
            change_loyalty(s, t, card.ally if t.owner == seat else card.enemy, ev)
    for n in board.neighbours(cell):
        t = s.field[n].territory
        if t is not None and t is not terr and cell in board.arrow_targets(n, card_of(s, t.uid).arrows, t.owner):
            other_card = card_of(s, t.uid)
            change_loyalty(s, terr, other_card.ally if t.owner == seat else other_card.enemy, ev)
    # 2. influence
    if card.influence > 0:
        gain(s, seat, "inf", card.influence, ev)
    elif card.influence < 0:
        lose(s, other(seat), "inf", -card.influence, ev)
    # 3. # abilities, then the offer to move an agent in; then (pushed first, so run after) the controller's
    # cards that trigger on a territory of theirs entering
    fire(s, "own_territory_enters", seat, exclude=uid)
    ops: list[dict[str, Any]] = [dict(op) for a in card.abilities_when("enter") for op in a.ops]
    ops.append({"op": "offer_move", "cell": cell})
    s.stack.append(Frame(seat, uid, ops, {"this": uid, "host": cell}))


def add_shadow(s: State, agent: FieldObj, uid: str, symbols: list[str], ev: Events) -> None:
    """«тот Агент, который попал под ваш контроль позже(2), становится тенью Агента(1)… Символы тени
    переносятся на Агента, получившего тень. Параметры Агента с тенью не меняются.»"""
    agent.shadows.append(uid)
    agent.symbols.extend(symbols)
    ev.append({"type": "bam.shadow", "seat": agent.owner, "code": s.cards[uid]})


def place_agent(s: State, seat: int, uid: str, cell: int, symbols: list[str], ev: Events) -> None:
    card = card_of(s, uid)
    agent = FieldObj(uid, seat, "agent", list(symbols), entered=s.turn.number)
    c = s.field[cell]
    c.agent = agent
    ev.append({"type": "bam.placed", "seat": seat, "code": s.cards[uid], "cell": cell})
    if c.territory is not None and c.territory.owner == seat:
        change_loyalty(s, c.territory, 1, ev)
    ops = [dict(op) for a in card.abilities_when("enter") for op in a.ops]
    if ops:
        s.stack.append(Frame(seat, uid, ops, {"this": uid, "host": cell}))


def place_graffiti(s: State, seat: int, uid: str, cell: int, symbols: list[str], ev: Events) -> None:
    """A graffiti, or a graffigent face down: that one shows no symbols and no abilities (house rule) and
    gives its territory +1 loyalty («верность территории с этой граффити будет повышена на одну единицу»)."""
    card = card_of(s, uid)
    hidden = card.type == "graffigent"
    obj = FieldObj(uid, seat, "graffiti", [] if hidden else list(symbols), entered=s.turn.number)
    s.field[cell].graffiti = obj
    if hidden:  # the rival must not learn the card: its code goes only to its owner
        ev.append({"type": "bam.face_down", "seat": seat, "cell": cell})
        ev.append({"type": "bam.placed", "seat": seat, "code": s.cards[uid], "cell": cell, "to": [seat]})
    else:
        ev.append({"type": "bam.placed", "seat": seat, "code": s.cards[uid], "cell": cell})
    if hidden:
        terr = s.field[cell].territory
        assert terr is not None
        change_loyalty(s, terr, 1, ev)
        return
    ops = [dict(op) for a in card.abilities_when("enter") for op in a.ops]
    if ops:
        s.stack.append(Frame(seat, uid, ops, {"this": uid, "host": cell}))


def plot_cells(s: State, seat: int, attach: str) -> list[int]:
    """Territories a lasting plot may stay attached to: ``self``, ``opp`` or ``any`` owner, one plot each."""
    owners = {"self": (seat,), "opp": (other(seat),), "any": (0, 1)}[attach]
    return [i for i, t in territories(s) if t.owner in owners and s.field[i].plot is None]


def place_plot(s: State, seat: int, uid: str, cell: int, ev: Events) -> None:
    """A lasting plot leaves the neutral zone for the field, attached to the territory on ``cell``."""
    s.field[cell].plot = FieldObj(uid, seat, "plot", [], entered=s.turn.number)
    ev.append({"type": "bam.attached", "seat": seat, "code": s.cards[uid], "cell": cell})


# ---- victory -------------------------------------------------------------------------------
def status(s: State) -> Outcome | None:
    """«ПРОВЕРКА СТАТУСА ИГРЫ»: the three conditions of «Победа или проигрыш», for both seats at once.

    House rule 22: a seat meeting any condition wins; both at once is a draw. A full field of equal total
    loyalty meets no condition (l. 397 needs a higher total), so it ends the game in a draw only when
    nobody wins otherwise: 10 influence and the rival's 0 trust are wins in their own right («Если в
    момент проверки статуса игры у одного из игроков 10 или более единиц влияния, то он выигрывает
    партию», l. 383; «Если на момент проверки статуса игры доверие игрока равно нулю, он проигрывает
    партию», l. 385). Rules version 1 declared the tie first (kept for games stored under it).
    """
    wins: dict[int, list[str]] = {0: [], 1: []}
    for seat in (0, 1):
        if s.players[seat].inf >= WIN_INFLUENCE:
            wins[seat].append("influence")
        if s.players[other(seat)].trust <= 0:
            wins[seat].append("trust")
    tie = False
    if len(territories(s)) == len(s.field):
        totals = [sum(t.loyalty for _, t in territories(s, seat)) for seat in (0, 1)]
        if totals[0] != totals[1]:
            wins[0 if totals[0] > totals[1] else 1].append("loyalty")
        elif s.rules < 2:
            return {"winners": [], "draw": True, "reasons": ["loyalty_tie"]}
        else:
            tie = True
    winners = [seat for seat in (0, 1) if wins[seat]]
    if not winners:
        return {"winners": [], "draw": True, "reasons": ["loyalty_tie"]} if tie else None
    if len(winners) == 2:
        return {"winners": [], "draw": True, "reasons": sorted(set(wins[0] + wins[1]))}
    return {"winners": winners, "draw": False, "reasons": wins[winners[0]]}
