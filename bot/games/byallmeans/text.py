"""What a By All Means game says, in the reader's language: the label path of an action, an event's line, the
status lines, a seat's hand and what a prompt asks. Functions of the typed state, which they only read, and of
the seats' names (:data:`Names`: the platform sets the players' names on the game object, ``Game.seat_display``);
``ByAllMeans``'s text methods are one-line calls of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.core.i18n import sort_key, t
from bot.games import narration
from bot.games.base import Action, Event
from bot.games.byallmeans import data, effects, engine
from bot.games.byallmeans.state import State

Names = Callable[[int, str], str]
"""A seat by its player's name in a language (``Игрок 1`` where the platform has set no names)."""


def seat_label(seat: int, lang: str) -> str:
    """A seat without its player's name: «Игрок 1»."""
    return t("bam.seat", lang, n=seat + 1)


def card_name(code: str, lang: str) -> str:
    return t(f"bam.card.{code}", lang)


def source_label(s: State, src: str, lang: str) -> str:
    """«Клинок: Доки»: the symbol, then the card it comes from (where the card lies, a cell or a buffer slot,
    is added by the panel; a hand card has none)."""
    _zone, uid, sym = src.split(":")
    return t("bam.source", lang, sym=t(f"bam.sym.{sym}", lang), card=card_name(s.cards[uid], lang))


def choice_label(s: State, value: Any, lang: str, who: Names | None = None) -> str:
    """A decision's answer as text: an option of a ``choose`` op, a card, an archive (its owner by ``who``,
    the seat's name), a route, a card used at the end of the rival's turn."""
    if isinstance(value, int) and s.stack and s.stack[-1].ops and s.stack[-1].ops[0]["op"] == "choose":
        return t(s.stack[-1].ops[0]["options"][value]["key"], lang)
    text = str(value)
    if text in s.cards:
        return card_name(s.cards[text], lang)
    if isinstance(value, int) and value >= 0 and s.stack and s.stack[-1].ops and s.stack[-1].ops[0]["op"] == "expose":
        return t("bam.cell", lang, n=value + 1)
    if text in ("utility", "buffer", "stay", "main", "extra", "tap"):
        return t(f"bam.choice.{text}", lang)
    if text == "pass":
        return t("bam.choice.pass", lang)
    kind, _, uid = text.partition(":")
    if kind in ("discard", "utilise") and uid in s.cards:
        return t(f"bam.choice.{kind}", lang, card=card_name(s.cards[uid], lang))
    if text.startswith("buffer:"):
        return t("bam.choice.buffer_as", lang, sym=t(f"bam.sym.{text[7:]}", lang))
    if "." in text and text.split(".")[1] in ("main", "extra"):
        seat, zone = text.split(".")
        name = who(int(seat), lang) if who else seat_label(int(seat), lang)
        return t(f"bam.archive.{zone}", lang, who=name)
    if text.count(":") == 2:
        src, sym, dst = text.split(":")
        return t("bam.choice.move_symbol", lang, sym=t(f"bam.sym.{sym}", lang), src=card_name(s.cards[src], lang),
                 dst=card_name(s.cards[dst], lang))
    return text


def action_path(s: State, who: Names, seat: int, action: Action, lang: str) -> list[str]:
    """Labels from coarse to fine for one action of ``seat`` (``Game.action_path``)."""
    kind = action["type"]
    if kind == "choose":
        return [t("bam.act.choose", lang), choice_label(s, action["v"], lang, who)]
    if kind in ("play", "utilise", "discard", "activate"):
        label = [t(f"bam.act.{kind}", lang), card_name(s.cards[action["uid"]], lang)]
        if "cell" in action:
            label.append(t("bam.cell", lang, n=action["cell"] + 1))
        if "shadow" in action:
            label.append(t("bam.act.shadow", lang))
        if action.get("face_down"):
            label.append(t("bam.act.face_down", lang))
        if "replace" in action:
            label.append(t("bam.act.replace", lang, card=card_name(s.cards[action["replace"]], lang)))
        return label
    if kind == "number":
        return [t("bam.act.number", lang), t(f"bam.num.{action['sum']}", lang),
                ", ".join(card_name(s.cards[u], lang) for u in action["cards"])]
    if kind == "symbols":
        syms = [action["a"].rsplit(":", 1)[1], action["b"].rsplit(":", 1)[1]]
        effect = data.pair_effect(*syms)
        return [t("bam.act.symbols", lang), t(f"bam.eff.{effect.id}", lang),
                " + ".join(source_label(s, x, lang) for x in (action["a"], action["b"]))]
    if kind == "agent":
        label = [t("bam.act.agent", lang), card_name(s.cards[action["uid"]], lang),
                 t(f"bam.act.agent_{action['do']}", lang)]
        if "target" in action:
            label.append(card_name(s.cards[action["target"]], lang))
        return label
    if kind == "neutral":
        return [t("bam.act.neutral", lang), card_name(s.cards[action["uid"]], lang)]
    if kind == "shuffle":
        return [t("bam.act.shuffle", lang), t(f"bam.shuffle.{int(action['main'])}{int(action['extra'])}", lang)]
    if kind == "order":
        return [t("bam.act.order_me" if action["first"] == seat else "bam.act.order_opp", lang)]
    if kind == "exchange":  # how many first, then which (the panel offers the count in a select)
        if not action["cards"]:
            return [t("bam.act.keep", lang)]
        names = ", ".join(sorted((card_name(s.cards[u], lang) for u in action["cards"]),
                                 key=lambda name: sort_key(name, lang)))
        return [t("bam.act.exchange_n", lang, n=len(action["cards"])), names]
    return [t(f"bam.act.{kind}", lang)]


