"""Pobeda's texts (panel order, action labels, event lines, status, hand and prompts), built outside the rules.

Each function reads the typed state (:class:`~bot.games.pobeda.state.PobedaState`) or, where a text needs the
rules' answers (the seats' display names, what is legal or dead now), the game, and never changes either;
:class:`~bot.games.pobeda.game.Pobeda` keeps the contract's text methods as one-line calls of these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from bot.core.i18n import join_or, sort_key, t
from bot.games import narration
from bot.games.base import Action, Event
from bot.games.pobeda.data import card_kind, card_order, cell_index, cell_name
from bot.games.pobeda.data import events as all_events
from bot.games.pobeda.state import PobedaState
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
from bot.games.pobeda.vocab import (
    ChooseLineAction,
    DiscardAction,
    DiscardedEvent,
    DrewEvent,
    GameOverEvent,
    LineChoiceEvent,
    LineEvent,
    OutcomeRecord,
    PassedEvent,
    PenaltyAction,
    PenaltyCardAction,
    PenaltyCardEvent,
    PenaltyCardPrivateEvent,
    PenaltyDoneEvent,
    PenaltyEvent,
    PlayAction,
    PlayedEvent,
    ReplaceAction,
    ReplacedEvent,
    SkippedEvent,
)

if TYPE_CHECKING:
    from bot.games.pobeda.game import Pobeda

NO_CHIPS_CHOICES = (("play", "play"), ("discard", "discard_dead"), ("replace", "replace_dead"))
"""What a side without chips may do (phrase key, action type), in the order the prompt names them."""


def team_label(team: int, lang: str) -> str:
    return t("pobeda.team_name", lang, colour=colour_name(team, lang))


def side_label(s: PobedaState, side: int, lang: str) -> str:
    """The side's name: its colour, or its team in a team game."""
    return side_name(side, bool(s.options.teams), lang)


def who(game: Pobeda, seat: int, lang: str) -> str:
    """``Anna (Red)``: the seat's player (or ``Seat 2``) and side."""
    name = game.seat_display(seat, seat_label(seat, lang))
    return t("pobeda.who", lang, seat=name, side=side_label(game.s, game.side_of(seat), lang))


# ---- controls ------------------------------------------------------------------------------
def panel_actions(legal: list[Action], lang: str) -> list[Action]:
    """The legal actions in the panel's order for a reader of ``lang`` (issue 13). Event cards are
    labelled date first, as on the card, so they are listed by date and then by their title in the
    reader's alphabet; special cards keep their kind order, action kinds, rows, cells and line
    options the rules' order."""
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


def action_path(s: PobedaState, action: Action, lang: str) -> list[str]:
    """The labels of one legal action, coarse to fine (a special card: the card, the row, the cell)."""
    kind = action.get("type")
    if kind == "play":
        play = cast("PlayAction", action)
        card = play["card"]
        if card_kind(card) == "event":
            return [card_label(card, lang)]
        cell = play["cell"]
        row = cell_index(cell) // 12 + 1
        return [card_label(card, lang), t("pobeda.row", lang, n=row), cell]
    if kind == "discard_dead":
        discard = cast("DiscardAction", action)
        return [t("pobeda.path.discard", lang, card=card_label(discard["card"], lang))[:80]]
    if kind == "replace_dead":
        replace = cast("ReplaceAction", action)
        return [t("pobeda.path.replace", lang, card=card_label(replace["card"], lang))[:80]]
    if kind == "choose_line":
        choose = cast("ChooseLineAction", action)
        option = s.pending.queue[0][choose["option"]] if s.pending is not None else []
        spans = ", ".join(f"{cell_name(w[0])}–{cell_name(w[-1])}" for w in option)
        return [t("pobeda.path.line", lang, n=choose["option"] + 1, cells=spans)]
    if kind == "penalty_card":
        given = cast("PenaltyCardAction", action)
        return [t("pobeda.path.penalty", lang, card=card_label(given["card"], lang))[:80]]
    if kind == "penalty":
        penalty = cast("PenaltyAction", action)
        return [t("pobeda.path.admin_penalty", lang, side=side_label(s, penalty["side"], lang))]
    if kind == "pass":
        return [t("pobeda.path.pass", lang)]
    if kind == "confirm":  # with an undo window (issue 27): the draw, or only the turn's end once the deck is empty
        return [t("pobeda.path.confirm" if s.deck else "pobeda.path.confirm_end", lang)]
    return [str(kind)]


