"""A game is one plugin: the manifest its package exports, and the protocols the platform reads it through.

Every game package exports one :class:`GameManifest` (``MANIFEST`` in ``bot/games/<game>/manifest.py``;
a game outside this repository may live in any package). The registry (:mod:`bot.games.registry`)
holds one line per game naming its manifest, and every per-game table of the platform reads from the
registered manifests: the rules class, the renderer's functions (board, personal board, zooms, hand
picture), the bots, the catch-up counters and losses, the wording of its ending reasons, its arena
variants, its benchmark state, its cog, its strings and the hooks of the conformance suite
(``tests/conformance/test_game_contract.py``).

A manifest is cheap to import: everything heavy is named by a reference ``"module:attribute"`` (or a
module name) and imported on first use. This module imports nothing of any game, of Discord or of the
renderers (the rules layer stays pure); a manifest names its renderer module by string. A manifest's
module imports this one and nothing that imports the registry (the registry imports every manifest as it
loads).
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, NamedTuple, Protocol, runtime_checkable

from bot.games.base import Action, Game

View = dict[str, Any]
"""A view as the renderers get it: ``Game.view(seat)`` as plain JSON, plus ``seat_names``."""
Image = Any
"""A Pillow image (the rules layer imports no Pillow: the renderer side's own type)."""

BoardFn = Callable[[View, str], bytes]
"""``(view, lang) -> PNG``: the public board."""
PictureFn = Callable[[View, str], bytes | None]
"""``(view, lang) -> PNG or None``: a seat's own picture (None: none for this seat now)."""
ZoomChoicesFn = Callable[[View, str], Sequence[tuple[str, str]]]
"""``(view, lang) -> [(value, label)]``: the zooms a board offers now."""
ZoomFn = Callable[[View, str, str], bytes | None]
"""``(view, lang, zoom) -> PNG or None`` (None: no such zoom now)."""
ComposeFn = Callable[[View, str], Image]
"""``(view, lang) -> image``: the board before PNG encoding (animated replays, benchmarks)."""
EncodeFn = Callable[[Image, View], bytes]
"""``(image, view) -> PNG``: how the renderer encodes its board (benchmarks)."""


def load(ref: str) -> Any:
    """The object a reference names: ``"module:attribute"`` (dots in the attribute walk into it), or
    ``"module"`` for the module itself."""
    module_name, _, attr = ref.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


# ---- the renderer ----------------------------------------------------------------------------------
@runtime_checkable
class GameRenderer(Protocol):
    """What the platform draws a game with. Only ``board`` is required; every extra is None when the
    game has none. The functions must be module-level (they are pickled to the render processes,
    ``bot.core.drawing``) and draw only what the view they get says."""

    @property
    def board(self) -> BoardFn:
        """The public board of the channel post (``/game board``, the replay's frames without ``compose``)."""

    @property
    def personal(self) -> PictureFn | None:
        """A seat's personal board, sent with its private panel (``bot.discord_app.boards``), from its own view."""

    @property
    def zoom_choices(self) -> ZoomChoicesFn | None:
        """The zooms ``/game board zoom:`` offers (with :attr:`zoom`)."""

    @property
    def zoom(self) -> ZoomFn | None:
        """One zoom of the board, large enough to read on a phone."""

    @property
    def hand(self) -> PictureFn | None:
        """A picture of a seat's hand (By All Means: the personal board is this picture)."""

    @property
    def compose(self) -> ComposeFn | None:
        """The board as an image before encoding (the replay's GIF frames, the benchmarks)."""

    @property
    def encode(self) -> EncodeFn | None:
        """The renderer's own PNG encoding of a composed board (benchmarks; default: ``render.common``'s)."""


@dataclass(frozen=True)
class Renderer:
    """A :class:`GameRenderer` made of plain functions."""

    board: BoardFn
    personal: PictureFn | None = None
    zoom_choices: ZoomChoicesFn | None = None
    zoom: ZoomFn | None = None
    hand: PictureFn | None = None
    compose: ComposeFn | None = None
    encode: EncodeFn | None = None


@dataclass(frozen=True)
class RendererSpec:
    """Where a game's renderer functions live, each named explicitly (None: the game has no such
    function). Imported on first use; a named function that is missing fails loudly."""

    module: str
    board: str = "render"
    personal: str | None = None
    zoom_choices: str | None = None
    zoom: str | None = None
    hand: str | None = None
    compose: str | None = None
    encode: str | None = None

    def load(self) -> Renderer:
        return _renderer_of(self)


@functools.lru_cache(maxsize=64)
def _renderer_of(spec: RendererSpec) -> Renderer:
    module = importlib.import_module(spec.module)

    def fn(name: str | None) -> Any:
        if name is None:
            return None
        value = getattr(module, name, None)
        if not callable(value):
            raise AttributeError(f"{spec.module} has no function {name!r} (named by its game's manifest)")
        return value

    return Renderer(board=fn(spec.board), personal=fn(spec.personal), zoom_choices=fn(spec.zoom_choices),
                    zoom=fn(spec.zoom), hand=fn(spec.hand), compose=fn(spec.compose), encode=fn(spec.encode))


# ---- catch-up ---------------------------------------------------------------------------------------
class Counter(NamedTuple):
    """One thing a public event counts for in a catch-up summary (``bot.core.catchup``)."""

    name: str
    """The counter: its label is ``lifecycle.cu.<name>`` with plural forms, or, for a name with a dot, that
    key of the game's own strings (a game from another package labels its counters itself)."""
    who: str
    """The event field naming whose it is; ``side:<field>`` for a side rather than a seat."""
    amount: str | None = None
    """The event field to add; None counts one per event."""
    when: Callable[[Mapping[str, Any]], bool] | None = None
    """Counted only when this says so (None: always)."""


Loss = tuple[str, str, int, int]
"""``(kind, name, who, amount)``: ``kind`` is "seat" or "side", ``who`` its index (-1: nobody's move)."""
LossFn = Callable[[Mapping[str, Any], int, int, int], list[Loss]]
"""What one public event did *to the reader*: ``(event, me, my side, whose move) -> losses``."""


def loss(name: str, amount: Any, by: int, kind: str = "seat") -> list[Loss]:
    """One loss of ``amount`` (nothing unless a positive int) by ``by``'s move."""
    return [(kind, name, by, amount)] if isinstance(amount, int) and amount > 0 else []


@dataclass(frozen=True)
class CatchUp:
    """A game's part of the catch-up summary a seat gets with its panel (``bot.core.catchup``)."""

    counters: Mapping[str, tuple[Counter, ...]] = field(default_factory=dict)
    """Public event type -> what it counts for (one event may count for several counters)."""
    losses: LossFn | None = None
    """What an event did to the reader: told first, and then not counted again."""
    loss_order: tuple[str, ...] = ()
    """The order the reader's losses are listed in (labels ``lifecycle.cu.<name>``)."""

    @property
    def order(self) -> tuple[str, ...]:
        """The counters in the order they are declared (the summary lists them so)."""
        return tuple(dict.fromkeys(c.name for counters in self.counters.values() for c in counters))


# ---- the conformance suite's hooks --------------------------------------------------------------------
Setup = tuple[list[dict[str, Any]], dict[str, Any]]
"""``(seat_info, options)`` of ``Game.new``."""
ChooseFn = Callable[[Game, int, list[Action], random.Random], Action]
"""A random playout's choice among the legal actions (biased so games end soon)."""
TwinFn = Callable[[Game, int | None, random.Random], Game | None]
"""``(game, seat, rng) -> twin``: a copy of ``game`` that differs from it only in what ``seat`` cannot
see (``None``: what no seat's public view shows), or None when nothing is hidden from it now."""


@dataclass(frozen=True)
class Conformance:
    """How ``tests/conformance/test_game_contract.py`` plays a game: the checks are the same for every game."""

    setups: tuple[Setup, ...]
    """Tables to play (players and options); the first is also used for the quick checks."""
    max_actions: int = 3000
    """A random game must end within this many actions."""
    choose: ChooseFn | None = None
    """Random playouts' choice (None: uniform over the legal actions)."""
    hidden_twin: TwinFn | None = None
    """Two states differing only in hidden parts, for the secrecy checks (None: the game hides nothing)."""
    illegal: tuple[Action, ...] = ()
    """Actions that must be refused now and at every step (besides the generic ones)."""


# ---- the benchmarks -----------------------------------------------------------------------------------
BENCH_FIGURES = frozenset({"platform", "bots", "replay", "loop", "turn_bytes", "backlog", "web"})
"""The optional measurements of ``python -m bot.bench`` a game can ask for (:attr:`Bench.figures`):

- ``platform``: the game the platform figures play (steps, throughput, restore, PostgreSQL, publish retry,
  the announcement after a fault); the first registered game that asks for it, else the first one;
- ``bots``: its strong bot's decision time and win rate (``<key>_bot_move_ms_*``, per arena variant too);
- ``replay``: ``/game replay``'s animated history of a whole random game, its largest :attr:`Bench.playouts` table;
- ``loop``: the event loop while a very long finished game is replayed (:attr:`Bench.long_game`);
- ``turn_bytes``: bytes uploaded to the channel per turn (``<key>_bytes_per_turn``), its strong bot playing;
- ``backlog``: the publish backlog (a game of 1,000 unannounced moves);
- ``web``: the web page with many viewers.

A measurement the platform makes of one game takes the first registered game asking for it."""


@dataclass(frozen=True)
class Bench:
    """What ``python -m bot.bench`` measures of a game besides its board figures (which come from
    :attr:`GameManifest.bench_state`). Every per-game figure is named ``<key>_<figure>``, so its name
    stays what CI and the issues read as long as the game's key does."""

    figures: frozenset[str] = frozenset()
    """The optional measurements that apply (see :data:`BENCH_FIGURES`)."""
    playouts: tuple[Setup, ...] = ()
    """Tables of whole random games (the conformance kit's choices), each timed as
    ``<key>_playout_<players>p_s``."""
    aliases: Mapping[str, str] = field(default_factory=dict)
    """A figure also reported under another name, both without the ``<key>_`` prefix
    (``{"dm_board_render_ms_p50": "personal_render_ms_p50"}``)."""
    ai_game: str | None = None
    """A function ``(seed, clock=...) -> (game, [ms per apply])`` playing a whole game between its bots:
    ``<key>_apply_ms_p50/_p99`` (instead of the random moves' apply figure) and ``<key>_ai_game_s``."""
    long_game: Mapping[str, Any] = field(default_factory=dict)
    """The options of the ``loop`` measurement's very long game."""
    patient: frozenset[str] = frozenset()
    """Action types the long game's players avoid while they have another choice (so it lasts)."""
    turn_kind: str = "turn"
    """The kind of open decision (:class:`bot.games.base.OpenDecision`) that is a player's turn (``turn_bytes``)."""

    def __post_init__(self) -> None:
        unknown = self.figures - BENCH_FIGURES
        if unknown:
            raise ValueError(f"unknown bench figures {sorted(unknown)}")


# ---- the manifest ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameManifest:
    """Everything the platform knows about one game. References are ``"module:attribute"`` strings,
    imported on first use (see :func:`load`)."""

    key: str
    """Stable key: stored with every game, the value of ``/game new game:``."""
    rules: str
    """The rules class (a :class:`bot.games.base.Game`), e.g. ``"bot.games.pobeda.game:Pobeda"``."""
    renderer: RendererSpec | str
    """The renderer's functions, or a reference to an object that is a :class:`GameRenderer`."""
    ai: str | None = None
    """The module of its bots: ``policy(level) -> bot.games.ai.Policy`` (``quick``, ``strong``)."""
    catchup: str | None = None
    """Its :class:`CatchUp` (counters and losses of the catch-up summary); None: moves and timeouts only."""
    reason_key: str | None = None
    """How its ending reasons (``outcome["reason"]``/``["reasons"]``) are worded: a ``str.format`` pattern
    of an i18n key, default ``end.reason.<key>.{}``."""
    arena: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Named arena variants, name -> options (``python -m bot.tools.arena <name>``); a variant named like the
    game gives the game's own arena options."""
    bench_state: str | None = None
    """A function returning a deterministic crowded late-game state (``python -m bot.bench``)."""
    bench: Bench = field(default_factory=Bench)
    """What else ``python -m bot.bench`` measures of it (:class:`Bench`)."""
    score_field: str = "scores"
    """The outcome's field ranking the losers for the stats (a list by side or a dict by seat)."""
    cog: str | None = None
    """An extension module with the game's own slash commands, loaded by ``bot.discord_app.app`` after the core cogs."""
    i18n_domains: tuple[str, ...] = ()
    """The key prefixes of its strings (default: its key); ``<key>.name`` and ``<key>.rules`` are required."""
    i18n_files: tuple[str, ...] = ()
    """String catalogues the package brings, ``"package:file.json"`` (the built-in games keep theirs in
    ``data/i18n/``); every key must start with one of :attr:`i18n_domains`."""
    moments: frozenset[str] = frozenset()
    """Event types that make a frame of the animated replay (``bot.core.replay``) besides the platform's own."""
    conformance: str | None = None
    """Its :class:`Conformance` (how the contract suite plays it)."""

    # ---- typed access -------------------------------------------------------------------------------
    def game_class(self) -> type[Game]:
        cls = load(self.rules)
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise TypeError(f"{self.rules} is not a Game class")
        return cls

    def board_renderer(self) -> GameRenderer:
        if isinstance(self.renderer, RendererSpec):
            return self.renderer.load()
        obj = load(self.renderer)
        if not isinstance(obj, GameRenderer):
            raise TypeError(f"{self.renderer} is not a GameRenderer")
        return obj

    def policies(self) -> ModuleType | None:
        return importlib.import_module(self.ai) if self.ai else None

    def catchup_rules(self) -> CatchUp | None:
        if self.catchup is None:
            return None
        table = load(self.catchup)
        if not isinstance(table, CatchUp):
            raise TypeError(f"{self.catchup} is not a CatchUp")
        return table

    def reason_pattern(self) -> str:
        return self.reason_key or f"end.reason.{self.key}.{{}}"

    def make_bench_state(self) -> Game:
        if self.bench_state is None:
            raise LookupError(f"{self.key} has no bench state")
        game = load(self.bench_state)()
        if not isinstance(game, Game):
            raise TypeError(f"{self.bench_state} did not return a Game")
        return game

    def conformance_kit(self) -> Conformance | None:
        if self.conformance is None:
            return None
        kit = load(self.conformance)
        if not isinstance(kit, Conformance):
            raise TypeError(f"{self.conformance} is not a Conformance")
        return kit

    def domains(self) -> tuple[str, ...]:
        return self.i18n_domains or (self.key,)
