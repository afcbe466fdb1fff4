"""Small games for the panel tests: many choices under one label, and a seat that moves several times."""

from __future__ import annotations

from bot.games.base import Action, Event
from tests.platform.toy import TARGET, Toy


class Wide(Toy):
    """The toy, but a turn offers ``WIDTH`` additions, all under one first-level label ("Add")."""

    key = "toy"
    WIDTH = 30

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        if self.s["secret"] is not None:
            return super().legal_actions(seat)
        return [{"type": "add", "n": n} for n in range(1, self.WIDTH + 1)]

    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        if action["type"] == "add":
            return ["Add", f"+{action['n']}"]
        return super().action_path(seat, action, lang)


class Streak(Toy):
    """The toy, but a seat adds three times in a row before the turn passes (a Godstorm-like turn)."""

    key = "toy"

    def apply(self, seat: int, action: Action) -> list[Event]:
        if seat < 0 or self.s["secret"] is not None or action not in self.legal_actions(seat):
            return super().apply(seat, action)
        self.s["total"] += action["n"]
        self.s["moves"] += 1
        events: list[Event] = [{"type": "added", "seat": seat, "n": action["n"], "total": self.s["total"]}]
        if self.s["total"] >= TARGET * 10:
            self.s["winner"] = seat
        elif self.s["moves"] % 3 == 0:
            self.s["turn"] = (seat + 1) % self.s["n"]
        return events

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]
