"""Text of the rulebook's choices (``choices.py``): held-back gods, the defender's dice, the +2 territory of a
classic trade, and the attack declared before its roll (the undo window, issue 27). Keys in
``data/i18n/godstorm_ui.json``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.i18n import t
from bot.games.base import Action, Event
from bot.games.godstorm import board, data, names

if TYPE_CHECKING:
    from bot.games.godstorm.game import Godstorm


def _place(tid: str, lang: str) -> str:
    """A territory's name in an event's text: without the live army count, which a later state would
    change (the channel shows the text when the event happens; the log and checks rebuild it later)."""
    return names.tname(tid, lang)


CHOICE_EVENTS = frozenset({"gods_held", "dice_pref", "defence_asked", "defence_chosen", "piles_dealt", "pile_picked",
                           "attack_declared"})
CHOICE_ACTIONS = frozenset({"hold_god", "dice_pref", "defend", "pick_pile", "roll"})


def _god(kind: str, lang: str) -> str:
    return data.GOD_KIND_NAMES[kind].get(lang) or kind


def pile_summary(g: Godstorm, pile: list[str], lang: str) -> str:
    """A pile of territories by continent: "Europe 4 · Asia 3 · ..." (most first)."""
    counts: dict[str, int] = {}
    for tid in pile:
        c = board.CONTINENT_OF[tid]
        counts[c] = counts.get(c, 0) + 1
    names = {c: data.CONTINENTS[c].name.get(lang, c) for c in counts}
    return " · ".join(f"{names[c]} {n}" for c, n in sorted(counts.items(), key=lambda x: (-x[1], names[x[0]])))


def action_path(g: Godstorm, seat: int, a: Action, lang: str) -> list[str]:
    kind = a["type"]
    if kind == "pick_pile":
        piles = g.s.piles or []
        i = int(a["pile"])
        summary = pile_summary(g, piles[i], lang) if i < len(piles) else ""
        return [t("godstorm.ui.act.pick_pile", lang, n=i + 1, what=summary)[:80]]
    if kind == "hold_god":
        tid = a["territory"]
        leaf = t("godstorm.ui.act.hold" if a["hold"] else "godstorm.ui.act.unhold", lang, god=_god(a["god"], lang))
        return [t("godstorm.ui.act.gods_join", lang), names.tlabel(g, tid, lang), leaf]
    if kind == "dice_pref":
        return [t("godstorm.ui.act.dice_pref", lang), t(f"godstorm.ui.pref_{a['pref']}", lang)]
    if kind == "defend":
        return [t("godstorm.ui.act.defend", lang, n=a["dice"])]
    if kind == "roll":
        return [t("godstorm.ui.act.roll", lang)]
    return [kind]


def declared_text(g: Godstorm, lang: str) -> str:
    """The declared attack in words: "Thrace → Anatolia (3), 2 dice" or "..., until conquered"."""
    d = g.s.declared
    if d is None:
        return ""
    dice = t("godstorm.act.dice_n", lang, n=d.dice)
    if d.until is not None:
        floor = 0 if d.src == "heaven" else 1
        dice = t("godstorm.act.until_conquered" if d.until <= floor else "godstorm.act.until_left", lang, n=d.dice,
                 left=d.until)
    return t("godstorm.ui.declared", lang, src=names.tlabel(g, d.src, lang), dst=names.tlabel(g, d.dst, lang),
             dice=dice)


def event_text(g: Godstorm, e: Event, lang: str) -> str | None:
    kind = e["type"]
    if kind == "gods_held":
        key = "godstorm.ui.evt.held" if e["hold"] else "godstorm.ui.evt.unheld"
        return t(key, lang, who=names.who_name(g, e["seat"], lang), god=_god(e["god"], lang), where=_place(e["territory"], lang))
    if kind == "dice_pref":
        return t("godstorm.ui.evt.dice_pref", lang, pref=t(f"godstorm.ui.pref_{e['pref']}", lang))
    if kind == "defence_asked":
        return t("godstorm.ui.evt.defence_asked", lang, who=names.who_name(g, e["seat"], lang), dst=_place(e["dst"], lang),
                 n=e["dice"])
    if kind == "piles_dealt":
        return t("godstorm.ui.evt.piles_dealt", lang)
    if kind == "pile_picked":
        return t("godstorm.ui.evt.pile_picked", lang, who=names.who_name(g, e["seat"], lang), n=e["pile"],
                 where=", ".join(_place(x, lang) for x in e["territories"]))
    if kind == "defence_chosen":
        return t("godstorm.ui.evt.defence_chosen", lang, who=names.who_name(g, e["seat"], lang), n=e["dice"])
    if kind == "attack_declared":
        return t("godstorm.ui.evt.attack_declared", lang, who=names.who_name(g, e["seat"], lang),
                 src=_place(e["frm"], lang), dst=_place(e["dst"], lang), n=e["dice"])
    return None


def pile_prompt(g: Godstorm, lang: str) -> str:
    """Choosing piles: every pile still free, with its territories."""
    piles = g.s.piles or []
    lines = [t("godstorm.ui.prompt.pile", lang)]
    for i, pile in enumerate(piles):
        if g.s.terr[pile[0]].owner is None:
            lines.append(t("godstorm.ui.pile_line", lang, n=i + 1, where=", ".join(names.tlabel(g, x, lang) for x in pile)))
    return "\n".join(lines)


def prompt(g: Godstorm, seat: int, lang: str) -> str | None:
    if g.s.declared is not None and seat == g.s.current:
        return t("godstorm.ui.prompt.roll", lang, what=declared_text(g, lang), secs=g.s.undo_s)
    d = g.s.defend
    if d is None or d["seat"] != seat:
        return None
    return t("godstorm.ui.prompt.defend", lang, attacker=names.who_name(g, g.s.current, lang), src=names.tlabel(g, d["from"], lang),
             dst=names.tlabel(g, d["to"], lang), n=d["dice"])


def status_lines(g: Godstorm, lang: str) -> list[str]:
    if g.s.declared is not None:
        return [t("godstorm.ui.status.roll", lang, who=names.who_name(g, g.s.current, lang),
                  what=declared_text(g, lang))]
    d = g.s.defend
    if d is None:
        return []
    return [t("godstorm.ui.status.defend", lang, who=names.who_name(g, d["seat"], lang))]


def standing_text(g: Godstorm, seat: int, lang: str) -> str:
    """The seat's standing preferences as they are now (the panel's preferences section; keys in
    ``data/i18n/prefs.json``). Empty when the seat has none to set (out of the game, or it is over)."""
    s = g.s
    if s.outcome is not None or s.phase == "over" or not 0 <= seat < len(s.players) or s.players[seat].eliminated:
        return ""
    dice = t(f"godstorm.ui.pref_{s.dice_pref.get(str(seat), 'most')}", lang)
    if s.mir is None:
        return t("prefs.now.dice", lang, dice=dice)
    answer = t("prefs.answer.never" if s.mir.never[seat] else "prefs.answer.ask", lang)
    return t("prefs.now.both", lang, dice=dice, answer=answer)
