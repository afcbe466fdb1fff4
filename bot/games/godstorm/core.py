"""Shared state helpers of the Godstorm engine (the state is the typed record ``self.s``, see ``state.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core import parse
from bot.games.base import Action, IllegalAction, Rng
from bot.games.godstorm import board
from bot.games.godstorm import events as ev
from bot.games.godstorm.state import Neutral, PlayerState, State

NEUTRAL = -2
"""Owner id of the two-player neutral pantheon / neutral armies."""

GODSTORM_STEPS = ("raise", "gods", "cards", "miracle", "plague", "invade", "fortify", "descend", "underworld", "end")
CLASSIC_STEPS = ("raise", "invade", "fortify")


def as_int(value: Any) -> int | None:
    """An integer from an action field (a number, or digits from a slash command), else None;
    a bool is no number here. Text is read by :func:`bot.core.parse.small_int` (issue 23): ``"²"`` passed
    ``isdigit()`` and raised in ``int()``; only ASCII digits within 64 bits count."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return parse.small_int(value, -parse.INT64_MAX, parse.INT64_MAX)
    return None


class Core:
    """Helpers every mixin uses. ``self.s`` is the state; ``self.rng`` its Rng; ``self._ev`` collects events."""

    s: State
    _ev: list[ev.GodstormEvent]

    if TYPE_CHECKING:  # provided by the other mixins and by ``Game``; declared so each mixin type-checks alone
        def actors(self) -> list[int]: ...
        def _settle(self) -> None: ...
        def _start_turn(self) -> None: ...
        def _next_turn(self) -> None: ...
        def _start_epoch(self, epoch: int) -> None: ...
        def _finish_game(self) -> None: ...
        def _attack_actions(self, seat: int, underworld: bool) -> list[Action]: ...

    @property
    def rng(self) -> Rng:
        """The state's random source (tests may swap in a scripted one)."""
        return self.s.rng

    @rng.setter
    def rng(self, value: Rng) -> None:
        self.s.rng = value

    # ---- events -------------------------------------------------------------------------
    def _emit(self, event: ev.GodstormEvent) -> None:
        """Record one event of the move being applied (``events.py``; ``apply`` returns them in order)."""
        self._ev.append(event)

    # ---- who ----------------------------------------------------------------------------
    @property
    def godstorm(self) -> bool:
        return self.s.ruleset == "godstorm"

    def record_of(self, owner: int) -> PlayerState | Neutral:
        """The record of an army owner: a player's, or the neutral one for ``NEUTRAL``. (A *side*, as
        in ``Game.side_of``, is who wins; in Godstorm every seat is its own side.)"""
        if owner == NEUTRAL:
            assert self.s.neutral is not None, "neutral armies only exist in two-player games"
            return self.s.neutral
        return self.s.players[owner]

    @property
    def current_seat(self) -> int:
        """The seat whose turn is running (only called during turns, when ``s.current`` is set)."""
        seat = self.s.current
        assert seat is not None, "no turn is running"
        return seat

    def active_seats(self) -> list[int]:
        return [i for i, p in enumerate(self.s.players) if not p.eliminated]

    def owned(self, seat: int) -> set[str]:
        return {t for t, v in self.s.terr.items() if v.owner == seat}

    def owned_count(self, seat: int) -> int:
        return sum(1 for v in self.s.terr.values() if v.owner == seat)

    def gods_on_board(self, seat: int) -> set[str]:
        out: set[str] = set()
        for v in self.s.terr.values():
            if v.owner == seat:
                out.update(v.gods)
        return out

    def temples_of(self, seat: int) -> list[str]:
        return sorted(t for t, v in self.s.terr.items() if v.owner == seat and v.temple)

    def temples_on_board(self) -> int:
        return sum(1 for v in self.s.terr.values() if v.temple)

    def spaces_of(self, seat: int) -> list[str]:
        return [sp for sp in board.SPACE_IDS if self.s.uw[sp].owner == seat]

    def altars_of(self, seat: int) -> int:
        return sum(1 for sp in board.ALTARS if self.s.uw[sp].owner == seat)

    def board_armies(self, owner: int) -> int:
        return sum(v.armies for v in self.s.terr.values() if v.owner == owner)

    def uw_armies(self, owner: int) -> int:
        return sum(v.armies for v in self.s.uw.values() if v.owner == owner)

    # ---- armies bookkeeping -------------------------------------------------------------
    def _take(self, owner: int, n: int) -> None:
        """Take ``n`` armies from the reserve into play; the box is unlimited, so ``supply`` grows if short."""
        rec = self.record_of(owner)
        if rec.reserve < n:
            rec.supply += n - rec.reserve
            rec.reserve = n
        rec.reserve -= n

    def _casualties(self, owner: int, n: int, to_reserve: bool) -> None:
        """Armies killed: to the owner's heaven (Godstorm, Ancient Earth) or back to the reserve."""
        if n <= 0:
            return
        rec = self.record_of(owner)
        if to_reserve or not self.godstorm:
            rec.reserve += n
        else:
            rec.heaven += n

    # ---- gods and miracle cards ---------------------------------------------------------
    def _banish_all(self, tid: str, reason: str) -> None:
        v = self.s.terr[tid]
        if v.gods:
            self._emit(ev.Banished(type="banished", seat=v.owner, gods=list(v.gods), territory=tid, reason=reason))
            v.gods = []

    def _draw_miracle(self, seat: int, kind: str, reason: str) -> bool:
        """One card from a miracle deck (face down, counted by kind; effects come with the next issue)."""
        if self.s.decks[kind] <= 0:
            return False
        self.s.decks[kind] -= 1
        self.s.players[seat].cards[kind] += 1
        self._emit(ev.CardGained(type="card_gained", seat=seat, kind=kind, reason=reason))
        return True

    # ---- hooks for the miracle cards (next issue) ----------------------------------------
    def _relic_points(self, seat: int) -> int:
        """+1 per relic whose territory the seat holds (relic identities arrive with the next issue)."""
        return 0

    def _godswar_bonus(self, seat: int) -> int:
        """Added to a side's godswar total (Hammer of Thor +3, Fire Sears the Sky +4): ``miracles.py``."""
        return 0

    def _godswar_reroll(self, seat: int) -> bool:
        """Whether the side re-rolls its 1s in godswar (Gungnir): ``miracles.py``."""
        return False

    def _spare_defenders(self, owner: int, losses: int) -> int:
        """Defending losses after the Tree of Life (faith instead of armies): ``miracles.py``."""
        return losses

    def _crypt_revive(self, seat: int) -> int:
        """Armies a crypt sends to a temple (2 with the Scales of Osiris): ``miracles.py``."""
        return 1

    def neighbours(self, tid: str) -> tuple[str, ...]:
        """A territory's links now (sunken Atlantis and the maelstrom cut some: ``miracles.py``)."""
        return board.NEIGHBOURS[tid]

    def connected(self, start: str, owned: set[str]) -> set[str]:
        return board.connected(start, owned)

    # ---- refusal ------------------------------------------------------------------------
    @staticmethod
    def _refuse(key: str, **params: Any) -> IllegalAction:
        return IllegalAction("godstorm.err." + key, **params)