def event_text(who: Names, event: Event, lang: str) -> str | None:
    """One event's line (``Game.event_text``); a private one told in the third person in a replay."""
    kind = str(event["type"]).removeprefix("bam.")
    key = f"bam.ev.{kind}"
    params = {k: v for k, v in event.items() if k not in ("type", "to")}
    if event.get("to"):  # a private event: a replay tells it in the third person (bot.games.narration)
        key = narration.key(key)
        params["name"] = who(event["to"][0], lang)
    if "seat" in event:
        params["who"] = who(event["seat"], lang)
    if "code" in event:
        params["card"] = card_name(event["code"], lang)
    if "codes" in event:
        params["cards"] = ", ".join(card_name(c, lang) for c in event["codes"])
    if "res" in event:
        params["res"] = t(f"bam.res.{event['res']}", lang)
    if "archive" in event:
        params["archive"] = t(f"bam.zone.{event['archive']}", lang)
    if "cell" in event:
        params["cell"] = event["cell"] + 1
    if "first" in event:
        params["first"] = who(event["first"], lang)
    if "key" in event:
        params["choice"] = t(event["key"], lang)
    if "effect" in event:
        params["effect"] = t(f"bam.eff.{event['effect']}", lang)
    if "do" in event:
        params["action"] = t(f"bam.act.agent_{event['do']}", lang)
    if kind == "exchanges":  # the opening exchange, both seats at once: "Anna: 2, Boris: 0"
        params["counts"] = ", ".join(f"{who(i, lang)}: {n}" for i, n in enumerate(event["counts"]))
    if kind in ("gain", "lose") and not event.get("n"):
        return None  # nothing changed: no "−0"
    if kind == "symbol_moved":
        params.update(sym=t(f"bam.sym.{event['sym']}", lang), src=card_name(event["from"], lang),
                      dst=card_name(event["to_code"], lang))
    return t(key, lang, **params)


def status_lines(s: State, who: Names, lang: str) -> list[str]:
    """Each seat's counters and the sizes of its hand and archives."""
    return [t("bam.status", lang, who=who(i, lang), rep=p.rep, inf=p.inf, trust=p.trust, hand=len(p.hand),
              main=len(p.main), extra=len(p.extra))
            for i, p in enumerate(s.players)]


def private_text(s: State, who: Names, seat: int, lang: str) -> str:
    """The seat's hand (a replay names the seat)."""
    hand = ", ".join(card_name(s.cards[u], lang) for u in sorted(s.players[seat].hand))
    return t(narration.key("bam.private_hand"), lang, cards=hand or "—", name=who(seat, lang))


def prompt_text(s: State, who: Names, seat: int, lang: str) -> str:
    """What the seat is asked now: the effect's question when it is the one asked, else the step."""
    if effects.asked(s) == seat:
        return decision_prompt(s, who, seat, lang)
    return t(f"bam.prompt.{s.phase}", lang)


def decision_prompt(s: State, who: Names, seat: int, lang: str) -> str:
    """What the open decision of the effect stack is about and why: the step of the turn, or the card
    (or combination) whose effect asks."""
    f = s.stack[-1]
    op = f.ops[0]
    kind = str(op["op"])
    rival = who(1 - seat, lang)
    if kind in ("pick_trigger", "lost_action"):
        return t(f"bam.prompt.op.{kind}", lang)
    if kind == "rival_window":
        return t("bam.prompt.op.rival_window", lang, rival=rival, n=engine.RIVAL_WINDOW - int(op["used"]))
    if kind == "route":
        return t("bam.prompt.op.route", lang, card=card_name(s.cards[op["uid"]], lang))
    if kind == "offer_move":
        return t("bam.prompt.op.offer_move", lang, cell=int(op["cell"]) + 1)
    if kind == "target":
        text = t(f"bam.prompt.op.target.{op['kind']}", lang)
        owner = op.get("owner", "any")
        if owner in ("self", "opp"):
            mine = (owner == "self") == (f.controller == seat)
            text += " " + t(f"bam.prompt.op.owner.{'self' if mine else 'opp'}", lang, rival=rival)
    elif kind == "discard_one":
        owner = effects.seats(f, op["who"])[0]
        text = t("bam.prompt.op.discard_one.self" if owner == seat else "bam.prompt.op.discard_one.opp", lang,
                 rival=who(owner, lang))
    elif kind == "expose":
        agent = f.vars.get(op["target"])
        text = t("bam.prompt.op.expose", lang, agent=card_name(s.cards[agent], lang) if agent in s.cards else "?")
    elif kind in ("choose", "move_symbol"):
        text = t(f"bam.prompt.op.{kind}", lang)
    else:
        text = t("bam.prompt.op.other", lang)
    if f.source in s.cards:
        return t("bam.prompt.by", lang, card=card_name(s.cards[str(f.source)], lang), text=text)
    return t("bam.prompt.op.effect", lang, text=text)
