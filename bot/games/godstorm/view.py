"""What a seat (or the public) may see of a Godstorm game: the view ``bot/games/godstorm/render.py`` draws and
the few public facts ``bot/games/godstorm/cog.py`` labels its autocomplete choices with.

Everything here is public except ``me`` (the seat's own bid, territory-card hand and armies to place),
which only that seat's view carries. Renderers and cogs read these, never ``Godstorm.s``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from bot.games.godstorm.state import State, json_copy

HEAVEN = "heaven"
EPOCHS_SHOWN = 5


class PlayerView(TypedDict):
    seat: int
    pantheon: str | None
    colour: list[int]
    faith: int
    cards: dict[str, int]
    """Miracle cards held, by deck (Godstorm); ``{"territory": n}`` in classic (the count only)."""
    territories: int
    armies: int
    """Armies on the Ancient Earth."""
    heaven: int
    underworld: int
    reserve: int
    eliminated: bool
    has_bid: bool | None
    """During the secret bid: whether the seat has bid (never the amount); None outside it."""
    relics: NotRequired[list[str]]
    """Miracle cards played: the seat's relics in play (card instance ids ``"<card id>.<copy>"``); public."""


class NeutralView(TypedDict):
    colour: list[int]
    pantheon: str | None
    heaven: int


class TerritoryView(TypedDict):
    owner: int | None
    armies: int
    gods: list[str]
    temple: bool
    plague: bool


class SpaceView(TypedDict):
    owner: int | None
    armies: int


ArrowView = TypedDict("ArrowView", {"from": str, "to": str})
BattleView = TypedDict("BattleView", {"from": str, "to": str, "dice": int, "att": str | None, "def": str | None,
                                      "rounds": int})


class MeView(TypedDict):
    seat: int
    bid: int | None
    hand: list[str]
    pending: int
    miracles: NotRequired[list[str]]
    """The seat's own miracle cards in hand (instance ids; ``miracles.card_of`` gives the card)."""
    unread: NotRequired[list[str]]
    """Cards bought this step, read when the buying ends."""
    never_answer: NotRequired[bool]
    """The seat's standing "never answer with cards" preference."""
    dice_pref: NotRequired[str]
    """The seat's standing defence-dice preference when not the default ``most`` (``one`` or ``ask``)."""
    attacks: NotRequired[list[list[str]]]
    """``[from, to]`` pairs on the Ancient Earth the seat's armies can attack from where they stand now: its
    territories with an army to spare, each linked territory not its own (links cut by sunken Atlantis or
    the maelstrom and sacred ground left out); on its own attack step exactly its legal attacks. Derived
    from public facts only (the personal board highlights them)."""


WindowView = TypedDict("WindowView", {"kind": str, "seat": int | None, "from": str | None, "to": str | None,
                                      "card": str | None, "by": int | None, "args": dict[str, Any]})


class MiraclesView(TypedDict):
    """Public facts of the played miracle cards (only in games with the ``miracles`` option on)."""

    sunk: bool
    """Atlantis has sunk (its four territories are gone; draw the sunken marker)."""
    maelstrom: list[str] | None
    """The sea link closed by the maelstrom, as two territory ids."""
    gone: int
    """Cards out of the game."""
    window: WindowView | None
    """The open response window: ``sky`` (``seat`` may answer the attack ``from``→``to``) or ``aegis``
    (``seat`` may cancel ``card``, played by ``by`` with ``args``)."""
    picking: int | None
    """The seat choosing a card to take after Visions Become Real."""
    sacred: list[str]
    """Territories that cannot be attacked again this turn (This Ground Is Sacred)."""


class GodstormView(TypedDict):
    ruleset: str
    epoch: int | None
    epochs: int
    turn_order: list[int]
    current: int | None
    phase: str
    step: str
    players: list[PlayerView]
    neutral: NeutralView | None
    territories: dict[str, TerritoryView]
    underworld: dict[str, SpaceView]
    last: ArrowView | None
    decks: dict[str, int]
    """Miracle cards left by deck (Godstorm); ``{"territory": n}`` in classic."""
    sets_traded: int
    battle: BattleView | None
    outcome: dict[str, Any] | None
    miracles: NotRequired[MiraclesView]
    me: NotRequired[MeView]
    piles: NotRequired[list[list[str]]]
    """Two players choosing piles (phase ``pile``): the three piles of territory ids (public)."""
    defend: NotRequired[dict[str, Any]]
    """A roll waiting for the defender's dice: ``{"seat", "from", "to", "dice"}`` (public)."""
    declared: NotRequired[dict[str, Any]]
    """An attack declared and waiting for its roll (the undo window, issue 27): ``{"from", "to", "dice",
    "until", "window"}`` (public; ``window``: the seconds the roll waits at most)."""


class PlaceView(TypedDict):
    """A territory, an Underworld space or the current player's heavens, as anyone may see it."""

    owner: int | None
    armies: int
    gods: list[str]


Targets = Callable[[int, str], list[str]]
"""``(seat, from) -> places``: where the rules let ``seat`` attack from a place now (``Godstorm._targets``)."""


