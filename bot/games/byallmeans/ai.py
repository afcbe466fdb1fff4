"""By All Means bots, reading only the seat's view (``game.view(seat)``: the public table and its own hand).

Each legal action is scored by a hand-written evaluation and the best is taken (ties broken by the bot's
random source, which comes from the game's stored Rng, so a replay repeats every choice):

* counters are valued by what they are worth towards the three victory conditions: influence towards 10,
  the rival's trust towards 0 (a reputation loss the rival cannot pay costs trust, so it is worth far more
  than one they can), reputation as the currency that prices are paid in (gains over 21 cost trust);
* a card's abilities are valued by walking their ops (:func:`ops_value`), the same data the engine runs;
  symbol and number combinations by their effect's ops less the cards they spend;
* a territory by its influence, the loyalty it will end with after the impacts of its neighbours (one that
  would be removed at the end of the turn is worth little), and what its arrows do to the cells around it;
* an Agent by its efficiency and the cover of its cell; attacks by the reputation they take, less the
  recklessness they cost; a hunt only when it removes the target;
* the decisions of effects (targets, the rival's «or» choices, where a card goes after a combination) by
  the effect ops that follow them, which the view lists.

``quick`` is the same evaluation with noise, and answers an effect's decisions at random; ``strong`` is the
evaluation as written. Nothing
hidden is read: not the rival's hand and not the order of any archive.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import Action, Event, Rng
from bot.games.byallmeans import board, data

CARD = 1.1
"""What a card in hand is worth."""
WIN = 200.0


class Ctx:
    """The view from the bot's seat, with the lookups the scorer needs."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.v = view
        self.me: int = view["me"]["seat"] if "me" in view else view["waiting"][0]
        self.opp = 1 - self.me
        self.p = view["players"]
        self.hand = {h["uid"]: h for h in view.get("me", {}).get("hand", [])}
        self.buffer = {b["uid"]: b for b in self.p[self.me]["buffer"]}
        self.objs: dict[str, tuple[int, str, dict[str, Any]]] = {}
        for i, cell in enumerate(view["field"]):
            for slot in ("territory", "graffiti", "agent", "plot"):
                o = cell[slot]
                if o is not None:
                    self.objs[o["uid"]] = (i, slot, o)

    def code(self, uid: str) -> str:
        if uid in self.hand:
            return str(self.hand[uid]["code"])
        if uid in self.buffer:
            return str(self.buffer[uid]["code"])
        for b in self.p[self.opp]["buffer"]:
            if b["uid"] == uid:
                return str(b["code"])
        if uid in self.objs:
            return str(self.objs[uid][2]["code"])
        return ""

    def territories(self, seat: int) -> list[tuple[int, dict[str, Any]]]:
        return [(i, c["territory"]) for i, c in enumerate(self.v["field"])
                if c["territory"] is not None and c["territory"]["owner"] == seat]

    def agents(self, seat: int) -> list[tuple[int, dict[str, Any]]]:
        return [(i, c["agent"]) for i, c in enumerate(self.v["field"])
                if c["agent"] is not None and c["agent"]["owner"] == seat]


# ---- counters --------------------------------------------------------------------------------------
def rep_value(c: Ctx, seat: int, n: int) -> float:
    """The worth to ``seat`` of changing its reputation by ``n`` (losses past zero cost trust)."""
    p = c.p[seat]
    rep = p["rep"]
    if n >= 0:
        excess = max(0, rep + n - 21) - max(0, rep - 21)
        per = 0.7 if rep < 8 else 0.45 if rep < 15 else 0.25
        return per * (n - excess) - trust_value(c, seat, excess)
    taken = min(rep, -n)
    short = -n - taken
    per = 0.7 if rep < 8 else 0.45 if rep < 15 else 0.3
    return -per * taken - trust_value(c, seat, short)


def trust_value(c: Ctx, seat: int, n: int) -> float:
    """Losing ``n`` trust (positive n) is worth this much to ``seat``, as a positive number."""
    if n <= 0:
        return 0.0
    trust = c.p[seat]["trust"]
    if trust - n <= 0:
        return WIN
    return n * (2.0 + 8.0 / max(1, trust - n))


