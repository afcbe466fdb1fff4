"""The contract every game implements, and the shared pieces (seeded RNG, refusals, options).

A game is pure Python: no discord, no rendering, no storage, no clock. The platform
(`bot/sessions.py`) owns users, lobbies, deadlines and persistence; a game only knows *seats*.

Seats, sides, users
    A *seat* takes turns and may hold private information. Seats are numbered ``0..n-1``.
    A *side* wins or loses; several seats may share a side (Pobeda teams), and several users
    may share a seat (a Cold War team plays one seat). The game decides the mapping from the
    lobby's players to seats in :meth:`Game.arrange_seats`.

Decisions
    At any moment the game has open decisions: :meth:`Game.actors` lists the seats that may
    act now (several at once for simultaneous secret choices). :meth:`Game.legal_actions`
    enumerates every legal answer of one seat as plain dicts with a ``"type"``; applying any
    of them must succeed, applying anything else raises :class:`IllegalAction`. The platform
    builds Discord controls from :meth:`Game.action_path` (labels from coarse to fine, so
    large choice sets become nested selects) and refuses a control whose action is no
    longer legal, which is how stale buttons are detected.

Events
    :meth:`Game.apply` returns events (dicts with a ``"type"``). An event with a ``"to"`` key
    (a list of seats) is private to those seats; any other event is public. The platform
    turns events into text with :meth:`Game.event_text`.

Moderation
    Actions by the host or a moderator (not a seat) use ``seat = ADMIN``; they are logged
    like any other action and enumerated by :meth:`Game.admin_actions`.

Replay
    ``cls.new(seat_info, options, seed)`` followed by ``apply(seat, action)`` for every logged
    action must reproduce ``to_json()`` exactly. All randomness goes through :class:`Rng`,
    whose state is part of the game state.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

ADMIN = -1
"""Pseudo-seat of the host or a moderator acting on the game (e.g. Pobeda's team penalty)."""

Action = dict[str, Any]
Event = dict[str, Any]


def state_text(state: Any) -> str:
    """Compact JSON of a state (no ASCII escaping: Cyrillic stays readable in the database)."""
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))


