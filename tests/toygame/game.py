"""Hidden tic-tac-toe: the rules of the throwaway test game (pure Python, like every game's rules).

Two seats mark cells of a 3x3 board in turn (seat 0 ``X``, seat 1 ``O``; who starts is drawn). Every move
also picks a secret number 1-3, seen only by its player until the game ends. Three in a row wins; a full
board without a line goes to the larger sum of secret numbers, equal sums draw. With the option
``secrets: off`` every secret number is 1 (plain tic-tac-toe, decided on the board alone).
"""

from __future__ import annotations

import random
from typing import Any

from bot.core.i18n import t
from bot.games import narration
from bot.games.base import Action, Arrangement, Event, Game, IllegalAction, OptionSpec, Player, Rng
from bot.games.manifest import CatchUp, Conformance, Counter

CELLS = 9
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = ("X", "O")


def cell_name(cell: int) -> str:
    return "ABC"[cell % 3] + str(cell // 3 + 1)


class HiddenToe(Game):
    key = "toygame"

    def __init__(self, state: dict[str, Any]) -> None:
        self.s = state

    # ---- lobby ------------------------------------------------------------------------------------
    @classmethod
    def option_specs(cls) -> list[OptionSpec]:
        return [OptionSpec("secrets", "toygame.opt.secrets",
                           (("on", "toygame.opt.secrets.on"), ("off", "toygame.opt.secrets.off")), "on")]

    @classmethod
    def player_range(cls, options: dict[str, Any]) -> tuple[int, int]:
        return 2, 2

    @classmethod
    def arrange_seats(cls, players: list[Player], options: dict[str, Any], rng: Rng) -> Arrangement:
        if len(players) != 2:
            raise IllegalAction("toygame.err.players")
        users = [p.user_id for p in players]
        rng.shuffle(users)
        return Arrangement([[u] for u in users], [{}, {}])

    @classmethod
    def new(cls, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int) -> HiddenToe:
        opts = {**cls.default_options(), **options}
        if len(seat_info) != 2 or opts["secrets"] not in ("on", "off"):
            raise IllegalAction("toygame.err.players")
        rng = Rng(seed)
        first = rng.randint(0, 1)
        return cls({"board": [None] * CELLS, "secrets": [[], []], "turn": first, "options": opts,
                    "outcome": None, "rng": rng.to_json()})

    # ---- play -------------------------------------------------------------------------------------
    def actors(self) -> list[int]:
        return [] if self.s["outcome"] is not None else [self.s["turn"]]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.actors():
            return []
        numbers = (1, 2, 3) if self.s["options"]["secrets"] == "on" else (1,)
        return [{"type": "mark", "cell": c, "secret": n}
                for c in range(CELLS) if self.s["board"][c] is None for n in numbers]

    def is_secret(self, seat: int, action: Action) -> bool:
        return True  # the secret number rides with every move

    def apply(self, seat: int, action: Action) -> list[Event]:
        if not self.is_listed(seat, action):
            raise IllegalAction("toygame.err.illegal")
        s = self.s
        cell, secret = action["cell"], action["secret"]
        s["board"][cell] = seat
        s["secrets"][seat].append(secret)
        events: list[Event] = [{"type": "marked", "seat": seat, "cell": cell},
                               {"type": "chose", "seat": seat, "n": secret, "to": [seat]}]
        line = next((ln for ln in LINES if all(s["board"][c] == seat for c in ln)), None)
        if line is not None:
            s["outcome"] = {"winners": [seat], "draw": False, "reason": "line", "sums": self.sums()}
            events.append({"type": "line", "seat": seat, "cells": list(line)})
        elif all(c is not None for c in s["board"]):
            sums = self.sums()
            winners = [] if sums[0] == sums[1] else [0 if sums[0] > sums[1] else 1]
            s["outcome"] = {"winners": winners, "draw": not winners, "reason": "secrets", "sums": sums}
        else:
            s["turn"] = 1 - seat
        if s["outcome"] is not None:
            events.append({"type": "game_over", "winners": s["outcome"]["winners"], "sums": s["outcome"]["sums"]})
        return events

    def sums(self) -> list[int]:
        return [sum(self.s["secrets"][0]), sum(self.s["secrets"][1])]

    def timeout_action(self, seat: int) -> Action | None:
        legal = self.legal_actions(seat)
        return legal[0] if legal else None

    def outcome(self) -> dict[str, Any] | None:
        return self.s["outcome"]

    # ---- views and state --------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        s = self.s
        view: dict[str, Any] = {"game": self.key, "board": list(s["board"]), "turn": s["turn"],
                                "moves": [len(s["secrets"][0]), len(s["secrets"][1])],
                                "outcome": s["outcome"]}
        if seat in (0, 1):
            view["seat"] = seat
            view["secrets"] = list(s["secrets"][seat])
        return view

    def to_json(self) -> dict[str, Any]:
        return {**self.s, "board": list(self.s["board"]), "secrets": [list(x) for x in self.s["secrets"]],
                "options": dict(self.s["options"])}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HiddenToe:
        return cls({**data, "board": list(data["board"]), "secrets": [list(x) for x in data["secrets"]],
                    "options": dict(data["options"])})

    # ---- text -------------------------------------------------------------------------------------
    def side_name(self, side: int, lang: str) -> str:
        return MARKS[side]

    def who(self, seat: int) -> str:
        return self.seat_display(seat, MARKS[seat])

    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        return [t("toygame.cell", lang, cell=cell_name(action["cell"])), t("toygame.secret", lang, n=action["secret"])]

    def event_text(self, event: Event, lang: str) -> str | None:
        kind = event["type"]
        if kind == "marked":
            return t("toygame.ev.marked", lang, who=self.who(event["seat"]), mark=MARKS[event["seat"]],
                     cell=cell_name(event["cell"]))
        if kind == "chose":
            return t(narration.key("toygame.ev.chose"), lang, n=event["n"], **narration.named(self.who(event["seat"])))
        if kind == "line":
            return t("toygame.ev.line", lang, who=self.who(event["seat"]))
        if kind == "game_over":
            return t("toygame.ev.over", lang, x=event["sums"][0], o=event["sums"][1])
        return None

    def status_lines(self, lang: str) -> list[str]:
        if self.s["outcome"] is not None:
            return []
        turn = self.s["turn"]
        return [t("toygame.status", lang, who=self.who(turn), mark=MARKS[turn])]

    def private_text(self, seat: int, lang: str) -> str:
        mine = self.s["secrets"][seat]
        if not mine:
            return ""
        return t(narration.key("toygame.private"), lang, numbers=", ".join(map(str, mine)), sum=sum(mine),
                 **narration.named(self.who(seat)))

    def prompt_text(self, seat: int, lang: str) -> str:
        return t("toygame.prompt", lang, mark=MARKS[seat]) if seat in self.actors() else ""


# ---- what the platform reads through the manifest -------------------------------------------------
CATCHUP = CatchUp(counters={"marked": (Counter("toygame.cu.marks", "seat"),)})
"""The catch-up summary counts the cells each other seat marked (its label from the toy's own strings)."""


def bench_state() -> HiddenToe:
    """A deterministic position with four marks on the board."""
    game = HiddenToe.new([{}, {}], {}, 2024)
    for cell in (4, 0, 8, 2):
        seat = game.actors()[0]
        game.apply(seat, {"type": "mark", "cell": cell, "secret": 1 + cell % 3})
    return game


def hidden_twin(game: Game, seat: int | None, rng: random.Random) -> Game | None:
    """The other seat's secret numbers changed (while the game runs: they are told at its end)."""
    assert isinstance(game, HiddenToe)
    if game.outcome() is not None:
        return None
    twin = HiddenToe.from_json(game.to_json())
    changed = False
    for other in (0, 1):
        if other != seat and twin.s["secrets"][other]:
            twin.s["secrets"][other] = [1 + (n % 3) for n in twin.s["secrets"][other]]
            changed = True
    return twin if changed else None


CONFORMANCE = Conformance(setups=(([{}, {}], {}), ([{}, {}], {"secrets": "off"})), max_actions=9,
                          hidden_twin=hidden_twin, illegal=({"type": "mark", "cell": 9, "secret": 1},))