def inf_value(c: Ctx, seat: int, n: int) -> float:
    inf = c.p[seat]["inf"]
    if n > 0 and inf + n >= 10:
        return WIN / 2
    if n < 0:
        taken = min(inf, -n)
        return -(2.2 * taken) - trust_value(c, seat, -n - taken)
    return n * (2.2 + 0.3 * inf)


def res_value(c: Ctx, seat: int, res: str, n: int) -> float:
    """The worth to the bot of ``seat`` changing ``res`` by ``n``."""
    sign = 1.0 if seat == c.me else -1.0
    if res == "rep":
        return sign * rep_value(c, seat, n)
    if res == "inf":
        return sign * inf_value(c, seat, n)
    if n >= 0:
        return sign * n * 2.5
    return -sign * trust_value(c, seat, -n)


# ---- effect ops ------------------------------------------------------------------------------------
def _seats(controller: int, who: str) -> list[int]:
    return {"self": [controller], "opp": [1 - controller], "both": [controller, 1 - controller],
            "any": [controller, 1 - controller]}.get(who, [controller])


def _count(c: Ctx, controller: int, op: dict[str, Any]) -> int:
    per = op.get("per")
    if per is None:
        return int(op.get("n", 0))
    side, what = per.split("_", 1)
    seat = controller if side == "own" else 1 - controller
    n = len(c.territories(seat)) if what == "territories" else len(c.agents(seat))
    return int(op.get("n", 0)) * n


def territory_worth(c: Ctx, terr: dict[str, Any]) -> float:
    card = data.card(terr["code"]) if terr["code"] else None
    return 2.0 + (2.2 * abs(card.influence) if card else 0.0) + 0.2 * terr.get("loyalty", 0)


def ops_value(c: Ctx, controller: int, ops: Sequence[dict[str, Any]], host: int | None = None) -> float:
    """The worth to the bot of running ``ops`` for ``controller``, guessing that targets are chosen well."""
    total = 0.0
    targets: dict[str, str] = {}
    ops = list(ops)
    for k, op in enumerate(ops):
        kind = op["op"]
        if kind in ("gain", "lose"):
            n = _count(c, controller, op) * (1 if kind == "gain" else -1)
            total += sum(res_value(c, seat, op["res"], n) for seat in _seats(controller, op["who"]))
        elif kind == "draw":
            for seat in _seats(controller, op["who"]):
                have = c.p[seat][op.get("archive", "main")]
                got = min(have, op["n"])
                total += (CARD if seat == c.me else -CARD) * got - (1.0 if op.get("archive", "main") == "main"
                                                                    and have - got <= 1 else 0.0)
        elif kind == "mill":
            ref = str(op["archive"])
            if ref.startswith(("self", "opp")):
                who, zone = ref.split(".")
                seat = _seats(controller, who)[0]
                gain = 0.25 * min(op["n"], c.p[seat][zone]) + (2.0 if zone == "main" and c.p[seat]["main"] <= op["n"] else 0)
                total += gain if seat != c.me else -gain
            else:
                total += 0.3 * op["n"] + (2.0 if c.p[c.opp]["main"] <= op["n"] else 0.0)
        elif kind == "move_top":
            total += 0.3
        elif kind == "target":
            name = op["as"]
            targets[name] = op["kind"] + ":" + str(op.get("owner", "any"))
            rest = [x for x in ops[k + 1:] if x.get("target") == name]
            total += _target_value(c, controller, op, rest)
        elif kind == "loyalty":
            if op["target"] == "host" and host is not None:
                terr = c.v["field"][host]["territory"]
                if terr is not None:
                    total += _loyalty_value(c, terr, op["n"])
        elif kind == "to_buffer":
            total += 0.8
        elif kind in ("restore_symbols", "clear_symbols", "move_symbol"):
            total += 0.2
        elif kind == "choose":
            values = [ops_value(c, controller, o["ops"], host) for o in op["options"]]
            chooser = _seats(controller, op.get("chooser", "self"))[0]
            total += (max(values) if chooser == c.me else min(values)) if values else 0.0
        elif kind == "if":
            total += 0.5 * (ops_value(c, controller, op["then"], host) + ops_value(c, controller, op.get("else", []), host))
        elif kind == "lose_action":
            total += sum(1.5 if seat != c.me else -1.5 for seat in _seats(controller, op["who"])) * op["n"]
        elif kind == "discard":
            total += sum(CARD if seat != c.me else -CARD for seat in _seats(controller, op["who"])) * op["n"] * 0.8
        elif kind == "expose":
            total += 0.5
    return total


