"""Language-dependent text: action paths for Discord controls, event lines, status and prompts.

Functions of the game they describe, outside the rules class (issue 24): each reads the game's typed state
(``g.s``) and its read-only queries (owned territories, armies, legal actions, display names) and changes
nothing. ``Godstorm``'s text methods of the ``Game`` contract are one-line delegations to them; the texts of
the miracle cards and of the rulebook's choices are in ``miracle_text.py`` and ``choice_text.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.i18n import sort_key, t
from bot.games import narration
from bot.games.base import Action, Event
from bot.games.godstorm import board, choice_text, data, miracle_text
from bot.games.godstorm.names import cname, deck_name, god_name, tlabel, tname, who_name
from bot.games.godstorm.state import Territory
from bot.games.godstorm.turn import set_value

if TYPE_CHECKING:
    from bot.games.godstorm.game import Godstorm

GROUP_OVER = 20
"""Above this many candidate territories, paths gain a continent level (selects hold at most 25)."""


def group(tid: str, lang: str, many: bool) -> list[str]:
    """The continent level of a path (with ``many`` candidates, selects hold at most 25)."""
    return [cname(tid, lang)] if many and tid in board.CONTINENT_OF else []


def side_name(g: Godstorm, side: int, lang: str) -> str:
    """The pantheon (the player's name is shown beside it by the platform)."""
    pid = g.s.players[side].pantheon if 0 <= side < len(g.s.players) else None
    if pid:
        return data.PANTHEONS[pid].name.get(lang, "")
    return t("godstorm.player", lang, n=side + 1)


# ---- action paths -------------------------------------------------------------------
def action_path(g: Godstorm, seat: int, action: Action, lang: str) -> list[str]:
    a = action
    kind = a.get("type", "")
    if kind in miracle_text.MIRACLE_ACTIONS:
        return miracle_text.action_path(g, seat, a, lang)
    if kind in choice_text.CHOICE_ACTIONS:
        return choice_text.action_path(g, seat, a, lang)
    L = lambda key, **kw: t("godstorm.act." + key, lang, **kw)  # noqa: E731
    many = g.owned_count(seat) > GROUP_OVER if 0 <= seat < len(g.s.players) else False
    if kind == "pick_pantheon":
        pid: str = a["pantheon"]
        return [L("pantheon"), data.PANTHEONS[pid].name.get(lang, pid)]
    if kind == "place":
        tid = a["territory"]
        if g.s.phase == "claim":
            return [L("claim"), cname(tid, lang), tname(tid, lang)]
        return [L("place"), *group(tid, lang, many), tlabel(g, tid, lang), f"+{a['count']}"]
    if kind == "place_all":  # under the territory, beside its counts
        tid = a["territory"]
        return [L("place"), *group(tid, lang, many), tlabel(g, tid, lang),
                L("place_all", n=g.s.players[seat].reserve)]
    if kind == "place_auto":
        return [L("place_auto", n=g.s.players[seat].reserve)]
    if kind == "place_neutral":
        return [L("place_neutral"), cname(a["territory"], lang), tlabel(g, a["territory"], lang)]
    if kind == "summon":
        tid = a["territory"]
        return [L("summon"), god_name(g, seat, a["god"], lang), *group(tid, lang, many),
                tlabel(g, tid, lang)]
    if kind == "build_temple":
        tid = a["territory"]
        return [L("temple"), *group(tid, lang, many), tlabel(g, tid, lang)]
    if kind == "bid":
        return [L("bid"), L("faith_n", n=a["faith"])]
    if kind == "pick_order":
        return [L("pick_order"), L("position", n=a["position"])]
    if kind == "resurrect":
        return [L("resurrect"), tname(a["space"], lang), tlabel(g, a["territory"], lang)]
    if kind == "trade":
        names = ", ".join(card_label(c, lang) for c in a["cards"])
        if "bonus" in a:  # several matching territories: the player picks the one that gets +2
            return [L("trade"), names[:80], t("godstorm.ui.act.bonus", lang, where=tlabel(g, a["bonus"], lang))]
        return [L("trade"), names[:80]]
    if kind == "buy_cards":
        return [L("buy"), deck_name(a["deck"], lang), L("cards_n", n=a["count"], cost=2 * a["count"])]
    if kind in ("attack", "attack_until"):
        src, dst = a["from"], a["to"]
        root = L("uw_attack") if g.s.step == "underworld" else L("attack")
        head = [root, *group(src, lang, many), L("from", where=tlabel(g, src, lang)),
                L("to", where=target_label(g, dst, lang))]
        if kind == "attack":
            if dst in g.s.uw and g.s.uw[dst].owner is None:
                return [*head, L("advance")]
            return [*head, L("dice_n", n=a["dice"])]
        if a["stop_at"] <= (0 if src == "heaven" else 1):
            return [*head, L("until_conquered", n=a["dice"])]
        return [*head, L("until_left", n=a["dice"], left=a["stop_at"])]
    if kind == "champion":
        b = g.s.battle
        owner = g.s.current if b is None or b.att is None else g.s.terr[b.dst].owner
        return [L("champion"), god_name(g, owner, a["god"], lang)]
    if kind == "retreat":
        return [L("retreat")]
    if kind == "move_in":
        return [L("move_in"), L("armies_n", n=a["count"])]
    if kind == "fortify":
        src, dst = a["from"], a["to"]
        comp = board.connected(src, g.owned(seat)) if g.godstorm else set(board.NEIGHBOURS[src])
        leaf = L("armies_n", n=a["count"]) if not a["gods"] else L("armies_gods", n=a["count"])
        return [L("fortify"), *group(src, lang, many), L("from", where=tlabel(g, src, lang)),
                *group(dst, lang, len(comp) > GROUP_OVER), L("to", where=tlabel(g, dst, lang)),
                leaf]
    if kind == "descend":
        return [L("descend"), tlabel(g, a["space"], lang), L("armies_n", n=a["count"])]
    if kind in ("end_step", "end_attacks", "end_turn"):
        return [L(kind)]
    return [kind]


def panel_path(g: Godstorm, seat: int, action: Action, lang: str) -> list[str]:
    """As :func:`action_path`, but an attack is chosen by its target first, then where it comes from
    and the dice (issue 13: on a phone one picks what to take, then with what)."""
    path = action_path(g, seat, action, lang)
    if action.get("type") not in ("attack", "attack_until"):
        return path
    many = g.owned_count(seat) > GROUP_OVER if 0 <= seat < len(g.s.players) else False
    src, dst = action["from"], action["to"]
    L = lambda key, **kw: t("godstorm.act." + key, lang, **kw)  # noqa: E731
    head = [*group(src, lang, many), L("from", where=tlabel(g, src, lang)),
            L("to", where=target_label(g, dst, lang))]
    if path[1:1 + len(head)] != head:
        return path
    target = [*group(dst, lang, many), L("to", where=target_label(g, dst, lang))]
    return [path[0], *target, L("from", where=tlabel(g, src, lang)), *path[1 + len(head):]]


def panel_actions(g: Godstorm, seat: int, lang: str) -> list[Action]:
    """The legal actions with pantheons, continents and places in the reader's alphabet (issue
    13); action kinds, gods, dice and counts keep the rules' order."""
    legal = g.legal_actions(seat)
    paths = [panel_path(g, seat, a, lang) for a in legal]
    roots: dict[str, int] = {}
    gods: dict[str, int] = {}

    def key(i: int) -> tuple[Any, ...]:
        # every part is (slot, value): actions of one root differ in which fields they carry
        # (a card aimed at a seat, a territory or nothing), so values of different kinds must
        # never meet in a comparison; the slot number settles those first
        a, path = legal[i], paths[i]
        parts: list[tuple[int, Any]] = [(0, roots.setdefault(path[0] if path else "", len(roots)))]
        if "pantheon" in a:
            parts.append((1, sort_key(str(data.PANTHEONS[a["pantheon"]].name.get(lang, a["pantheon"])), lang)))
        if "god" in a:
            parts.append((2, gods.setdefault(str(a["god"]), len(gods))))
        order = ("space", "to", "from") if a.get("type") in ("attack", "attack_until") else \
            ("space", "from", "territory", "to")
        for k in order:
            where = a.get(k)
            if isinstance(where, str):
                continent = cname(where, lang) if where in board.CONTINENT_OF else ""
                parts.append((3, sort_key(continent if continent in path else "", lang)))
                parts.append((4, sort_key(tname(where, lang), lang)))
        return (*parts, (5, i))

    order = sorted(range(len(legal)), key=key)
    return [legal[i] for i in order]


def target_label(g: Godstorm, dst: str, lang: str) -> str:
    loc = g.s.terr.get(dst) or g.s.uw[dst]
    if loc.owner is None:
        return tname(dst, lang)
    extra = ""
    if isinstance(loc, Territory) and loc.gods:
        extra = " ✦" * len(loc.gods)
    return f"{tname(dst, lang)} ({loc.armies}){extra}"

def card_label(card: str, lang: str) -> str:
    terr = board.CARD_TERR[card]
    sym = data.CARD_SYMBOL_NAMES.get(board.CARD_SYMBOL[card], {}).get(lang, board.CARD_SYMBOL[card])
    return f"{tname(terr, lang)} ({sym})" if terr else sym


# ---- events -------------------------------------------------------------------------
def event_text(g: Godstorm, event: Event, lang: str) -> str | None:
    e = event
    kind = e.get("type")
    who = lambda k="seat": who_name(g, e.get(k), lang)  # noqa: E731
    who_to = lambda: who_name(g, (e.get("to") or [None])[0], lang)  # noqa: E731  (a private event's seat)
    key = f"godstorm.evt.{kind}"
    if kind in miracle_text.MIRACLE_EVENTS:
        return miracle_text.event_text(g, e, lang)
    if kind in choice_text.CHOICE_EVENTS:
        return choice_text.event_text(g, e, lang)
    if kind == "plague_set":
        return t(key, lang, where=", ".join(tname(x, lang) for x in e["territories"]))
    if kind == "order_roll":
        return t(key, lang, order=", ".join(who_name(g, x, lang) for x in e["order"]))
    if kind == "neutral_pantheon":
        return t(key, lang, pantheon=data.PANTHEONS[e["pantheon"]].name.get(lang, e["pantheon"]))
    if kind == "pantheon_picked":
        return t(key, lang, who=who(), pantheon=data.PANTHEONS[e["pantheon"]].name.get(lang, ""))
    if kind in ("dealt", "epoch_start"):
        return t(key, lang, n=e.get("epoch", 0))
    if kind == "placed_auto":
        where = ", ".join(f"{tname(x, lang)} +{n}" for x, n in e["counts"].items())
        return t(key, lang, who=who(), n=e["n"], where=where)
    if kind in ("claimed", "placed", "placed_neutral"):
        return t(key, lang, who=who(), where=tname(e["territory"], lang), n=e.get("count", 1))
    if kind == "summoned":
        return t(key, lang, who=who(), god=god_name(g, e["seat"], e["god"], lang),
                 where=tname(e["territory"], lang), cost=e["cost"])
    if kind == "temple_built":
        return t(key, lang, who=who(), where=tname(e["territory"], lang), cost=e["cost"])
    if kind == "bid_secret":  # private: in a replay, told in the third person (bot.games.narration)
        return t(narration.key(key), lang, n=e["faith"], **narration.named(who_to()))
    if kind == "has_bid":
        return t(key, lang, who=who())
    if kind == "bids_revealed":
        parts = [f"{who_name(g, int(k), lang)}: {v}" for k, v in e["bids"].items()]
        return t(key, lang, bids="; ".join(parts))
    if kind == "bid_tie":
        return t(key, lang, order=", ".join(who_name(g, x, lang) for x in e["order"]))
    if kind == "order_picked":
        return t(key, lang, who=who(), n=e["position"])
    if kind == "turn_order":
        return t(key, lang, order=" → ".join(who_name(g, x, lang) for x in e["order"]))
    if kind == "income":
        conts = ", ".join(data.CONTINENTS[c].name.get(lang, c) for c in e["continents"]) or "—"
        lkey = key if g.godstorm else key + "_classic"
        return t(lkey, lang, who=who(), armies=e["armies"], faith=e["faith"], temples=e["temples"], conts=conts)
    if kind == "banished":
        gods = ", ".join(god_name(g, e["seat"], god, lang) for god in e["gods"])
        return t(key, lang, gods=gods, where=tname(e["territory"], lang),
                 reason=t("godstorm.reason." + e["reason"], lang))
    if kind == "card_gained":
        return t(key, lang, who=who(), deck=deck_name(e["kind"], lang), reason=t("godstorm.reason." + e["reason"], lang))
    if kind in ("turn_end", "tcard_drawn"):
        return t(key, lang, who=who())
    if kind == "tcard_private":
        return t(narration.key(key), lang, card=card_label(e["card"], lang), **narration.named(who_to()))
    if kind == "resurrected":
        return t(key, lang, who=who(), space=tname(e["space"], lang), where=tname(e["territory"], lang))
    if kind == "traded":
        extra = t("godstorm.evt.trade_bonus", lang, where=tname(e["bonus_territory"], lang)) if e["bonus_territory"] else ""
        return t(key, lang, who=who(), n=e["armies"], cards=", ".join(card_label(c, lang) for c in e["cards"])) + extra
    if kind == "cards_bought":
        return t(key, lang, who=who(), n=e["count"], deck=deck_name(e["kind"], lang), cost=e["cost"])
    if kind == "plague_loss":
        return t(key, lang, who=who(), where=tname(e["territory"], lang), n=e["lost"])
    if kind == "fortified":
        return t(key, lang, who=who(), src=tname(e["frm"], lang), dst=tname(e["dst"], lang), n=e["count"],
                 gods=len(e["gods"]))
    if kind == "descended":
        return t(key, lang, who=who(), where=tname(e["space"], lang), n=e["count"])
    if kind == "advance":
        return t(key, lang, who=who(), src=tname(e["frm"], lang), dst=tname(e["dst"], lang))
    if kind == "godswar_start":
        return t(key, lang, who=who(), src=tname(e["frm"], lang), dst=tname(e["dst"], lang), other=who("defender"))
    if kind == "champion":
        return None
    if kind == "retreat":
        return t(key, lang, who=who(), dst=tname(e["dst"], lang))
    if kind == "godswar":
        return t(key, lang, who=who(), other=who("defender"),
                 ag=god_name(g, e["seat"], e["att_god"], lang), dg=god_name(g, e["defender"], e["def_god"], lang),
                 ad=" ".join(map(str, e["att_dice"])), dd=" ".join(map(str, e["def_dice"])),
                 at=e["att_total"], dt=e["def_total"], lost=god_name(g, e["loser"], e["banished"], lang))
    if kind == "roll":
        return t(key, lang, who=who(), other=who("defender"), src=tname(e["frm"], lang), dst=tname(e["dst"], lang),
                 ad=" ".join(map(str, e["att"])), dd=" ".join(map(str, e["dfn"])), al=e["att_loss"], dl=e["def_loss"])
    if kind == "conquered":
        return t(key, lang, who=who(), dst=tname(e["dst"], lang), n=e["count"])
    if kind == "eliminated":
        return t(key, lang, who=who(), by=who("by"))
    if kind == "tcards_taken":
        return t(key, lang, who=who(), n=e["count"])
    if kind == "game_over":
        names = ", ".join(who_name(g, x, lang) for x in e["winners"]) or "—"
        return t(key, lang, winners=names)
    return None


# ---- status and prompts -------------------------------------------------------------
def status_lines(g: Godstorm, lang: str) -> list[str]:
    s = g.s
    lines: list[str] = []
    if g.godstorm and s.epoch:
        lines.append(t("godstorm.status.epoch", lang, n=s.epoch, total=data.EPOCHS))
    step = t(f"godstorm.step.{s.step}", lang)
    if s.current is not None:
        lines.append(t("godstorm.status.turn", lang, who=who_name(g, s.current, lang), step=step))
    else:
        lines.append(t("godstorm.status.phase", lang, step=step))
    lines += miracle_text.status_lines(g, lang)
    lines += choice_text.status_lines(g, lang)
    for i, p in enumerate(s.players):
        if p.eliminated:
            lines.append(t("godstorm.status.out", lang, who=who_name(g, i, lang)))
            continue
        if g.godstorm:
            cards = ", ".join(f"{deck_name(k, lang)} {v}" for k, v in p.cards.items() if v) or "—"
            bid = ""
            if s.phase == "bid":
                bid = " · " + t("godstorm.status.has_bid" if p.bid is not None else "godstorm.status.no_bid", lang)
            lines.append(t("godstorm.status.player", lang, who=who_name(g, i, lang), terr=g.owned_count(i),
                           armies=g.board_armies(i), faith=p.faith, heaven=p.heaven,
                           uw=g.uw_armies(i), cards=cards) + bid)
        else:
            lines.append(t("godstorm.status.player_classic", lang, who=who_name(g, i, lang),
                           terr=g.owned_count(i), armies=g.board_armies(i), cards=len(p.tcards)))
    if not g.godstorm:
        lines.append(t("godstorm.status.next_set", lang, n=set_value(s.sets_traded)))
    return lines


def private_text(g: Godstorm, seat: int, lang: str) -> str:
    s = g.s
    if not 0 <= seat < len(s.players):
        return ""
    p = s.players[seat]
    parts: list[str] = []
    name = g.seat_display(seat, t("godstorm.player", lang, n=seat + 1))  # a replay's third person
    if not g.godstorm and p.tcards:
        parts.append(t(narration.key("godstorm.private.hand"), lang, **narration.named(name),
                       cards=", ".join(card_label(c, lang) for c in p.tcards)))
    if s.mir is not None:
        parts.append(miracle_text.hand_text(g, seat, lang))
    if s.phase == "bid" and p.bid is not None:
        parts.append(t(narration.key("godstorm.private.bid"), lang, n=p.bid, **narration.named(name)))
    return "\n".join(parts)


def standing_text(g: Godstorm, seat: int, lang: str) -> str:
    return choice_text.standing_text(g, seat, lang)


def prompt_text(g: Godstorm, seat: int, lang: str) -> str:
    s = g.s
    if seat not in g.actors():
        return ""
    phase = s.phase
    if phase == "turn":
        card_prompt = miracle_text.prompt(g, seat, lang) or choice_text.prompt(g, seat, lang)
        if card_prompt is not None:
            return card_prompt
        if s.battle is not None:
            return t("godstorm.prompt.champion", lang)
        if s.move is not None:
            m = s.move
            return t("godstorm.prompt.move_in", lang, dst=tname(m.dst, lang), lo=m.min, hi=m.max)
        step = s.step
        if s.pending > 0:
            return t("godstorm.prompt.place", lang, n=s.pending)
        if step in STEP_MOVES:  # "X, or end": name only the end when no X is offered (issue 13)
            kinds = {a["type"] for a in g.legal_actions(seat)}
            if not kinds & STEP_MOVES[step]:
                return t(f"godstorm.prompt.only_end.{step}", lang)
        return t(f"godstorm.prompt.{step}", lang)
    if phase == "setup_place":
        if s.neutral_due:
            return t("godstorm.prompt.place_neutral", lang)
        return t("godstorm.prompt.setup_place", lang, n=s.round_left, left=s.players[seat].reserve)
    if phase == "bid":
        return t("godstorm.prompt.bid", lang, n=s.players[seat].faith)
    if phase == "pile":
        return choice_text.pile_prompt(g, lang)
    return t(f"godstorm.prompt.{phase}", lang)


STEP_MOVES: dict[str, set[str]] = {
    "invade": {"attack", "attack_until"}, "underworld": {"attack", "attack_until"},
    "raise": {"resurrect"}, "fortify": {"fortify"},
}
"""The moves a step's prompt names besides ending it (``godstorm.prompt.<step>``: "Attack, or end...")."""