# ---- events --------------------------------------------------------------------------------
def event_text(game: Pobeda, event: Event, lang: str) -> str | None:
    """One line of an event in ``lang`` (None: an event without text)."""
    kind = event.get("type")
    s = game.s
    if kind == "played":
        played = cast("PlayedEvent", event)
        name = who(game, played["seat"], lang)
        if played["kind"] == "event":
            ev = played["event"]
            date = format_date(all_events()[ev]["date"], lang)
            return t("pobeda.evt.played", lang, who=name, title=event_title(ev, lang), date=date,
                     cell=played["cell"], description=event_description(ev, lang))
        victim = played.get("victim")
        victim_name = side_label(s, victim, lang) if isinstance(victim, int) and victim >= 0 else ""
        return t(f"pobeda.evt.{played['kind']}", lang, who=name, cell=played["cell"], victim=victim_name)
    if kind == "discarded":
        discarded = cast("DiscardedEvent", event)
        return t("pobeda.evt.discarded", lang, who=who(game, discarded["seat"], lang),
                 card=card_label(discarded["card"], lang))
    if kind == "replaced":
        replaced = cast("ReplacedEvent", event)
        return t("pobeda.evt.replaced", lang, who=who(game, replaced["seat"], lang),
                 card=card_label(replaced["card"], lang))
    if kind == "line":
        line = cast("LineEvent", event)
        cells = line["cells"]
        key = "pobeda.evt.line_single" if s.required == 1 else "pobeda.evt.line"  # no "1 of 1"
        return t(key, lang, side=side_label(s, line["side"], lang),
                 start=cells[0], end=cells[-1], count=line["count"], required=s.required)
    if kind == "line_choice":
        choice = cast("LineChoiceEvent", event)
        return t("pobeda.evt.line_choice", lang, who=who(game, choice["seat"], lang), cell=choice["cell"])
    if kind == "passed":
        passed = cast("PassedEvent", event)
        return t("pobeda.evt.passed", lang, who=who(game, passed["seat"], lang))
    if kind == "skipped":
        skipped = cast("SkippedEvent", event)
        key = "pobeda.evt.skipped_drew" if skipped["drew"] else "pobeda.evt.skipped"
        return t(key, lang, who=who(game, skipped["seat"], lang))
    if kind == "drew":
        drew = cast("DrewEvent", event)
        return t(narration.key("pobeda.evt.drew"), lang, card=card_label(drew["card"], lang),
                 name=who(game, drew["seat"], lang))
    if kind == "penalty":
        penalty = cast("PenaltyEvent", event)
        key = "pobeda.evt.penalty" if penalty["seats"] else "pobeda.evt.penalty_empty"
        return t(key, lang, side=side_label(s, penalty["side"], lang))
    if kind == "penalty_card":
        given = cast("PenaltyCardEvent", event)
        return t("pobeda.evt.penalty_card", lang, who=who(game, given["seat"], lang))
    if kind == "penalty_card_private":
        private = cast("PenaltyCardPrivateEvent", event)
        return t(narration.key("pobeda.evt.penalty_card_private"), lang, card=card_label(private["card"], lang),
                 name=who(game, private["seat"], lang))
    if kind == "penalty_done":
        done = cast("PenaltyDoneEvent", event)
        return t("pobeda.evt.penalty_done", lang, side=side_label(s, done["side"], lang), deck=done["deck"])
    if kind == "game_over":
        return outcome_text(s, cast("GameOverEvent", event), lang)
    return None