def _loyalty_value(c: Ctx, terr: dict[str, Any], n: int) -> float:
    """Changing a territory's loyalty by ``n``: a fall to 0 removes it at the end of the turn."""
    mine = terr["owner"] == c.me
    new = terr.get("loyalty", 0) + n
    value = 0.0
    if new <= 0 < terr.get("loyalty", 0):
        value = -territory_worth(c, terr)
    elif n > 0 and terr.get("loyalty", 0) <= 0 < new:
        value = territory_worth(c, terr)
    else:
        value = 0.35 * n - (0.45 * max(0, new - 5) if n > 0 else 0.0)
    return value if mine else -value


def _target_value(c: Ctx, controller: int, op: dict[str, Any], rest: list[dict[str, Any]]) -> float:
    """The best (for the chooser) worth of what happens to the target the ``target`` op will bind."""
    chooser = _seats(controller, op.get("chooser", "self"))[0]
    owners = _seats(controller, op.get("owner", "any"))
    kind = op["kind"]
    values: list[float] = []
    if kind == "territory":
        for seat in owners:
            for _, terr in c.territories(seat):
                values.append(sum(_loyalty_value(c, terr, x["n"]) for x in rest if x["op"] == "loyalty"))
    elif kind == "agent":
        for seat in owners:
            for _, a in c.agents(seat):
                if op.get("hidden") and a.get("exposed"):
                    continue
                worth = 2.0 + 0.8 * a.get("efficiency", 0) + 0.3 * a.get("resilience", 0)
                gone = any(x["op"] == "to_utility" for x in rest)
                values.append((worth if gone else 0.5) * (1 if seat != c.me else -1))
    elif kind in ("buffer_card", "object"):
        for seat in owners:
            values += [(1.0 if seat != c.me else -1.0) * (1.0 if any(x["op"] == "to_utility" for x in rest) else 0.2)
                       for _ in c.p[seat]["buffer"]]
        if kind == "object":
            values += [0.2]
    elif kind == "utility_card":
        values = [1.0] if c.p[controller]["utility"] else []
    elif kind == "archive":
        values = [0.3]
    if not values:
        return 0.0
    return max(values) if chooser == c.me else min(values)


# ---- actions ---------------------------------------------------------------------------------------
def incoming(c: Ctx, seat: int, cell: int) -> int:
    """The loyalty a territory of ``seat`` placed on ``cell`` receives from the impacts of its neighbours."""
    total = 0
    for n in board.neighbours(cell):
        t = c.v["field"][n]["territory"]
        if t is None or not t["code"]:
            continue
        card = data.card(t["code"])
        if cell in board.arrow_targets(n, card.arrows, t["owner"]):
            total += card.ally if t["owner"] == seat else card.enemy
    return total