def build(s: State, seat: int | None, targets: Targets) -> GodstormView:
    """The view of ``seat`` (a seat number), or the public view (None or any other number); ``targets``
    answers where an attack may go (the rules' own answer, passed in: the rules import this module)."""
    godstorm = s.ruleset == "godstorm"
    bidding = s.phase == "bid"
    held: dict[int | None, list[int]] = {}  # owner -> [territories, armies on the Ancient Earth]
    for v in s.terr.values():
        row = held.setdefault(v.owner, [0, 0])
        row[0] += 1
        row[1] += v.armies
    below: dict[int | None, int] = {}
    for u in s.uw.values():
        below[u.owner] = below.get(u.owner, 0) + u.armies
    players: list[PlayerView] = []
    for i, p in enumerate(s.players):
        terr, armies = held.get(i, (0, 0))
        players.append({
            "seat": i,
            "pantheon": p.pantheon,
            "colour": list(p.colour),
            "faith": p.faith,
            "cards": dict(p.cards) if godstorm else {"territory": len(p.tcards)},
            "territories": terr,
            "armies": armies,
            "heaven": p.heaven,
            "underworld": below.get(i, 0),
            "reserve": p.reserve,
            "eliminated": p.eliminated,
            "has_bid": (p.bid is not None) if bidding and not p.eliminated else None,
        })
    neutral = s.neutral
    last: ArrowView | None = None if s.last is None else {"from": s.last.src, "to": s.last.dst}
    b = s.battle
    battle: BattleView | None = None if b is None else {"from": b.src, "to": b.dst, "dice": b.dice, "att": b.att,
                                                         "def": b.def_, "rounds": b.rounds}
    out: GodstormView = {
        "ruleset": s.ruleset,
        "epoch": s.epoch,
        "epochs": EPOCHS_SHOWN,
        "turn_order": list(s.turn_order),
        "current": s.current,
        "phase": s.phase,
        "step": s.step,
        "players": players,
        "neutral": None if neutral is None else {"colour": list(neutral.colour), "pantheon": neutral.pantheon,
                                                 "heaven": neutral.heaven},
        "territories": {t: {"owner": v.owner, "armies": v.armies, "gods": list(v.gods), "temple": v.temple,
                            "plague": v.plague} for t, v in s.terr.items()},
        "underworld": {sp: {"owner": u.owner, "armies": u.armies} for sp, u in s.uw.items()},
        "last": last,
        "decks": dict(s.decks) if godstorm else {"territory": len(s.tdeck)},
        "sets_traded": s.sets_traded,
        "battle": battle,
        "outcome": json_copy(s.outcome),
    }
    m = s.mir
    if m is not None:
        for i, pv in enumerate(players):
            pv["relics"] = list(m.relics[i])
        w = m.windows[-1] if m.windows else None
        out["miracles"] = {
            "sunk": m.sunk,
            "maelstrom": None if m.maelstrom is None else list(m.maelstrom),
            "gone": len(m.gone),
            "window": None if w is None else {"kind": w.kind, "seat": w.seats[0] if w.seats else None,
                                              "from": w.src, "to": w.dst, "card": w.card, "by": w.by,
                                              "args": json_copy(w.args)},
            "picking": None if m.pick is None else int(m.pick["seat"]),
            "sacred": list(m.sacred),
        }
    if s.piles:
        out["piles"] = [list(x) for x in s.piles]
    if s.defend is not None:
        out["defend"] = {k: s.defend[k] for k in ("seat", "from", "to", "dice")}
    if s.declared is not None:
        out["declared"] = {**s.declared.to_json(), "window": s.undo_s}
    if seat is not None and 0 <= seat < len(s.players):
        p = s.players[seat]
        out["me"] = {"seat": seat, "bid": p.bid, "hand": list(p.tcards),
                     "pending": s.pending if s.current == seat else 0}
        if m is not None:
            out["me"]["miracles"] = list(m.hands[seat])
            out["me"]["unread"] = list(m.unread[seat])
            out["me"]["never_answer"] = m.never[seat]
        if str(seat) in s.dice_pref:
            out["me"]["dice_pref"] = s.dice_pref[str(seat)]
        if not p.eliminated and s.phase == "turn" and s.outcome is None:
            out["me"]["attacks"] = attacks(s, seat, targets)
    return out


def attacks(s: State, seat: int, targets: Targets) -> list[list[str]]:
    """``[from, to]`` for every attack on the Ancient Earth ``seat`` could make from where its armies stand
    (see ``MeView.attacks``), in a stable order."""
    out: list[list[str]] = []
    for src in sorted(t for t, v in s.terr.items() if v.owner == seat and v.armies >= 2):
        out += [[src, dst] for dst in targets(seat, src)]
    return out


def place(s: State, where: str) -> PlaceView | None:
    """``where`` (a territory id, an Underworld space id or ``"heaven"``), or None if there is no such place
    (the heavens exist only while someone's turn is running)."""
    if where == HEAVEN:
        if s.current is None:
            return None
        return {"owner": s.current, "armies": s.players[s.current].heaven, "gods": []}
    if where in s.terr:
        v = s.terr[where]
        return {"owner": v.owner, "armies": v.armies, "gods": list(v.gods)}
    if where in s.uw:
        u = s.uw[where]
        return {"owner": u.owner, "armies": u.armies, "gods": []}
    return None
