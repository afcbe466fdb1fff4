"""The Godstorm state as typed records.

Each record reads and writes exactly the JSON the engine stored when the state was one dict (same
keys, same key order, same values), so games stored before the records existed load unchanged and
``to_json`` of a game is byte-identical to what the dict produced. ``to_json`` always builds fresh
containers: the caller may keep or mutate the result without touching the live state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Rng

JSON = dict[str, Any]


@dataclass(slots=True)
class Territory:
    """A territory of the Ancient Earth."""

    owner: int | None = None
    armies: int = 0
    gods: list[str] = field(default_factory=list)
    temple: bool = False
    plague: bool = False

    def to_json(self) -> JSON:
        return {"owner": self.owner, "armies": self.armies, "gods": list(self.gods), "temple": self.temple,
                "plague": self.plague}

    @classmethod
    def from_json(cls, d: JSON) -> Territory:
        return cls(d["owner"], d["armies"], list(d["gods"]), d["temple"], d["plague"])


@dataclass(slots=True)
class Space:
    """A space of the Underworld (gate, crypt, altar or plain)."""

    owner: int | None = None
    armies: int = 0

    def to_json(self) -> JSON:
        return {"owner": self.owner, "armies": self.armies}

    @classmethod
    def from_json(cls, d: JSON) -> Space:
        return cls(d["owner"], d["armies"])


@dataclass(slots=True)
class PlayerState:
    """A seat's pantheon and counters. ``supply`` counts every army the seat owns (in play, in the heavens,
    in reserve); the box is unlimited, so it grows when the reserve runs short."""

    pantheon: str | None
    colour: list[int]
    faith: int
    cards: dict[str, int]
    """Face-down miracle cards by deck (Godstorm)."""
    tcards: list[str]
    """Territory cards in hand (classic)."""
    heaven: int
    reserve: int
    supply: int
    eliminated: bool = False
    bid: int | None = None

    def to_json(self) -> JSON:
        return {"pantheon": self.pantheon, "colour": list(self.colour), "faith": self.faith,
                "cards": dict(self.cards), "tcards": list(self.tcards), "heaven": self.heaven,
                "reserve": self.reserve, "supply": self.supply, "eliminated": self.eliminated, "bid": self.bid}

    @classmethod
    def from_json(cls, d: JSON) -> PlayerState:
        return cls(d["pantheon"], list(d["colour"]), d["faith"], dict(d["cards"]), list(d["tcards"]), d["heaven"],
                   d["reserve"], d["supply"], d["eliminated"], d["bid"])


@dataclass(slots=True)
class Neutral:
    """The neutral armies of a two-player game (with a pantheon of their own in Godstorm)."""

    pantheon: str | None
    heaven: int
    reserve: int
    supply: int
    colour: list[int]

    def to_json(self) -> JSON:
        return {"pantheon": self.pantheon, "heaven": self.heaven, "reserve": self.reserve, "supply": self.supply,
                "colour": list(self.colour)}

    @classmethod
    def from_json(cls, d: JSON) -> Neutral:
        return cls(d["pantheon"], d["heaven"], d["reserve"], d["supply"], list(d["colour"]))


@dataclass(slots=True)
class Battle:
    """A godswar in progress: ``att``/``def_`` are the champions chosen for the current round."""

    src: str
    dst: str
    dice: int
    att: str | None = None
    def_: str | None = None
    rounds: int = 0

    def to_json(self) -> JSON:
        return {"from": self.src, "to": self.dst, "dice": self.dice, "att": self.att, "def": self.def_,
                "rounds": self.rounds}

    @classmethod
    def from_json(cls, d: JSON) -> Battle:
        return cls(d["from"], d["to"], d["dice"], d["att"], d["def"], d["rounds"])


@dataclass(slots=True)
class Move:
    """A conquest waiting for the attacker to choose how many armies move in."""

    src: str
    dst: str
    min: int
    max: int

    def to_json(self) -> JSON:
        return {"from": self.src, "to": self.dst, "min": self.min, "max": self.max}

    @classmethod
    def from_json(cls, d: JSON) -> Move:
        return cls(d["from"], d["to"], d["min"], d["max"])


@dataclass(slots=True)
class Arrow:
    """The last attack or fortification of the turn (drawn on the board)."""

    src: str
    dst: str

    def to_json(self) -> JSON:
        return {"from": self.src, "to": self.dst}

    @classmethod
    def from_json(cls, d: JSON) -> Arrow:
        return cls(d["from"], d["to"])


@dataclass(slots=True)
class Declared:
    """An attack declared and not rolled yet (option ``undo_window``, issue 27): ``src``→``dst`` with ``dice``
    (``until``: the ``attack_until`` stop, None for one roll). Its dice are thrown on the attacker's 🎲 or when
    the window closes; until then nothing is revealed, so the attacker may take the order back."""

    src: str
    dst: str
    dice: int
    until: int | None = None

    def to_json(self) -> JSON:
        return {"from": self.src, "to": self.dst, "dice": self.dice, "until": self.until}

    @classmethod
    def from_json(cls, d: JSON) -> Declared:
        return cls(d["from"], d["to"], d["dice"], d["until"])


@dataclass(slots=True)
class TurnFlags:
    """What the current player has done this turn (the limits of the once-per-turn rules).

    Before the first turn of a game the stored JSON holds ``{}``: ``begun`` is False then, every flag
    reads as its default (no turn has done anything) and ``to_json`` writes ``{}`` back.
    """

    conquered: int = 0
    war_card: bool = False
    sky_card: bool = False
    bought: int = 0
    fortified: bool = False
    crypts_used: list[str] = field(default_factory=list)
    plague_done: bool = False
    match_bonus: bool = False
    forced_trade: bool = False
    begun: bool = True
    held: dict[str, list[str]] = field(default_factory=dict)
    """Gods the attacker keeps out of attacks from a territory this turn (written only when some are)."""

    def to_json(self) -> JSON:
        if not self.begun:
            return {}
        out = {"conquered": self.conquered, "war_card": self.war_card, "sky_card": self.sky_card,
               "bought": self.bought, "fortified": self.fortified, "crypts_used": list(self.crypts_used),
               "plague_done": self.plague_done, "match_bonus": self.match_bonus, "forced_trade": self.forced_trade}
        if self.held:
            out["held"] = {k: list(v) for k, v in self.held.items()}
        return out

    @classmethod
    def from_json(cls, d: JSON) -> TurnFlags:
        if not d:
            return cls(begun=False)
        return cls(d["conquered"], d["war_card"], d["sky_card"], d["bought"], d["fortified"], list(d["crypts_used"]),
                   d["plague_done"], d["match_bonus"], d["forced_trade"],
                   held={k: list(v) for k, v in d.get("held", {}).items()})


@dataclass(slots=True)
class Window:
    """A response window (rules-layer decision): ``seats`` may still answer, the first one is asked now.

    ``kind`` ``"sky"``: an attack ``src``→``dst`` declared with ``dice`` (``until``: the ``attack_until``
    stop, None for one roll) waits for the defender's Sky cards. ``kind`` ``"aegis"``: the miracle card
    ``card`` played by ``by`` with ``args`` waits for a holder of the Aegis to cancel it."""

    kind: str
    seats: list[int]
    src: str | None = None
    dst: str | None = None
    dice: int = 0
    until: int | None = None
    card: str | None = None
    by: int | None = None
    args: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"kind": self.kind, "seats": list(self.seats), "from": self.src, "to": self.dst, "dice": self.dice,
                "until": self.until, "card": self.card, "by": self.by, "args": json_copy(self.args)}

    @classmethod
    def from_json(cls, d: JSON) -> Window:
        return cls(d["kind"], list(d["seats"]), d["from"], d["to"], d["dice"], d["until"], d["card"], d["by"],
                   json_copy(d["args"]))


@dataclass(slots=True)
class MiracleState:
    """The miracle cards when they are played (option ``miracles`` on; None: the cards are only counted).

    Card instances are ``"<card id>.<copy>"`` (``data/godstorm/miracles.json``). Every card is in exactly one
    place: a pile (``piles``, drawn from the front), a hand (``hands``), bought but not read yet
    (``unread``), in play as a relic (``relics``) or out of the game (``gone``)."""

    piles: dict[str, list[str]]
    hands: list[list[str]]
    unread: list[list[str]]
    relics: list[list[str]]
    gone: list[str]
    never: list[bool]
    """Each seat's standing "never answer" preference."""
    answer_s: int
    """Seconds a response window stays open (the game option ``answer_window``)."""
    sunk: bool = False
    maelstrom: list[str] | None = None
    bonus: dict[str, int] = field(default_factory=dict)
    """Godswar bonus this turn by seat (Fire Sears the Sky)."""
    sacred: list[str] = field(default_factory=list)
    invasion: list[str] | None = None
    """The invasion already answered this turn (``[src, dst]``): its next rolls open no window."""
    book: bool = False
    forced: str | None = None
    """Pandora's Box: the Death card the current player must play now."""
    pick: JSON | None = None
    """Visions Become Real: ``{"seat": player, "from": looked-at seat}`` waiting for the card taken."""
    windows: list[Window] = field(default_factory=list)

    def to_json(self) -> JSON:
        return {"piles": {k: list(v) for k, v in self.piles.items()}, "hands": [list(h) for h in self.hands],
                "unread": [list(h) for h in self.unread], "relics": [list(h) for h in self.relics],
                "gone": list(self.gone), "never": list(self.never), "answer_s": self.answer_s, "sunk": self.sunk,
                "maelstrom": None if self.maelstrom is None else list(self.maelstrom), "bonus": dict(self.bonus),
                "sacred": list(self.sacred), "invasion": None if self.invasion is None else list(self.invasion),
                "book": self.book, "forced": self.forced, "pick": json_copy(self.pick),
                "windows": [w.to_json() for w in self.windows]}

    @classmethod
    def from_json(cls, d: JSON) -> MiracleState:
        return cls({k: list(v) for k, v in d["piles"].items()}, [list(h) for h in d["hands"]],
                   [list(h) for h in d["unread"]], [list(h) for h in d["relics"]], list(d["gone"]), list(d["never"]),
                   d["answer_s"], d["sunk"], None if d["maelstrom"] is None else list(d["maelstrom"]),
                   dict(d["bonus"]), list(d["sacred"]), None if d["invasion"] is None else list(d["invasion"]),
                   d["book"], d["forced"], json_copy(d["pick"]), [Window.from_json(w) for w in d["windows"]])