def territory_value(c: Ctx, code: str, cell: int) -> float:
    card = data.card(code)
    me = c.me
    loyalty = card.loyalty + incoming(c, me, cell)
    agent = c.v["field"][cell]["agent"]
    if agent is not None:
        loyalty += 1 if agent["owner"] == me else 0
    value = 1.5 + (inf_value(c, me, card.influence) if card.influence > 0 else -inf_value(c, c.opp, card.influence))
    if loyalty <= 0:
        value = -2.0 - (inf_value(c, me, card.influence) if card.influence > 0 else 0.0) * 0.5
    else:
        value += 0.3 * min(loyalty, 5) - 0.6 * max(0, loyalty - 5)
    for n in board.arrow_targets(cell, card.arrows, me):
        t = c.v["field"][n]["territory"]
        if t is not None:
            value += _loyalty_value(c, t, card.ally if t["owner"] == me else card.enemy)
    if agent is not None and agent["owner"] != me:
        value += 2.0 + 0.8 * agent.get("efficiency", 0)
    value += ops_value(c, me, [op for ab in card.abilities_when("enter") for op in ab.ops], cell)
    value += 0.6 * len(card.abilities_when("turn_start") + card.abilities_when("turn_end") + card.abilities_when("static"))
    value += 0.5 * len(card.abilities_when("activated"))
    return value


def agent_value(c: Ctx, code: str, cell: int | None, replace: str | None) -> float:
    card = data.card(code)
    me = c.me
    value = 1.5 + 0.9 * card.efficiency + 0.4 * card.resilience + (0.5 if card.operative else 0.0)
    value += ops_value(c, me, [op for ab in card.abilities_when("enter") for op in ab.ops], cell)
    value += 0.8 * len(card.abilities) - 0.8 * len(card.abilities_when("enter"))
    if cell is not None:
        terr = c.v["field"][cell]["territory"]
        value += 1.2 if terr is not None and terr["owner"] == me else -1.2
    if not c.agents(me):
        value += 1.5  # the additional action
    if replace is not None:
        old = c.objs.get(replace)
        value -= 2.0 + (0.9 * old[2].get("efficiency", 0) if old else 0.0)
    return value


def play_value(c: Ctx, a: Action) -> float:
    uid = a["uid"]
    code = c.code(uid)
    card = data.card(code)
    zone = "hand" if uid in c.hand else "buffer"
    price = c.hand[uid]["price"][0] if zone == "hand" else card.cost[1]
    value = rep_value(c, c.me, -(price or 0))
    if zone == "hand":
        value -= 0.3  # the card itself
    if "shadow" in a:
        return value + 0.6
    if a.get("face_down"):
        terr = c.v["field"][a["cell"]]["territory"]
        return value + 0.4 + (_loyalty_value(c, terr, 1) if terr else 0.0)
    if card.type == "territory":
        return value + territory_value(c, code, a["cell"])
    if card.is_agent:
        return value + agent_value(c, code, a.get("cell"), a.get("replace"))
    if card.type == "graffiti":
        g = ops_value(c, c.me, [op for ab in card.abilities_when("enter") for op in ab.ops], a["cell"])
        g += 1.2 * len([ab for ab in card.abilities if ab.when != "enter"])
        terr = c.v["field"][a["cell"]]["territory"]
        if terr is not None and terr["owner"] != c.me and any(ab.when == "turn_start" for ab in card.abilities):
            g += 0.5
        return value + g + 0.2
    lasting = 1.5 * len([ab for ab in card.abilities if ab.when in ("turn_start", "turn_end", "static")])
    return value + ops_value(c, c.me, [op for ab in card.abilities_when("plot") for op in ab.ops], a.get("cell")) + lasting


def spent_cards(c: Ctx, uids: Sequence[str]) -> float:
    return sum(0.5 if u in c.hand else 0.7 for u in uids)


def number_value(c: Ctx, a: Action) -> float:
    combo = data.number_combos()[a["sum"]]
    return ops_value(c, c.me, combo.ops) - spent_cards(c, a["cards"]) - 0.2 * len(a["cards"])


def symbols_value(c: Ctx, a: Action) -> float:
    srcs = [a["a"], a["b"]]
    effect = data.pair_effect(*(x.rsplit(":", 1)[1] for x in srcs))
    cost = sum(0.5 if x[0] == "h" else 0.25 for x in srcs)
    return ops_value(c, c.me, effect.ops) - cost


