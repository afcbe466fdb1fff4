"""A tiny game used only by the platform's tests: it exercises turns, a simultaneous secret
choice, private events, a moderator action and timeouts without depending on a real game."""

from __future__ import annotations

from typing import Any

from bot.games.base import ADMIN, Action, Arrangement, Event, Game, IllegalAction, Player, Rng
from bot.games.manifest import GameManifest, RendererSpec

TARGET = 10


class Toy(Game):
    """Players add 1 or 2 to a shared total in turn; whoever reaches 10 wins.

    Every third move opens a *secret round*: all seats pick a number at once (private events),
    revealed when the last one has picked. A moderator may add a penalty of 1 to the total.
    """

    key = "toy"

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state
        self.rng = Rng.from_json(state["rng"])

    @classmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        return 2, 4

    @classmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        return Arrangement([[p.user_id] for p in players], [{} for _ in players])

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> Toy:
        rng = Rng(seed)
        first = rng.randint(0, len(seat_info) - 1)
        return cls({"n": len(seat_info), "total": 0, "turn": first, "moves": 0, "secret": None,
                    "winner": None, "rng": rng.to_json()})

    def actors(self) -> list[int]:
        if self.s["winner"] is not None:
            return []
        if self.s["secret"] is not None:
            return [i for i in range(self.s["n"]) if str(i) not in self.s["secret"]]
        return [self.s["turn"]]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        if self.s["secret"] is not None:
            return [{"type": "pick", "n": n} for n in (1, 2, 3)]
        return [{"type": "add", "n": 1}, {"type": "add", "n": 2}]

    def admin_actions(self) -> list[Action]:
        return [] if self.s["winner"] is not None else [{"type": "penalty"}]

    def apply(self, seat: int, action: Action) -> list[Event]:
        if seat == ADMIN:
            if action not in self.admin_actions():
                raise IllegalAction("toy.illegal")
            self.s["total"] = max(0, self.s["total"] - 1)
            return [{"type": "penalty"}]
        if action not in self.legal_actions(seat):
            raise IllegalAction("toy.illegal")
        events: list[Event] = []
        if action["type"] == "pick":
            self.s["secret"][str(seat)] = action["n"]
            events.append({"type": "picked", "seat": seat, "n": action["n"], "to": [seat]})
            if len(self.s["secret"]) == self.s["n"]:
                picks = self.s["secret"]
                self.s["secret"] = None
                events.append({"type": "reveal", "picks": picks})
            return events
        self.s["total"] += action["n"]
        self.s["moves"] += 1
        events.append({"type": "added", "seat": seat, "n": action["n"], "total": self.s["total"]})
        if self.s["total"] >= TARGET:
            self.s["winner"] = seat
        else:
            self.s["turn"] = (seat + 1) % self.s["n"]
            if self.s["moves"] % 3 == 0:
                self.s["secret"] = {}
        self.s["rng"] = self.rng.to_json()
        return events

    def timeout_action(self, seat: int) -> Action | None:
        if self.s["secret"] is not None:
            return {"type": "pick", "n": 1}
        return {"type": "add", "n": 1}

    def is_simultaneous(self) -> bool:
        return self.s["secret"] is not None

    def outcome(self) -> dict[str, Any] | None:
        if self.s["winner"] is None:
            return None
        return {"winners": [self.s["winner"]], "draw": False}

    def view(self, seat: int | None) -> dict[str, Any]:
        view = {"total": self.s["total"], "turn": self.s["turn"], "chosen": sorted(self.s["secret"] or {})}
        if seat is not None and self.s["secret"] and str(seat) in self.s["secret"]:
            view["my_pick"] = self.s["secret"][str(seat)]
        return view

    def to_json(self) -> dict[str, Any]:
        self.s["rng"] = self.rng.to_json()
        return self.s

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Toy:
        return cls(data)

    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return [f"{action['type']} {action['n']}"]

    def event_text(self, event: Event, lang: str) -> str | None:
        if event["type"] == "added":
            return f"seat {event['seat'] + 1} adds {event['n']} -> {event['total']}"
        if event["type"] == "picked":
            return f"you picked {event['n']}"
        if event["type"] == "reveal":
            return "picks revealed: " + ", ".join(f"{k}={v}" for k, v in sorted(event["picks"].items()))
        return event["type"]


def render(view: dict[str, Any], lang: str) -> bytes:
    from PIL import Image

    from render.common import to_png

    return to_png(Image.new("RGB", (64, 64), (view["total"] * 20 % 256, 40, 40)))


def toy_manifest(rules: str = "tests.platform.toy:Toy") -> GameManifest:
    """The toy registered as game ``toy`` (``monkeypatch.setitem(registry.GAMES, "toy", toy_manifest())``),
    with ``rules`` naming another class for a variant of it."""
    return GameManifest(key="toy", rules=rules, renderer=RendererSpec("tests.platform.toy"))