def outcome_text(s: PobedaState, outcome: OutcomeRecord | GameOverEvent, lang: str) -> str:
    names = ", ".join(side_label(s, k, lang) for k in outcome["winners"])
    if outcome["draw"]:
        return t("pobeda.evt.draw", lang, sides=names)
    key = "pobeda.evt.win_lines" if outcome["reason"] == "lines" else "pobeda.evt.win_cards"
    return t(key, lang, side=names)


# ---- status and prompts --------------------------------------------------------------------
def status_lines(s: PobedaState, lang: str) -> list[str]:
    """Lines per side, the deck and an open penalty (whose turn and the result are said by the platform,
    with the players' names)."""
    counts = [sum(1 for line in s.lines if line.side == k) for k in range(s.n_sides)]
    # one line wins: "no line yet" instead of "0 of 1 lines" (issue 25)
    out = [t("pobeda.status.no_line" if s.required == 1 and counts[k] == 0 else "pobeda.status.lines",
             lang, side=side_label(s, k, lang), n=counts[k], required=s.required)
           for k in range(s.n_sides)]
    out.append(t("pobeda.status.deck", lang, n=len(s.deck)))
    if s.outcome is None and s.penalty is not None:
        out.append(t("pobeda.status.penalty", lang, side=side_label(s, s.penalty.side, lang)))
    return out


def private_text(game: Pobeda, seat: int, lang: str) -> str:
    """The seat's hand: event cards with their cells, special cards with what they do."""
    hands = game.s.hands
    hand = hands[seat] if 0 <= seat < len(hands) else []
    name = who(game, seat, lang)  # told in the third person in a replay (bot.games.narration)
    if not hand:
        return t(narration.key("pobeda.hand.empty"), lang, name=name)
    lines = [t(narration.key("pobeda.hand.title"), lang, n=len(hand), name=name)]
    for card in sorted(hand, key=lambda c: (card_kind(c) != "event", c)):
        if card_kind(card) == "event":
            lines.append(f"• {event_label(card, lang)} ({cell_name(game.cell_of[card])})")
        else:
            lines.append(f"• {card_label(card, lang)}: {t(f'pobeda.card.{card_kind(card)}.help', lang)}")
    return "\n".join(lines)


def prompt_text(game: Pobeda, seat: int, lang: str) -> str:
    """What ``seat`` is asked to do now (empty: nothing)."""
    s = game.s
    if s.outcome is not None:
        return ""
    if s.penalty is not None:
        if seat in s.penalty.waiting and seat not in s.penalty.chosen:
            return t("pobeda.prompt.penalty", lang)
        return ""
    if s.pending is not None:
        return t("pobeda.prompt.choose_line", lang) if s.pending.seat == seat else ""
    if s.current != seat:
        return ""
    if s.confirm is not None:  # the undo window (issue 27): the panel's deadline line counts its seconds down
        key = ("pobeda.prompt.confirm_replace" if s.confirm == "replace" else "pobeda.prompt.confirm") if s.deck \
            else "pobeda.prompt.confirm_end"
        return t(key, lang, seconds=s.options.undo_window)
    if game.supply(game.side_of(seat)) <= 0:
        kinds = {str(a.get("type")) for a in game.legal_actions(seat)}  # name only what is offered
        offered = [t(f"pobeda.prompt.no_chips_{k}", lang) for k, kind in NO_CHIPS_CHOICES if kind in kinds]
        if offered:
            return t("pobeda.prompt.no_chips_list", lang, choices=join_or(offered, lang))
        return t("pobeda.prompt.no_chips", lang)
    if not game.has_play(seat):
        key = "pobeda.prompt.all_dead_replace" if game.can_replace(seat) else "pobeda.prompt.all_dead"
        return t(key, lang)
    if s.replaced:
        return t("pobeda.prompt.after_replace", lang)
    return t("pobeda.prompt.turn", lang)