def agent_action_value(c: Ctx, a: Action) -> float:
    entry = c.objs.get(a["uid"])
    if entry is None:
        return 0.0
    obj = entry[2]
    eff = obj.get("efficiency", 0)
    reckless = obj.get("reckless", False)
    free = 0.4 if not c.v["turn"]["extra_used"] else 0.0
    do = a["do"]
    # once a main archive is empty the game must be closed out: cards and attacks are worth more than
    # reputation that triggers would hand back every turn (otherwise two bots can settle into a loop)
    endgame = c.p[c.me]["main"] == 0 or c.p[c.opp]["main"] == 0
    if do == "attack":
        return (free + -rep_value(c, c.opp, -eff) * 1.0 + (rep_value(c, c.me, -eff) if reckless else 0.0) - 0.2
                + (1.0 if endgame else 0.0))
    if do == "hunt":
        target = c.objs.get(a["target"])
        if target is None or eff < target[2].get("resilience", 0):
            return -1.0
        return free + 2.5 + 0.9 * target[2].get("efficiency", 0) + (rep_value(c, c.me, -eff) if reckless else 0.0)
    if do == "inform":
        return free + CARD - 0.1 + (1.5 if c.p[c.me]["main"] == 0 else 0.0)
    card = data.card(obj["code"])
    ability = next(x for x in card.abilities_when("activated") if not x.free)
    return free + ops_value(c, c.me, ability.ops, entry[0]) - 0.2


def activate_value(c: Ctx, a: Action) -> float:
    entry = c.objs.get(a["uid"])
    if entry is None:
        return 0.0
    card = data.card(entry[2]["code"])
    ability = card.abilities_when("activated")[0] if entry[1] != "agent" else next(
        x for x in card.abilities_when("activated") if x.free)
    cost = 0.0 if ability.free else 0.3
    return ops_value(c, c.me, ability.ops, entry[0]) - cost


def turn_value(c: Ctx, a: Action) -> float:
    kind = a["type"]
    if kind == "draw_main":  # the last cards of the main archive start its 3-a-turn clock
        main = c.p[c.me]["main"]
        return CARD - ((2.0 if c.hand else 0.5) if main <= 2 else 0.0)
    if kind == "skip":
        return 0.0
    if kind == "play":
        return play_value(c, a)
    if kind == "number":
        return number_value(c, a)
    if kind == "symbols":
        return symbols_value(c, a)
    if kind == "neutral":
        return 0.05
    if kind == "agent":
        return agent_action_value(c, a)
    if kind == "activate":
        return activate_value(c, a)
    if kind == "utilise":
        card = data.card(c.code(a["uid"]))
        return 0.05 if card.type == "plot" else -0.5
    if kind == "discard":
        card = data.card(c.code(a["uid"]))
        return ops_value(c, c.me, card.abilities_when("discard")[0].ops) - CARD * 0.8
    if kind == "end_turn":
        return -0.3 if c.v["turn"]["main_left"] > 0 else 0.0
    return 0.0


# ---- decisions -------------------------------------------------------------------------------------
def decision_value(c: Ctx, value: Any) -> float:
    d = c.v["decision"]
    op = d["op"]
    ctrl = d["controller"]
    if op == "choose":
        return ops_value(c, ctrl, d["option_ops"][value])
    if op == "target":
        return _bound_value(c, d, value)
    if op == "route":
        if value == "utility":
            return 0.0
        if str(value).startswith("buffer:"):
            sym = str(value)[7:]
            return 0.5 + {"coin": 0.3, "mask": 0.25, "blade": 0.2, "key": 0.1, "eye": 0.05}.get(sym, 0.0)
        return 0.5
    if op == "discard_one":  # our own hand: keep what is worth most
        code = c.code(str(value))
        card = data.card(code) if code else None
        return -(card.cost[0] or 0) - (2.0 if card and card.type == "territory" else 0.0) if card else 0.0
    if op == "expose":
        return 0.5 if value != "tap" else 0.4
    if op == "move_symbol":
        src, _, dst = str(value).split(":")
        s_owner = c.objs[src][2]["owner"] if src in c.objs else c.me
        d_owner = c.objs[dst][2]["owner"] if dst in c.objs else c.opp
        return (1.0 if s_owner != c.me else 0.0) + (1.0 if d_owner == c.me else 0.0)
    if op == "offer_move":
        if value == "stay":
            return 0.0
        entry = c.objs.get(str(value))
        return 0.5 if entry is not None and entry[2].get("tapped") else -0.1
    if op == "lost_action":
        return 1.0 if value == "extra" else 0.0
    if op == "rival_window":
        if value == "pass":
            return 0.0
        kind, _, uid = str(value).partition(":")
        card = data.card(c.code(uid))
        if kind == "discard":
            return ops_value(c, c.me, card.abilities_when("discard")[0].ops) - CARD * 0.8
        return -0.2
    return 0.0


