"""Text of the rulebook's choices (``choices.py``): held-back gods, the defender's dice, the +2 territory of a
classic trade. Keys in ``data/i18n/godstorm_ui.json``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.base import Action, Event
from bot.games.godstorm import data
from bot.i18n import t

if TYPE_CHECKING:
    from bot.games.godstorm.text import TextMixin

CHOICE_EVENTS = frozenset({"gods_held", "dice_pref", "defence_asked", "defence_chosen"})
CHOICE_ACTIONS = frozenset({"hold_god", "dice_pref", "defend"})


def _god(kind: str, lang: str) -> str:
    return data.GOD_KIND_NAMES[kind].get(lang) or kind


def action_path(g: TextMixin, seat: int, a: Action, lang: str) -> list[str]:
    kind = a["type"]
    if kind == "hold_god":
        tid = a["territory"]
        leaf = t("godstorm.ui.act.hold" if a["hold"] else "godstorm.ui.act.unhold", lang, god=_god(a["god"], lang))
        return [t("godstorm.ui.act.gods_join", lang), g._tlabel(tid, lang), leaf]
    if kind == "dice_pref":
        return [t("godstorm.ui.act.dice_pref", lang), t(f"godstorm.ui.pref.{a['pref']}", lang)]
    if kind == "defend":
        return [t("godstorm.ui.act.defend", lang, n=a["dice"])]
    return [kind]


def event_text(g: TextMixin, e: Event, lang: str) -> str | None:
    kind = e["type"]
    if kind == "gods_held":
        key = "godstorm.ui.evt.held" if e["hold"] else "godstorm.ui.evt.unheld"
        return t(key, lang, who=g._who(e["seat"], lang), god=_god(e["god"], lang), where=g._tlabel(e["territory"], lang))
    if kind == "dice_pref":
        return t("godstorm.ui.evt.dice_pref", lang, pref=t(f"godstorm.ui.pref.{e['pref']}", lang))
    if kind == "defence_asked":
        return t("godstorm.ui.evt.defence_asked", lang, who=g._who(e["seat"], lang), dst=g._tlabel(e["dst"], lang),
                 n=e["dice"])
    if kind == "defence_chosen":
        return t("godstorm.ui.evt.defence_chosen", lang, who=g._who(e["seat"], lang), n=e["dice"])
    return None


def prompt(g: TextMixin, seat: int, lang: str) -> str | None:
    d = g.s.defend
    if d is None or d["seat"] != seat:
        return None
    return t("godstorm.ui.prompt.defend", lang, attacker=g._who(g.s.current, lang), src=g._tlabel(d["from"], lang),
             dst=g._tlabel(d["to"], lang), n=d["dice"])


def status_lines(g: TextMixin, lang: str) -> list[str]:
    d = g.s.defend
    if d is None:
        return []
    return [t("godstorm.ui.status.defend", lang, who=g._who(d["seat"], lang))]
