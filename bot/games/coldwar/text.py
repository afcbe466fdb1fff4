"""Localised text of Cold War: event lines, action labels, prompts and status (no rules here).

Every function reads the game (its typed state, its view, its legal actions) and changes nothing;
``ColdWar``'s text methods are one-line delegations to these."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.i18n import Named, join_or, named, sort_key, t
from bot.games import narration
from bot.games.coldwar.cards import CURRENT, CardSet
from bot.games.coldwar.state import State

if TYPE_CHECKING:
    from bot.games.coldwar.game import ColdWar

P = "coldwar."


def side(seat: int, lang: str) -> Named:
    """``ЦРУ`` (neuter in Russian) / ``КГБ`` (masculine): texts agree with it through ``select:``."""
    return named(f"{P}side.{seat}", lang)


def target_name(tid: str, lang: str) -> str:
    return t(f"{P}target.{tid}", lang)


def group_name(gid: str, lang: str) -> str:
    return t(f"{P}group.{gid}", lang)


def group_label(gid: str, lang: str, c: CardSet) -> str:
    """'Generals (Military, 6)' (the values of the game's card set): a name, then its details."""
    return t(P + "group_ref", lang, name=group_name(gid, lang), faction=t(P + "faction." + c.faction(gid), lang),
             influence=c.influence(gid))


def agent_name(agent: int, lang: str) -> str:
    return t(f"{P}agent.{agent}", lang)


def _owner_of(s: State, gid: str) -> int:
    for seat in (0, 1):
        if any(g.gid == gid for g in s.table[seat]):
            return seat
    return 0


def action_path(game: ColdWar, seat: int, a: dict[str, Any], lang: str) -> list[str]:
    kind = a["type"]
    c = game.engine.c
    if kind == "agent":
        return [t(P + "act.agent", lang, agent=agent_name(a["agent"], lang), n=a["agent"])]
    if kind == "first":
        return [t(P + "act.first", lang, side=side(a["seat"], lang))]
    if kind in ("recruit", "wait", "skip"):
        return [t(P + "act." + kind, lang)]
    if kind == "event":
        path = [t(P + "act.event", lang, card=target_name(a["card"], lang))]
        if "agent" in a:       # Olympic Games: which eliminated agent comes back
            path.append(t(P + "act.bring_back", lang, agent=agent_name(a["agent"], lang)))
        return path
    if kind == "order":
        names = " → ".join(_clip(_short(c, card, lang), 20) for card in a["order"])
        return [t(P + "act.order", lang, cards=names)]
    if kind == "double":
        if a["mode"] == "peek":
            return [t(P + "act.double_peek", lang)]
        return [t(P + "act.double_leave", lang), agent_name(a["agent"], lang)]
    if kind == "media":
        return [t(P + "act.media_" + a["choice"], lang)]
    if kind == "discard":
        return [t(P + "act.discard", lang, group=group_label(a["group"], lang, c))]
    if kind == "use":
        # whose group is the target comes first in its part (issue 25: a cut label hid the owner)
        path = [t(P + "act.use", lang), group_label(a["group"], lang, c)]
        if "target" in a:
            owner = _owner_of(game.s, a["target"])
            path.append(t(P + "act.use_on", lang, group=group_label(a["target"], lang, c), owner=side(owner, lang)))
        return path
    return [kind]


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _short(c: CardSet, card: str, lang: str) -> str:
    return target_name(card, lang) if card in c.targets else group_name(card, lang)


def event_text(e: dict[str, Any], lang: str, c: CardSet) -> str | None:
    kind = e["type"]
    p: dict[str, Any] = {}
    if "seat" in e:
        p["side"] = side(e["seat"], lang)
    if "owner" in e:
        p["owner"] = side(e["owner"], lang)
    if "target" in e:
        p["target"] = _card(e["target"], lang, c)
    if "group" in e:
        p["group"] = group_label(e["group"], lang, c)
    if "agent" in e and e["agent"] is not None:
        p["agent"] = agent_name(e["agent"], lang)
    if kind == "round":
        return t(P + "evt.round", lang, round=e["round"])
    if kind == "balance":
        return t(P + "evt.balance." + e["why"], lang, **p)
    if kind == "first":
        return t(P + "evt.first", lang, side=p["side"], first=side(e["first"], lang))
    if kind == "capture":
        return t(P + "evt.capture." + e["how"], lang, vp=e["vp"], **p)
    if kind == "truce":
        inf = e["influence"]
        return t(P + "evt.truce", lang, cia=inf[0], kgb=inf[1], stability=e["stability"])
    if kind == "token":
        why = e["why"]
        fac = "" if why == "influence" else t(P + "faction." + why, lang)
        return t(P + ("evt.token" if why == "influence" else "evt.token_tie"), lang, faction=fac, **p)
    if kind == "report":
        names = [agent_name(a, lang) if a is not None else "—" for a in e["agents"]]
        return t(P + "evt.report", lang, cia=names[0], kgb=names[1])
    if kind == "ability":
        key = f"{P}evt.ability.{e['agent']}.{e['effect']}"
        if "victim" in e:
            p["victim"] = agent_name(e["victim"], lang)
        return t(key, lang, **p)
    if kind == "use":
        return t(P + "evt.use." + e["effect"], lang, used=group_label(e["group"], lang, c),
                 side=p["side"], owner=p["owner"], target=group_label(e["on"], lang, c))
    if kind == "recruit":
        how = {"recruit": "evt.recruit", "benefit": "evt.recruit_benefit"}.get(e["how"], "evt.recruit_protest")
        return t(P + how, lang, **p)
    if kind == "x_revealed":
        return t(P + "evt.x_revealed", lang, by=side(e["by"], lang), **p)
    if kind == "game_over":
        scores = e["scores"]
        if not e["winners"]:
            return t(P + "evt.draw", lang, cia=scores[0], kgb=scores[1])
        return t(P + "evt.win", lang, side=side(e["winners"][0], lang), cia=scores[0], kgb=scores[1])
    if kind == "detente":
        return t(P + "evt.detente", lang, cia=e["scores"][0], kgb=e["scores"][1])
    if kind == "event_used":
        return t(P + "evt.event_used", lang, card=_card(e["card"], lang, c), vp=e["vp"], **p)
    if kind in ("analyst_done", "space_done", "planning", "struggle_over", "shuffle", "group_reshuffle",
                "target_reshuffle", "extra_round", "chosen", "wait", "media_use", "media_take",
                "media_discard", "media_return", "destroyed", "unrest", "double_unrest", "no_winner",
                "to_bottom", "eliminated", "deputy_survives", "nobel_saved", "reveal",
                "agent_chosen", "peek_x", "media_peek", "agent_returned"):
        extra = {"reason": t(P + "reason." + e["reason"], lang)} if "reason" in e else {}
        return t(narration.key(P + "evt." + kind), lang, **p, **extra)
    return None


def event_description(c: CardSet, card: str, lang: str) -> str:
    """What the event ``card`` does in the game's own card set."""
    key = f"{P}evdesc.{card}" if c.version == CURRENT else f"{P}evdesc.v{c.version}.{card}"
    return t(key, lang)


def _card(tid: str, lang: str, c: CardSet) -> str:
    return t(P + "card", lang, name=target_name(tid, lang), vp=c.vp(tid))


def _target_line(game: ColdWar, lang: str) -> str:
    tid = game.s.target
    if tid is None:
        return ""
    tt = game.engine.c.targets[tid]
    prio = " > ".join(t(P + "faction." + f, lang) for f in tt["priority"])
    return t(P + "status.target", lang, name=target_name(tid, lang), stability=tt["stability"],
             limit=tt["limit"], vp=tt["vp"], priority=prio)


def status_lines(game: ColdWar, lang: str) -> list[str]:
    s = game.s
    eng = game.engine
    lines = [t(P + "status.round", lang, round=s.round, phase=t(P + "phase." + s.phase, lang),
               cia=eng.score(0), kgb=eng.score(1), goal=s.goal)]
    if s.target is not None:
        lines.append(_target_line(game, lang))
        lines.append(t(P + "status.influence", lang, cia=eng.inf(0), kgb=eng.inf(1)))
    if s.balance is not None:
        lines.append(t(P + "status.balance", lang, side=side(s.balance, lang)))
    d = s.dec
    if d is not None and d.kind == "plan":
        marks = [t(P + ("status.chosen" if s.x[i] is not None else "status.choosing"), lang,
                   side=side(i, lang)) for i in (0, 1)]
        lines.append("; ".join(marks))
    # whose turn it is is said by the platform, with the players' names
    return lines


def private_text(game: ColdWar, seat: int, lang: str) -> str:
    s = game.s
    v = game.view(seat)["private"]
    name = game.seat_display(seat, side(seat, lang))  # told in the third person in a replay (bot.games.narration)
    parts = [t(narration.key(P + "priv.side"), lang, side=side(seat, lang), name=name)]
    if v["x"] is not None:
        parts.append(t(narration.key(P + "priv.x"), lang, agent=agent_name(v["x"], lang), name=name))
    hq = ", ".join(agent_name(a, lang) for a in s.agents[seat].hq) or "—"
    parts.append(t(P + "priv.hq", lang, agents=hq))
    if "opponent_x" in v:
        parts.append(t(P + "priv.peek", lang, agent=agent_name(v["opponent_x"], lang)))
    if "media_top" in v:
        parts.append(t(P + "priv.media", lang, group=group_label(v["media_top"], lang, game.engine.c)))
    if "cards" in v:
        names = ", ".join(_short(game.engine.c, card, lang) for card in v["cards"])
        parts.append(t(P + "priv.cards", lang, cards=names))
    cards = game.engine.c
    for tid in s.trophies[seat]:         # captured events: when and what they can be played for
        phase = cards.phase(tid)
        if phase is not None:
            parts.append(t(narration.key(P + "priv.events"), lang, card=target_name(tid, lang), name=name,
                           phase=t(P + "phase." + phase, lang), desc=event_description(cards, tid, lang)))
    return "\n".join(parts)


def prompt_text(game: ColdWar, seat: int, lang: str) -> str:
    if seat not in game.actors():
        return ""
    d = game.s.dec
    if d is None:
        return ""
    if d.kind == "event" and d.card is not None:
        return (t(P + "prompt.event", lang, card=target_name(d.card, lang)) + "\n"
                + event_description(game.engine.c, d.card, lang))
    if d.kind == "double" and not any(a.get("mode") == "leave" for a in game.legal_actions(seat)):
        return t(P + "prompt.double_peek_only", lang)  # "send on leave, or learn": only learning is offered
    if d.kind == "turn":  # name only the choices the panel offers now
        kinds = {a["type"] for a in game.legal_actions(seat)}
        offered = [t(P + "prompt.turn_" + k, lang) for k in TURN_CHOICES if k in kinds]
        if offered:
            return t(P + "prompt.turn_list", lang, choices=join_or(offered, lang))
    return t(P + "prompt." + d.kind, lang)


TURN_CHOICES = ("recruit", "use", "event", "wait")


def panel_actions(game: ColdWar, legal: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """``legal`` in the panel's order for a reader of ``lang`` (issue 13): action kinds and agents keep
    the rules' order; event cards, groups and their targets are listed in the reader's alphabet."""
    kinds: dict[str, int] = {}

    def key(i: int) -> tuple[Any, ...]:
        a = legal[i]
        # (slot, value) parts: a use with a group and one without must not compare a name with an index
        parts: list[tuple[int, Any]] = [(0, kinds.setdefault(str(a["type"]), len(kinds)))]
        if a["type"] == "event":
            parts.append((1, sort_key(target_name(a["card"], lang), lang)))
        for slot, k in ((2, "group"), (3, "target")):
            if a["type"] in ("discard", "use") and k in a:
                parts.append((slot, sort_key(_short(game.engine.c, a[k], lang), lang)))
        return (*parts, (4, i))

    return [legal[i] for i in sorted(range(len(legal)), key=key)]