def _bound_value(c: Ctx, d: dict[str, Any], value: Any) -> float:
    """A target's worth given the ops that follow the target step (the view lists them)."""
    ctrl = d["controller"]
    follow = d["follow"]
    sign = 1.0 if d["seat"] == c.me else -1.0
    kind = d["kind"]
    uid = str(value)
    if kind == "territory" and uid in c.objs:
        terr = c.objs[uid][2]
        n = sum(x["n"] for x in follow if x["op"] == "loyalty")
        return _loyalty_value(c, terr, n) if d["seat"] == c.me else -abs(_loyalty_value(c, terr, n))
    if kind == "agent" and uid in c.objs:
        a = c.objs[uid][2]
        worth = 2.0 + 0.8 * a.get("efficiency", 0) + 0.3 * a.get("resilience", 0) + (0.5 if a.get("exposed") else 0.0)
        return worth if a["owner"] != c.me else -worth
    if kind in ("buffer_card", "object"):
        owner = c.objs[uid][2]["owner"] if uid in c.objs else (c.me if uid in c.buffer else c.opp)
        return 1.0 if owner != c.me else -1.0
    if kind == "archive":
        seat, zone = uid.split(".")
        mine = int(seat) == c.me
        if any(x["op"] == "move_top" for x in follow):
            return (1.0 if mine else -1.0) + (0.5 if zone == "extra" else 0.0)
        return (1.0 if not mine else -1.0) + (0.5 if zone == "main" else 0.0)
    if kind == "utility_card":
        code = c.code(uid) or ""
        return 0.0 if not code else float(data.card(code).influence) + 0.1 * (data.card(code).cost[0] or 0)
    del ctrl
    return sign * 0.0


# ---- the setup -------------------------------------------------------------------------------------
def setup_value(c: Ctx, a: Action) -> float:
    kind = a["type"]
    if kind == "shuffle":
        return 1.0 if a["main"] and a["extra"] else 0.0
    if kind == "order":
        return 1.0 if a["first"] == c.me else 0.0
    if kind == "exchange":  # send back what cannot be paid for soon
        worth = 0.0
        for uid in a["cards"]:
            code = c.code(uid)
            cost = data.card(code).cost[0] if code else None
            worth += 0.5 if cost is None or cost > 5 else -0.5
        return worth
    return 0.0


class ByAllMeansBot:
    def __init__(self, level: str) -> None:
        self.level = level
        self.name = f"byallmeans-{level}"

    def choose(self, view: dict[str, Any], legal: Sequence[Action], rng: Rng,
               history: Sequence[Event] = ()) -> Action:
        c = Ctx(view)
        if self.level == "quick" and legal and legal[0]["type"] == "choose":
            return dict(rng.choice(list(legal)))  # quick: an effect's decisions at random
        noise = 1.0 if self.level == "quick" else 0.01
        best: tuple[float, int] | None = None
        for i, a in enumerate(legal):
            score = self.score(c, a) + noise * rng.random()
            if best is None or score > best[0]:
                best = (score, i)
        assert best is not None
        return dict(legal[best[1]])

    @staticmethod
    def score(c: Ctx, a: Action) -> float:
        if a["type"] == "choose":
            return decision_value(c, a["v"]) if c.v.get("decision") else 0.0
        if c.v["phase"] != "turn":
            return setup_value(c, a)
        return turn_value(c, a)


def policy(level: str) -> ByAllMeansBot:
    return ByAllMeansBot(level)
