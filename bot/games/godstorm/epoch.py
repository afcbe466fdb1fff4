"""Epochs: the secret faith bid, turn-order picks, the end of an epoch, final scoring."""

from __future__ import annotations

from bot.games.base import Action
from bot.games.godstorm import board, data
from bot.games.godstorm import events as ev
from bot.games.godstorm.actions import BidAction, PickOrderAction
from bot.games.godstorm.core import Core, as_int
from bot.games.godstorm.setup import roll_order


def score_of(game: Core, seat: int) -> dict[str, int]:
    """Final score parts of one seat (relic territory bonuses arrive with the relic cards)."""
    owned = game.owned(seat)
    conts = board.continents_held(owned)
    spaces = sum(1 for sp in board.CRYPTS + board.ALTARS if game.s.uw[sp].owner == seat)
    relics = game._relic_points(seat)
    return {
        "territories": len(owned),
        "continents": sum(board.BONUS[c] for c in conts),
        "underworld": spaces,
        "relics": relics,
        "total": len(owned) + sum(board.BONUS[c] for c in conts) + spaces + relics,
    }


def tiebreak_key(game: Core, seat: int) -> tuple[int, int, int, int, int]:
    """Score, then the rulebook's chain: faith, temples, gods in play, armies on the Ancient Earth."""
    p = game.s.players[seat]
    return (
        score_of(game, seat)["total"],
        p.faith,
        len(game.temples_of(seat)),
        len(game.gods_on_board(seat)),
        game.board_armies(seat),
    )


class EpochMixin(Core):
    def _start_epoch(self, epoch: int) -> None:
        s = self.s
        s.epoch = epoch
        s.current = None
        s.phase = s.step = "bid"
        for p in s.players:
            p.bid = None
        self._emit(ev.EpochStart(type="epoch_start", epoch=epoch))
        if len(self.active_seats()) <= 1:
            self._finish_game()

    # ---- bids ---------------------------------------------------------------------------
    def _bid_legal(self, seat: int) -> list[Action]:
        p = self.s.players[seat]
        if p.eliminated or p.bid is not None:
            return []
        f = p.faith
        values = range(f + 1) if f <= 20 else sorted({0, 1, 2, 3, 4, 5, 6, 8, 10, f // 2, f - 1, f})
        return [{"type": "bid", "faith": v} for v in values]

    def _act_bid(self, seat: int, a: BidAction) -> None:
        p = self.s.players[seat]
        n = as_int(a.get("faith"))
        if n is None or not 0 <= n <= p.faith:
            raise self._refuse("bad_bid")
        p.bid = n
        self._emit(ev.BidSecret(type="bid_secret", to=[seat], faith=n))
        self._emit(ev.HasBid(type="has_bid", seat=seat))
        waiting = [i for i in self.active_seats() if self.s.players[i].bid is None]
        if not waiting:
            self._reveal_bids()

    def _reveal_bids(self) -> None:
        s = self.s
        seats = self.active_seats()
        spent = {i: s.players[i].bid or 0 for i in seats}  # every active seat has bid by now
        for i in seats:
            s.players[i].faith -= spent[i]
        self._emit(ev.BidsRevealed(type="bids_revealed", bids={str(i): b for i, b in spent.items()}))
        bids = {i: spent[i] + self._bid_bonus(i) for i in seats}
        queue: list[int] = []
        for value in sorted(set(bids.values()), reverse=True):
            tied = [i for i in seats if bids[i] == value]
            if len(tied) > 1:
                tied, rolls = roll_order(self.rng, tied)
                self._emit(ev.BidTie(type="bid_tie", seats=sorted(tied), rolls=rolls, order=tied))
            queue.extend(tied)
        s.pick_queue = queue
        s.positions = {}
        s.phase = s.step = "pick_order"
        self._auto_last_pick()

    def _bid_bonus(self, seat: int) -> int:
        """Hook: relics adding to the turn-order bid (Tablet of Destiny, +3): next issue."""
        return 0

    def _free_positions(self) -> list[int]:
        taken = set(self.s.positions.values())
        return [k for k in range(1, len(self.active_seats()) + 1) if k not in taken]

    def _pick_legal(self, seat: int) -> list[Action]:
        if not self.s.pick_queue or self.s.pick_queue[0] != seat:
            return []
        return [{"type": "pick_order", "position": k} for k in self._free_positions()]

    def _act_pick_order(self, seat: int, a: PickOrderAction) -> None:
        k = as_int(a.get("position"))
        if k not in self._free_positions():
            raise self._refuse("bad_position")
        self.s.pick_queue.pop(0)
        self.s.positions[str(seat)] = k
        self._emit(ev.OrderPicked(type="order_picked", seat=seat, position=k))
        self._auto_last_pick()

    def _auto_last_pick(self) -> None:
        s = self.s
        if len(s.pick_queue) == 1:
            seat = s.pick_queue.pop(0)
            k = self._free_positions()[0]
            s.positions[str(seat)] = k
            self._emit(ev.OrderPicked(type="order_picked", seat=seat, position=k))
        if not s.pick_queue:
            s.turn_order = sorted(self.active_seats(), key=lambda i: s.positions[str(i)])
            s.turn_idx = 0
            s.phase = "turn"
            self._emit(ev.TurnOrder(type="turn_order", order=list(s.turn_order)))
            self._start_turn()

    # ---- turn passing -------------------------------------------------------------------
    def _next_turn(self) -> None:
        s = self.s
        if s.outcome is not None:
            return
        order = s.turn_order
        while True:
            s.turn_idx += 1
            if s.turn_idx >= len(order):
                if not self.godstorm:
                    s.turn_idx = 0
                else:
                    epoch = s.epoch or 0  # set from the first epoch on (Godstorm turns run inside epochs)
                    if epoch >= data.EPOCHS:
                        self._finish_game()
                    else:
                        self._start_epoch(epoch + 1)
                    return
            if not s.players[order[s.turn_idx]].eliminated:
                break
        self._start_turn()

    def _finish_game(self) -> None:
        s = self.s
        s.phase = s.step = "over"
        s.current = None
        s.battle = s.move = None
        seats = self.active_seats()
        if not self.godstorm:
            winners = seats if len(seats) == 1 else []
            s.outcome = {"winners": winners, "draw": False, "reason": "domination"}
            self._emit(ev.GameOver(type="game_over", winners=winners))
            return
        scores = {str(i): score_of(self, i) for i in range(len(s.players)) if i in seats}
        best = max(tiebreak_key(self, i) for i in seats)
        winners = [i for i in seats if tiebreak_key(self, i) == best]
        s.outcome = {
            "winners": winners,
            "draw": len(winners) > 1,
            "scores": {k: v["total"] for k, v in scores.items()},
            "details": scores,
            "reason": "epochs",
        }
        self._emit(ev.GameOver(type="game_over", winners=winners, scores={k: v["total"] for k, v in scores.items()}))