@dataclass(slots=True)
class State:
    """The whole game. ``rng`` is opaque here: it is stored through ``Rng.to_json``/``Rng.from_json``."""

    ruleset: str
    placement: str
    seed: int
    rng: Rng
    phase: str
    """``pantheon``, ``claim``, ``setup_place``, ``setup_gods``, ``bid``, ``pick_order``, ``turn`` or ``over``."""
    step: str
    """The step of the turn (``raise`` ... ``end``), or the phase outside turns."""
    epoch: int | None
    turn_order: list[int]
    turn_idx: int
    current: int | None
    players: list[PlayerState]
    neutral: Neutral | None
    terr: dict[str, Territory]
    uw: dict[str, Space]
    decks: dict[str, int]
    """Miracle cards left in each deck (Godstorm)."""
    tdeck: list[str]
    """The territory card deck (classic)."""
    sets_traded: int
    setup_order: list[int]
    setup_idx: int
    round_left: int
    round_size: int
    neutral_due: bool
    pending: int
    """Armies the current player still has to place."""
    turn: TurnFlags
    battle: Battle | None
    move: Move | None
    last: Arrow | None
    pick_queue: list[int]
    positions: dict[str, int]
    """Chosen turn-order position by seat (the keys are seat numbers as strings, as in the JSON)."""
    outcome: JSON | None
    mir: MiracleState | None = None
    """The played miracle cards (None: a game without them, stored exactly as before they existed)."""
    dice_pref: dict[str, str] = field(default_factory=dict)
    """Each seat's standing choice of defence dice (``"one"`` or ``"ask"``; absent: the most dice allowed).
    Written only when some seat has one, so older games are stored as before."""
    defend: JSON | None = None
    piles: list[list[str]] | None = None
    """Two players: the three piles of territories the players choose from (the rulebook's set-up; games
    begun before it have None and deal the piles in order). ``[]`` until dealt."""
    """A roll waiting for the defender's choice of dice (``{"seat", "from", "to", "dice", "until", "rolls"}``)."""
    undo_s: int = 0
    """Seconds a declared attack waits for its roll (option ``undo_window``; 0: rolled at once, as in every
    game stored before state version 4). Written (``"undo_window"``) only when not 0."""
    declared: Declared | None = None
    """The attack declared and waiting for its roll (written only while there is one)."""

    def to_json(self) -> JSON:
        out = {
            "ruleset": self.ruleset,
            "placement": self.placement,
            "seed": self.seed,
            "rng": self.rng.to_json(),
            "phase": self.phase,
            "step": self.step,
            "epoch": self.epoch,
            "turn_order": list(self.turn_order),
            "turn_idx": self.turn_idx,
            "current": self.current,
            "players": [p.to_json() for p in self.players],
            "neutral": None if self.neutral is None else self.neutral.to_json(),
            "terr": {t: v.to_json() for t, v in self.terr.items()},
            "uw": {sp: u.to_json() for sp, u in self.uw.items()},
            "decks": dict(self.decks),
            "tdeck": list(self.tdeck),
            "sets_traded": self.sets_traded,
            "setup_order": list(self.setup_order),
            "setup_idx": self.setup_idx,
            "round_left": self.round_left,
            "round_size": self.round_size,
            "neutral_due": self.neutral_due,
            "pending": self.pending,
            "turn": self.turn.to_json(),
            "battle": None if self.battle is None else self.battle.to_json(),
            "move": None if self.move is None else self.move.to_json(),
            "last": None if self.last is None else self.last.to_json(),
            "pick_queue": list(self.pick_queue),
            "positions": dict(self.positions),
            "outcome": json_copy(self.outcome),
        }
        if self.mir is not None:
            out["miracles"] = self.mir.to_json()
        if self.dice_pref:
            out["dice_pref"] = dict(self.dice_pref)
        if self.defend is not None:
            out["defend"] = json_copy(self.defend)
        if self.piles is not None:
            out["piles"] = [list(p) for p in self.piles]
        if self.undo_s:
            out["undo_window"] = self.undo_s
        if self.declared is not None:
            out["declared"] = self.declared.to_json()
        return out

    @classmethod
    def from_json(cls, d: JSON) -> State:
        return cls(
            ruleset=d["ruleset"],
            placement=d["placement"],
            seed=d["seed"],
            rng=Rng.from_json(d["rng"]),
            phase=d["phase"],
            step=d["step"],
            epoch=d["epoch"],
            turn_order=list(d["turn_order"]),
            turn_idx=d["turn_idx"],
            current=d["current"],
            players=[PlayerState.from_json(p) for p in d["players"]],
            neutral=None if d["neutral"] is None else Neutral.from_json(d["neutral"]),
            terr={t: Territory.from_json(v) for t, v in d["terr"].items()},
            uw={sp: Space.from_json(u) for sp, u in d["uw"].items()},
            decks=dict(d["decks"]),
            tdeck=list(d["tdeck"]),
            sets_traded=d["sets_traded"],
            setup_order=list(d["setup_order"]),
            setup_idx=d["setup_idx"],
            round_left=d["round_left"],
            round_size=d["round_size"],
            neutral_due=d["neutral_due"],
            pending=d["pending"],
            turn=TurnFlags.from_json(d["turn"]),
            battle=None if d["battle"] is None else Battle.from_json(d["battle"]),
            move=None if d["move"] is None else Move.from_json(d["move"]),
            last=None if d["last"] is None else Arrow.from_json(d["last"]),
            pick_queue=list(d["pick_queue"]),
            positions=dict(d["positions"]),
            outcome=json_copy(d["outcome"]),
            mir=MiracleState.from_json(d["miracles"]) if d.get("miracles") is not None else None,
            dice_pref=dict(d.get("dice_pref", {})),
            defend=json_copy(d.get("defend")),
            piles=None if d.get("piles") is None else [list(p) for p in d["piles"]],
            undo_s=d.get("undo_window", 0),
            declared=Declared.from_json(d["declared"]) if d.get("declared") is not None else None,
        )


def json_copy(value: Any) -> Any:
    """Deep copy of JSON-like data (faster than ``copy.deepcopy``)."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value
