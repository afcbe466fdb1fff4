"""The text side of Pobeda (labels, event texts, prompts), kept apart from the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.i18n import join_or, sort_key, t
from bot.games import narration
from bot.games.base import Action, Event
from bot.games.pobeda.data import card_kind, card_order, cell_index, cell_name
from bot.games.pobeda.data import events as all_events
from bot.games.pobeda.text import (
    card_label,
    colour_name,
    event_description,
    event_label,
    event_title,
    format_date,
    seat_label,
    side_name,
)


class TextMixin:
    """Mixed into :class:`Pobeda`; relies on its ``s`` state and helper methods."""

    s: dict[str, Any]

    if TYPE_CHECKING:  # provided by Pobeda, which this is mixed into
        def side_of(self, seat: int) -> int: ...

        def seat_display(self, seat: int, fallback: str) -> str: ...

        def lines_of(self, side: int) -> int: ...

        def has_play(self, seat: int) -> bool: ...

        def can_replace(self, seat: int) -> bool: ...

        def legal_actions(self, seat: int) -> list[Action]: ...

    @classmethod
    def team_label(cls, team: int, options: dict[str, Any], lang: str) -> str:
        return t("pobeda.team_name", lang, colour=colour_name(team, lang))

    def side_name(self, side: int, lang: str) -> str:
        return side_name(side, bool(self.s["options"]["teams"]), lang)

    def _who(self, seat: int, lang: str) -> str:
        name = self.seat_display(seat, seat_label(seat, lang))
        return t("pobeda.who", lang, seat=name, side=self.side_name(self.side_of(seat), lang))

    # ---- controls ----------------------------------------------------------------------
    def panel_actions(self, seat: int, lang: str) -> list[Action]:
        """The legal actions in the panel's order for a reader of ``lang`` (issue 13). Event cards are
        labelled date first, as on the card, so they are listed by date and then by their title in the
        reader's alphabet; special cards keep their kind order, action kinds, rows, cells and line
        options the rules' order."""
        legal = self.legal_actions(seat)
        kinds: dict[str, int] = {}

        def key(i: int) -> tuple[Any, ...]:
            a = legal[i]
            parts: list[Any] = [kinds.setdefault(str(a.get("type")), len(kinds))]
            card = a.get("card")
            if isinstance(card, str):
                if card_kind(card) == "event":
                    parts += [0, str(all_events()[card]["date"]), sort_key(event_title(card, lang), lang)]
                else:
                    parts += [1, card_order(card), ()]
            return (*parts, i)

        return [legal[i] for i in sorted(range(len(legal)), key=key)]

    def action_path(self, seat: int, action: Action, lang: str) -> list[str]:
        kind = action.get("type")
        if kind == "play":
            card = action["card"]
            if card_kind(card) == "event":
                return [card_label(card, lang)]
            row = cell_index(action["cell"]) // 12 + 1
            return [card_label(card, lang), t("pobeda.row", lang, n=row), action["cell"]]
        if kind == "discard_dead":
            return [t("pobeda.path.discard", lang, card=card_label(action["card"], lang))[:80]]
        if kind == "replace_dead":
            return [t("pobeda.path.replace", lang, card=card_label(action["card"], lang))[:80]]
        if kind == "choose_line":
            pending = self.s["pending"]
            option = pending["queue"][0][action["option"]] if pending else []
            spans = ", ".join(f"{cell_name(w[0])}–{cell_name(w[-1])}" for w in option)
            return [t("pobeda.path.line", lang, n=action["option"] + 1, cells=spans)]
        if kind == "penalty_card":
            return [t("pobeda.path.penalty", lang, card=card_label(action["card"], lang))[:80]]
        if kind == "penalty":
            return [t("pobeda.path.admin_penalty", lang, side=self.side_name(action["side"], lang))]
        if kind == "pass":
            return [t("pobeda.path.pass", lang)]
        return [str(kind)]

    # ---- events ------------------------------------------------------------------------
    def event_text(self, event: Event, lang: str) -> str | None:
        kind = event.get("type")
        if kind == "played":
            who = self._who(event["seat"], lang)
            if event["kind"] == "event":
                ev = event["event"]
                date = format_date(all_events()[ev]["date"], lang)
                return t("pobeda.evt.played", lang, who=who, title=event_title(ev, lang), date=date,
                         cell=event["cell"], description=event_description(ev, lang))
            victim = event.get("victim")
            victim_name = self.side_name(victim, lang) if isinstance(victim, int) and victim >= 0 else ""
            return t(f"pobeda.evt.{event['kind']}", lang, who=who, cell=event["cell"], victim=victim_name)
        if kind == "discarded":
            return t("pobeda.evt.discarded", lang, who=self._who(event["seat"], lang),
                     card=card_label(event["card"], lang))
        if kind == "replaced":
            return t("pobeda.evt.replaced", lang, who=self._who(event["seat"], lang),
                     card=card_label(event["card"], lang))
        if kind == "line":
            cells = event["cells"]
            key = "pobeda.evt.line_single" if self.s["required"] == 1 else "pobeda.evt.line"  # no "1 of 1"
            return t(key, lang, side=self.side_name(event["side"], lang),
                     start=cells[0], end=cells[-1], count=event["count"], required=self.s["required"])
        if kind == "line_choice":
            return t("pobeda.evt.line_choice", lang, who=self._who(event["seat"], lang), cell=event["cell"])
        if kind == "passed":
            return t("pobeda.evt.passed", lang, who=self._who(event["seat"], lang))
        if kind == "skipped":
            key = "pobeda.evt.skipped_drew" if event["drew"] else "pobeda.evt.skipped"
            return t(key, lang, who=self._who(event["seat"], lang))
        if kind == "drew":
            return t(narration.key("pobeda.evt.drew"), lang, card=card_label(event["card"], lang),
                     name=self._who(event["seat"], lang))
        if kind == "penalty":
            key = "pobeda.evt.penalty" if event["seats"] else "pobeda.evt.penalty_empty"
            return t(key, lang, side=self.side_name(event["side"], lang))
        if kind == "penalty_card":
            return t("pobeda.evt.penalty_card", lang, who=self._who(event["seat"], lang))
        if kind == "penalty_card_private":
            return t(narration.key("pobeda.evt.penalty_card_private"), lang, card=card_label(event["card"], lang),
                     name=self._who(event["seat"], lang))
        if kind == "penalty_done":
            return t("pobeda.evt.penalty_done", lang, side=self.side_name(event["side"], lang),
                     deck=event["deck"])
        if kind == "game_over":
            return self._outcome_text(event, lang)
        return None

    def _outcome_text(self, outcome: dict[str, Any], lang: str) -> str:
        names = ", ".join(self.side_name(k, lang) for k in outcome["winners"])
        if outcome["draw"]:
            return t("pobeda.evt.draw", lang, sides=names)
        key = "pobeda.evt.win_lines" if outcome["reason"] == "lines" else "pobeda.evt.win_cards"
        return t(key, lang, side=names)

    # ---- status and prompts ------------------------------------------------------------
    def status_lines(self, lang: str) -> list[str]:
        s = self.s
        # one line wins: "no line yet" instead of "0 of 1 lines" (issue 25)
        out = [t("pobeda.status.no_line" if s["required"] == 1 and self.lines_of(k) == 0 else "pobeda.status.lines",
                 lang, side=self.side_name(k, lang), n=self.lines_of(k), required=s["required"])
               for k in range(s["n_sides"])]
        out.append(t("pobeda.status.deck", lang, n=len(s["deck"])))
        # whose turn and the result are said by the platform, with the players' names
        if s["outcome"] is None and s["penalty"] is not None:
            out.append(t("pobeda.status.penalty", lang, side=self.side_name(s["penalty"]["side"], lang)))
        return out

    def private_text(self, seat: int, lang: str) -> str:
        hand = self.s["hands"][seat] if 0 <= seat < len(self.s["hands"]) else []
        name = self._who(seat, lang)  # told in the third person in a replay (bot.games.narration)
        if not hand:
            return t(narration.key("pobeda.hand.empty"), lang, name=name)
        lines = [t(narration.key("pobeda.hand.title"), lang, n=len(hand), name=name)]
        for card in sorted(hand, key=lambda c: (card_kind(c) != "event", c)):
            if card_kind(card) == "event":
                cell = cell_name(self.cell_of[card])  # type: ignore[attr-defined]
                lines.append(f"• {event_label(card, lang)} ({cell})")
            else:
                lines.append(f"• {card_label(card, lang)}: {t(f'pobeda.card.{card_kind(card)}.help', lang)}")
        return "\n".join(lines)

    def prompt_text(self, seat: int, lang: str) -> str:
        s = self.s
        if s["outcome"] is not None:
            return ""
        if s["penalty"] is not None:
            if seat in s["penalty"]["waiting"] and str(seat) not in s["penalty"]["chosen"]:
                return t("pobeda.prompt.penalty", lang)
            return ""
        if s["pending"] is not None:
            return t("pobeda.prompt.choose_line", lang) if s["pending"]["seat"] == seat else ""
        if s["current"] != seat:
            return ""
        side = self.side_of(seat)
        if self.supply(side) <= 0:  # type: ignore[attr-defined]
            kinds = {str(a.get("type")) for a in self.legal_actions(seat)}  # name only what is offered
            offered = [t(f"pobeda.prompt.no_chips_{k}", lang) for k, kind in NO_CHIPS_CHOICES if kind in kinds]
            if offered:
                return t("pobeda.prompt.no_chips_list", lang, choices=join_or(offered, lang))
            return t("pobeda.prompt.no_chips", lang)
        if not self.has_play(seat):
            key = "pobeda.prompt.all_dead_replace" if self.can_replace(seat) else "pobeda.prompt.all_dead"
            return t(key, lang)
        if s["replaced"]:
            return t("pobeda.prompt.after_replace", lang)
        return t("pobeda.prompt.turn", lang)


NO_CHIPS_CHOICES = (("play", "play"), ("discard", "discard_dead"), ("replace", "replace_dead"))
"""What a side without chips may do (phrase key, action type), in the order the prompt names them."""