class IllegalAction(Exception):
    """An action the rules refuse. ``key`` is an i18n key; ``params`` fill its placeholders."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Rng:
    """A deterministic, JSON-serialisable random source.

    Each draw builds a ``random.Random`` from ``(seed, counter)``, so the whole state is two
    integers and a replay from the stored seed reproduces every draw.
    """

    __slots__ = ("seed", "n")

    def __init__(self, seed: int, n: int = 0) -> None:
        self.seed = int(seed)
        self.n = int(n)

    def _next(self) -> random.Random:
        digest = hashlib.blake2b(f"{self.seed}:{self.n}".encode(), digest_size=8).digest()
        self.n += 1
        return random.Random(int.from_bytes(digest, "big"))

    def random(self) -> float:
        return self._next().random()

    def randint(self, a: int, b: int) -> int:
        return self._next().randint(a, b)

    def choice(self, seq: Sequence[Any]) -> Any:
        return self._next().choice(seq)

    def shuffle(self, items: list[Any]) -> None:
        self._next().shuffle(items)

    def sample(self, seq: Sequence[Any], k: int) -> list[Any]:
        return self._next().sample(list(seq), k)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        r = self._next()
        return [r.randint(1, sides) for _ in range(count)]

    def to_json(self) -> dict[str, int]:
        return {"seed": self.seed, "n": self.n}

    @classmethod
    def from_json(cls, data: dict[str, int]) -> Rng:
        return cls(data["seed"], data["n"])


@dataclass(frozen=True)
class OptionSpec:
    """One game option offered in the lobby (as a select) and in ``/game new options:``.

    ``choices`` are ``(value, i18n label key)`` pairs; values are JSON scalars. The label key
    of the option itself is ``label_key``.
    """

    name: str
    label_key: str
    choices: tuple[tuple[Any, str], ...]
    default: Any


@dataclass
class Player:
    """A lobby entry: a user and the team they picked (``None``: any)."""

    user_id: int
    team: int | None = None


@dataclass
class Arrangement:
    """The result of seating a lobby: users of each seat, and per-seat info for ``new``."""

    seat_users: list[list[int]]
    seat_info: list[dict[str, Any]] = field(default_factory=list)


class Game(ABC):
    """Base class of every game's rules. See the module docstring for the contract."""

    key: ClassVar[str]
    """Stable key: ``pobeda``, ``coldwar``, ``godstorm``..."""

    # ---- lobby -------------------------------------------------------------------------
    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        return []

    @classmethod
    def default_options(cls) -> dict[str, Any]:
        return {spec.name: spec.default for spec in cls.option_specs()}

    @classmethod
    @abstractmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        """Minimum and maximum number of users the lobby accepts with these options."""

    @classmethod
    def team_count(cls, options: dict[str, Any], n_players: int) -> int:
        """How many teams the lobby offers to pick from (0: no team choice)."""
        return 0

    @classmethod
    def team_label(cls, team: int, options: dict[str, Any], lang: str) -> str:
        """How the lobby names team ``team`` (a colour, a superpower...)."""
        from bot.i18n import t

        return t("lobby.team_n", lang, n=team + 1)

    @classmethod
    @abstractmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        """Seat the lobby's players (validated against ``player_range`` and teams).

        Raises IllegalAction when the lobby cannot start (e.g. uneven teams not allowed).
        """

    @classmethod
    @abstractmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> Game:
        """A fresh game. All randomness must come from ``Rng(seed)`` stored in the state."""

    # ---- play --------------------------------------------------------------------------
    @abstractmethod
    def actors(self) -> list[int]:
        """Seats that may act now (empty when the game is over)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now, in a stable order (empty if it may not act)."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and apply; raise IllegalAction (changing nothing) when not legal."""

    def admin_actions(self) -> list[Action]:
        """Moderator actions available now (applied with ``seat=ADMIN``)."""
        return []

    def timeout_action(self, seat: int) -> Action | None:
        """What happens to an absent ``seat`` when its deadline expires (None: nothing)."""
        return None

    def forced_timeout(self) -> int | None:
        """Seconds for the current decision when the rules themselves impose a deadline
        (e.g. Pobeda's penalty card choice), whatever the game's deadline option says."""
        return None

    def is_simultaneous(self) -> bool:
        """True while the open decision is a secret simultaneous choice (bids, agent X)."""
        return False

    @abstractmethod
    def outcome(self) -> dict[str, Any] | None:
        """None while running; else ``{"winners": [side...], "draw": bool, ...}``."""

    # ---- views -------------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public view). Renderers only get views."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-able data (including the Rng state)."""

    def to_json_text(self) -> str:
        """``to_json()`` serialised, as the platform stores it after every action.

        Games whose ``to_json`` returns a defensive deep copy override this to serialise their
        live state directly: the copy is pure overhead on the hot path of every move.
        """
        return state_text(self.to_json())

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Inverse of ``to_json``."""

    # ---- text (language-dependent, used by the Discord layer) --------------------------
    seat_names: list[str] | None = None
    """Display names of the seats' users, set by the platform on the live object so texts can
    say "Anna (Red)" instead of "Seat 1 (Red)". Never part of the state."""

    def seat_display(self, seat: int, fallback: str) -> str:
        names = self.seat_names
        if names and 0 <= seat < len(names) and names[seat]:
            return names[seat]
        return fallback

    @abstractmethod
    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        """Labels from coarse to fine for one legal action, e.g. ``["+1", "Row 5", "C5"]``.

        The Discord layer builds buttons when the choices are few and nested selects when
        they are many, grouping actions by their path prefix. Each label at most 80 chars.
        """

    @abstractmethod
    def event_text(self, event: Event, lang: str) -> str | None:
        """One line (or a few) describing an event, or None when it needs no text."""

    def side_of(self, seat: int) -> int:
        return seat

    def side_name(self, side: int, lang: str) -> str:
        return str(side + 1)

    def status_lines(self, lang: str) -> list[str]:
        """Public status: scores, phase, deck size... (no private information)."""
        return []

    def private_text(self, seat: int, lang: str) -> str:
        """Everything private to ``seat`` as text (its hand, its secret choice...)."""
        return ""

    def prompt_text(self, seat: int, lang: str) -> str:
        """What ``seat`` is asked to do now (shown above its controls)."""
        return ""
