"""Generic controls built from a game's legal actions (no per-game Discord code needed).

A *panel* is what one seat sees: its private text, what it is asked to do, and controls. The
controls come from ``legal_actions(seat)`` and ``action_path(...)``: few actions become buttons,
many become nested selects grouped by path prefix. Every custom id carries the game id, the seat
and the seat's action count (its *stamp*): a control built before the seat's latest action is
stale, so a double click or an old DM can never apply twice. Leaf controls carry a tag of the
action itself, so they are checked against the legal actions at click time.

Custom ids are visible to Discord, to logs and to anyone a message is forwarded to, so a tag must
not say which action (or which branch of a nested choice) it stands for. A plain hash of a small
action space is reversible by trying every action; the tags are HMAC-SHA256 with a per-install
secret (kept in the database, see :func:`set_control_key`) over the game, seat, stamp and action,
so equal choices in different turns or games do not even look alike. Controls from before the
keyed tags (10 hex digits, dotted prefixes) match nothing and answer "no longer available".

The custom ids themselves (``tt:a:`` actions, ``tt:n:`` path selects, ``tt:b:`` back, ``tt:p:``
open my panel, and the lobby's and moderators' ids) are built and parsed in :mod:`bot.discord_app.custom_ids`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass

import discord

from bot.core.i18n import t
from bot.core.sessions import Session, SessionManager
from bot.discord_app import limits
from bot.discord_app.custom_ids import ActionId, BackId, PanelId, PathSelectId, TakebackAnswerId, UndoId
from bot.games.base import ADMIN, Action, Event, Game

MAX_BUTTONS = 20
SELECT_SIZE = 25
MAX_SELECTS = 4


TAG_HEX = 16
"""Hex digits of an action tag (64 bits of HMAC-SHA256)."""
PREFIX_HEX = 12
CONTROL_KEY_META = "control_key"

_key: bytes | None = None


def set_control_key(key: bytes) -> None:
    """Install the per-install secret (the bot loads it from the database at start)."""
    global _key
    if len(key) < 16:
        raise ValueError("control key too short")
    _key = key


def control_key() -> bytes:
    """The secret; a process that never installed one (a test building panels) gets a random one,
    so its controls simply stop matching after a restart."""
    global _key
    if _key is None:
        _key = secrets.token_bytes(32)
    return _key


def _tag(message: str, size: int, key: bytes | None) -> str:
    return hmac.new(key or control_key(), message.encode(), hashlib.sha256).hexdigest()[:size]


def action_hash(action: Action, game_id: int, seat: int, stamp: int, *, key: bytes | None = None) -> str:
    """The keyed tag of ``action`` for one seat's controls at one stamp."""
    raw = json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return _tag(f"a|{game_id}|{seat}|{stamp}|{raw}", TAG_HEX, key)


def admin_hash(action: Action, game_id: int, *, key: bytes | None = None) -> str:
    """The keyed tag of a moderator action (moderator controls have no stamp)."""
    return action_hash(action, game_id, ADMIN, 0, key=key)


def find_action(game: Game, game_id: int, seat: int, stamp: int, digest: str) -> Action | None:
    """The legal or standing action (``Game.standing_actions``, issue 10) whose tag is ``digest``."""
    for action in game.legal_actions(seat) + game.standing_actions(seat):
        if hmac.compare_digest(action_hash(action, game_id, seat, stamp), digest):
            return action
    return None


def find_admin_action(game: Game, game_id: int, digest: str) -> Action | None:
    for action in game.admin_actions():
        if hmac.compare_digest(admin_hash(action, game_id), digest):
            return action
    return None


def encode_prefix(prefix: list[int], game_id: int, seat: int, stamp: int, *, key: bytes | None = None) -> str:
    """The keyed tag of a path prefix (which branch a player is looking into is private too)."""
    return _tag(f"p|{game_id}|{seat}|{stamp}|" + ".".join(map(str, prefix)), PREFIX_HEX, key)


def prefixes(game: Game, seat: int, lang: str) -> Iterator[list[int]]:
    """Every path prefix of ``seat``'s panel that leads to a further level (the root included)."""
    root = [Choice(a, game.panel_path(seat, a, lang) or ["?"]) for a in game.panel_actions(seat, lang)]
    stack: list[tuple[list[Choice], list[int]]] = [(root, [])]
    while stack:
        choices, prefix = stack.pop()
        yield prefix
        depth = len(prefix)
        for i, label in enumerate(level_labels(choices, depth)):
            under = [c for c in choices if len(c.path) > depth and c.path[depth] == label]
            if any(len(c.path) > depth + 1 for c in under):
                stack.append((under, prefix + [i]))


def decode_prefix(game: Game, game_id: int, seat: int, stamp: int, lang: str, tag: str) -> list[int] | None:
    """The prefix whose tag is ``tag`` among the seat's current choices (None: no longer there); the
    ⚙️ level (:data:`SETTINGS`) while the seat has standing actions to offer."""
    if hmac.compare_digest(encode_prefix(SETTINGS, game_id, seat, stamp), tag):
        return list(SETTINGS) if standing_offered(game, seat) else None
    for prefix in prefixes(game, seat, lang):
        if hmac.compare_digest(encode_prefix(prefix, game_id, seat, stamp), tag):
            return prefix
    return None


@dataclass
class Choice:
    action: Action
    path: list[str]


def choices_under(game: Game, seat: int, lang: str, prefix: list[int]) -> tuple[list[Choice], list[str]]:
    """The legal actions under ``prefix`` and the labels of the prefix levels chosen so far."""
    choices = [Choice(a, game.panel_path(seat, a, lang) or ["?"]) for a in game.panel_actions(seat, lang)]
    chosen: list[str] = []
    for depth, index in enumerate(prefix):
        labels = level_labels(choices, depth)
        if not 0 <= index < len(labels):
            return [], chosen
        label = labels[index]
        chosen.append(label)
        choices = [c for c in choices if len(c.path) > depth and c.path[depth] == label]
    return choices, chosen


def level_labels(choices: list[Choice], depth: int) -> list[str]:
    seen: dict[str, None] = {}
    for choice in choices:
        if len(choice.path) > depth:
            seen.setdefault(choice.path[depth], None)
    return list(seen)


# ---- labels that fit (issue 25) ----------------------------------------------------------
SEP = " · "
GAP = "…"


def squeeze(text: str, room: int) -> str:
    """``text`` in at most ``room`` units by a rule: details in brackets are dropped, then whole words from
    the middle (its start and end stay: the owner, the place, the count usually close a name), marked
    by "…". A single word too long keeps its head and tail letters."""
    if limits.size(text) <= room:
        return text
    bare = re.sub(r"\s*\([^()]*\)", "", text).strip()  # details in brackets go first: «Банкиры» (Экономика, 6)
    if bare and bare != text:
        return squeeze(bare, room)
    words = text.split()
    head: list[str] = []
    tail: list[str] = []
    i, j = 0, len(words) - 1
    take_head = True
    def joined(h: list[str], t: list[str]) -> str:
        return (" ".join(h) + GAP + (" " + " ".join(t) if t else "")) if h else (GAP + " " + " ".join(t))

    while i <= j:
        word = words[i] if take_head else words[j]
        trial = joined(head + [word], tail) if take_head else joined(head, [word] + tail)
        if limits.size(trial) > room:
            if take_head and not tail:
                take_head = False
                continue
            break
        if take_head:
            head.append(word)
            i += 1
        else:
            tail.insert(0, word)
            j -= 1
        take_head = not take_head
    if head or tail:
        return joined(head, tail)
    half = max(1, (room - 1) // 2)
    return text[:half] + GAP + text[len(text) - max(0, room - 1 - half):] if room > 2 else text[:room]


def _fit(path: list[str], limit: int, shared: list[int], protect: set[int]) -> str:
    """One label of ``path``'s parts within ``limit``: the parts most labels share (they decide nothing)
    are squeezed first, then the longer ones; the last part and ``protect``ed ones last of all."""
    parts = list(path)
    excess = limits.size(SEP.join(parts)) - limit
    if excess <= 0:
        return SEP.join(parts)
    order = sorted(range(len(parts)), key=lambda i: (i in protect, i == len(parts) - 1, -shared[i],
                                                       -limits.size(parts[i])))
    for floor in (12, 3):
        for i in order:
            if excess <= 0:
                break
            have = limits.size(parts[i])
            room = max(floor, have - excess)
            if room < have:
                parts[i] = squeeze(parts[i], room)
                excess -= have - limits.size(parts[i])
    return limits.shorten(SEP.join(parts), limit)


def fit_labels(paths: list[list[str]], limit: int = limits.BUTTON_LABEL) -> list[str]:
    """The labels of one panel's controls (each a path of parts, coarse to fine), each within ``limit``
    and no two alike.

    A label too long is shortened by rule (:func:`squeeze` of the parts that distinguish least), never
    by cutting its end, where the deciding words usually are. Labels that come out equal are made again
    with the parts where their paths differ kept whole; labels of equal paths are numbered."""
    paths = [list(p) or ["?"] for p in paths]
    width = max((len(p) for p in paths), default=0)
    counts: list[dict[str, int]] = [{} for _ in range(width)]
    for p in paths:
        for i, part in enumerate(p):
            counts[i][part] = counts[i].get(part, 0) + 1
    shared = [[counts[i][part] for i, part in enumerate(p)] for p in paths]
    labels = [_fit(p, limit, shared[k], set()) for k, p in enumerate(paths)]
    groups: dict[str, list[int]] = {}
    for k, label in enumerate(labels):
        groups.setdefault(label, []).append(k)
    for twins in groups.values():
        if len(twins) < 2:
            continue
        for k in twins:
            differ = {i for i in range(len(paths[k]))
                      if any(len(paths[o]) <= i or paths[o][i] != paths[k][i] for o in twins if o != k)}
            labels[k] = _fit(paths[k], limit, shared[k], differ)
    seen: dict[str, int] = {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
    numbered: dict[str, int] = {}
    for k, label in enumerate(labels):
        if seen[label] > 1:
            numbered[label] = numbered.get(label, 0) + 1
            mark = f" ({numbered[label]})"
            base = _fit(paths[k], limit - limits.size(mark), shared[k], set())
            labels[k] = base + mark
    return labels


def button_labels(choices: list[Choice], depth: int) -> list[str]:
    """The buttons' labels of ``choices`` shown at ``depth`` (each from its path below the chosen levels)."""
    return fit_labels([c.path[depth:] or c.path[-1:] for c in choices], limits.BUTTON_LABEL)


def option_labels(labels: list[str]) -> list[str]:
    """The options of a path select (one level's labels, distinct) within Discord's 100 units."""
    return fit_labels([label.split(SEP) for label in labels], limits.OPTION_LABEL)


def panel_header(session: Session, seat: int, lang: str) -> str:
    game = session.game
    assert game is not None
    name = t(f"{session.row.game}.name", lang)
    side = game.side_name(game.side_of(seat), lang)
    header = t("panel.header", lang, game=name, seat=session.seat_name(seat), side=side)
    return "\n".join([header, *clock_lines(session, seat, lang)])


def clock_lines(session: Session, seat: int, lang: str) -> list[str]:
    """The seat's deadline as a Discord timestamp (each client shows it in its own time zone and
    counts down), or that the game's clock is paused."""
    if session.row.settings.extra.get("paused_at") is not None and session.row.status == "running":
        return [t("lifecycle.panel.paused", lang)]
    timer = session.deadlines.get(seat)
    if timer is None or session.row.status != "running":
        return []
    return [t("lifecycle.panel.deadline", lang, ts=int(timer.due_at))]


def build_panel(session: Session, seat: int, lang: str, prefix: list[int] | None = None,
                note: str | None = None, link: str | None = None) -> tuple[str, discord.ui.View]:
    """Text and controls of ``seat``'s panel, at the given path prefix.

    ``link`` (a DM panel): the address of the game's channel post, shown as a link button."""
    content, view = _build_panel(session, seat, lang, prefix, note)
    if link:
        add_link(view, link, lang)
    return content, view


def add_link(view: discord.ui.View, url: str, lang: str) -> None:
    """A link button to the game's channel post (a DM panel's way back to the table)."""
    if len(view.children) >= 25:
        return
    rows = [getattr(item, "row", None) for item in view.children]
    row = 4 if sum(1 for r in rows if r == 4) < 5 else None
    view.add_item(discord.ui.Button(label=limits.button_label(t("panels.to_channel", lang)),
                                    style=discord.ButtonStyle.link, url=url, row=row))


def has_controls(view: discord.ui.View | None) -> bool:
    """The view carries game controls (not only a link button)."""
    return view is not None and any(str(getattr(item, "custom_id", None) or "").startswith("tt:")
                                    for item in view.children)


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def _build_panel(session: Session, seat: int, lang: str, prefix: list[int] | None,
                 note: str | None) -> tuple[str, discord.ui.View]:
    game = session.game
    assert game is not None
    prefix = prefix or []
    gid, stamp = session.id, session.row.seat_counts[seat]
    parts: list[str] = []
    private = game.private_text(seat, lang)
    if note:
        parts.append(without_repeats(note, private, lang))
    parts.append(panel_header(session, seat, lang))
    if private:
        parts.append(private)
    view = discord.ui.View(timeout=None)
    outcome = session.outcome()
    if outcome is not None or session.row.status != "running":
        parts.append(t("panel.game_over", lang))
        return _join(parts), view
    if prefix == SETTINGS:
        return settings_panel(session, seat, lang, note)
    if seat not in game.actors():
        parts.append(t("panel.waiting", lang))
        add_standing(parts, view, game, session, seat, lang)
        return _join(parts), view
    prompt = game.prompt_text(seat, lang)
    if prompt:
        parts.append(prompt)
    choices, chosen = choices_under(game, seat, lang, prefix)
    asked = prefix  # where the player stands (the back button leads above it)
    prefix, choices, chosen = skip_single_levels(prefix, choices, chosen)
    if chosen:
        parts.append("**" + " › ".join(chosen) + "**")
    if not choices:
        parts.append(t("panel.nothing", lang))
        add_standing(parts, view, game, session, seat, lang)
        return _join(parts), view
    depth = len(prefix)
    if len(choices) <= MAX_BUTTONS and not as_select(game, seat, choices, depth):
        for n, (choice, label) in enumerate(zip(choices, button_labels(choices, depth), strict=True)):
            view.add_item(discord.ui.Button(
                label=label, style=discord.ButtonStyle.primary,
                custom_id=ActionId(gid, seat, stamp, action_hash(choice.action, gid, seat, stamp)).build(),
                row=min(n // 5, 3),
            ))
    else:
        labels = level_labels(choices, depth)
        here = encode_prefix(prefix, gid, seat, stamp)
        shown = option_labels(labels)
        for k, (start, chunk) in enumerate(select_chunks(labels)):
            options = [
                discord.SelectOption(label=shown[start + i], value=str(start + i))
                for i, _ in enumerate(chunk)
            ]
            placeholder = t("panel.choose", lang) if k == 0 else t("panel.choose_more", lang, n=k + 1)
            view.add_item(discord.ui.Select(
                custom_id=PathSelectId(gid, seat, stamp, here, k).build(),
                placeholder=limits.placeholder(placeholder), options=options, row=k,
            ))
    top, top_chosen = choices_under(game, seat, lang, [])
    if len(asked) > len(skip_single_levels([], top, top_chosen)[0]):  # above the first real choice: no back
        view.add_item(discord.ui.Button(
            label=limits.button_label(t("panel.back", lang)), style=discord.ButtonStyle.secondary,
            custom_id=BackId(gid, seat, stamp, encode_prefix(asked[:-1], gid, seat, stamp)).build(), row=4,
        ))
    if not asked:  # the preferences show on the panel's first level, not inside a nested choice
        add_standing(parts, view, game, session, seat, lang)
    return _join(parts), limits.fit_view(view) or view


def as_select(game: Game, seat: int, choices: list[Choice], depth: int) -> bool:
    """A game may ask for a select of the first level even when few enough choices would make buttons
    (``panel_as_select(seat)``: By All Means' opening exchange, "how many cards", then which)."""
    wants = getattr(game, "panel_as_select", None)
    return depth == 0 and callable(wants) and bool(wants(seat)) and len(level_labels(choices, 0)) > 1


# ---- standing preferences (issue 10) behind one ⚙️ button (issue 25) -------------------------
SETTINGS = [-1]
"""The path prefix of a panel's ⚙️ level: the seat's standing actions as buttons and a way back. Real
prefixes are never negative, so it is reached by the same ``tt:b:`` control as any level (its tag is
:func:`encode_prefix` of it) and refused as stale once the seat has nothing to set."""
SETTINGS_ROOM = 4 * 5
"""Buttons of standing actions at most on the ⚙️ level (rows 0-3; the back button has row 4)."""


def standing_offered(game: Game, seat: int) -> list[Action]:
    """The standing actions (``Game.standing_actions``) the seat's panel offers: those that are not
    already one of its choices now."""
    legal = game.legal_actions(seat) if seat in game.actors() else []
    return [a for a in game.standing_actions(seat) if a not in legal]


def add_standing(parts: list[str], view: discord.ui.View, game: Game, session: Session, seat: int,
                 lang: str) -> None:
    """The panel's preferences section: the seat's standing settings in words and one ⚙️ button that
    opens them (:func:`settings_panel`, the same message), instead of a button per preference."""
    text = game.standing_text(seat, lang)
    if text:
        parts.append(text)
    if not standing_offered(game, seat):
        return
    gid, stamp = session.id, session.row.seat_counts[seat]
    view.add_item(discord.ui.Button(
        label=limits.button_label(t("prefs.button", lang)), style=discord.ButtonStyle.secondary,
        custom_id=BackId(gid, seat, stamp, encode_prefix(SETTINGS, gid, seat, stamp)).build(), row=4,
    ))


def settings_panel(session: Session, seat: int, lang: str, note: str | None = None
                   ) -> tuple[str, discord.ui.View]:
    """The ⚙️ level of ``seat``'s panel: the settings in words, a button per standing action (the same
    action tags as any choice: a stale click is refused alike; applying one answers with the panel's
    first level) and a back button to that level."""
    game = session.game
    assert game is not None
    gid, stamp = session.id, session.row.seat_counts[seat]
    parts = [note or "", panel_header(session, seat, lang), game.standing_text(seat, lang)]
    view = discord.ui.View(timeout=None)
    shown = standing_offered(game, seat)[:SETTINGS_ROOM]
    parts.append(t("prefs.menu", lang) if shown else t("panel.nothing", lang))
    labels = fit_labels([game.panel_path(seat, action, lang) for action in shown])
    for n, (action, label) in enumerate(zip(shown, labels, strict=True)):
        view.add_item(discord.ui.Button(
            label=label, style=discord.ButtonStyle.primary,
            custom_id=ActionId(gid, seat, stamp, action_hash(action, gid, seat, stamp)).build(), row=n // 5,
        ))
    view.add_item(discord.ui.Button(
        label=limits.button_label(t("panel.back", lang)), style=discord.ButtonStyle.secondary,
        custom_id=BackId(gid, seat, stamp, encode_prefix([], gid, seat, stamp)).build(), row=4,
    ))
    return _join(parts), limits.fit_view(view) or view


def skip_single_levels(prefix: list[int], choices: list[Choice], chosen: list[str]
                       ) -> tuple[list[int], list[Choice], list[str]]:
    """A select level that would offer exactly one option is chosen for the player (one tap less):
    while the choices need selects and all lie under one label of the next level, go down."""
    prefix, chosen = list(prefix), list(chosen)
    while len(choices) > MAX_BUTTONS:
        depth = len(prefix)
        labels = level_labels(choices, depth)
        if len(labels) != 1 or not all(len(c.path) > depth + 1 for c in choices):
            break
        prefix.append(0)
        chosen.append(labels[0])
    return prefix, choices, chosen


def select_chunks(labels: list[str]) -> list[tuple[int, list[str]]]:
    """The labels of one level spread evenly over as few selects as hold them (26 options make two
    selects of 13, never one of 25 and one of a single option); (first index, labels) per select."""
    count = min(MAX_SELECTS, max(1, -(-len(labels) // SELECT_SIZE)))
    size = min(SELECT_SIZE, -(-len(labels) // count))
    return [(k * size, labels[k * size:(k + 1) * size]) for k in range(count) if labels[k * size:(k + 1) * size]]


def without_repeats(note: str, private: str | None, lang: str) -> str:
    """The note without the lines the panel's private text shows anyway (a card just peeked at is
    in both: the panel names it once). A ✅ stays, with "move accepted" if nothing else is left."""
    if not private:
        return note
    shown = {line.strip() for line in private.splitlines() if line.strip()}
    tick = note.startswith("✅ ")
    lines = (note[2:] if tick else note).splitlines()
    kept = [line for line in lines if line.strip() not in shown]
    if len(kept) == len(lines):
        return note
    body = "\n".join(kept).strip()
    if tick:
        return "✅ " + (body or t("panel.done", lang))
    return body


def _join(parts: list[str]) -> str:
    """The panel text; when too long, its longest part (a long private text, say) is shortened so
    the header and the question stay whole."""
    parts = [p for p in parts if p]
    limit = limits.CONTENT - 100
    excess = limits.size("\n\n".join(parts)) - limit
    if excess > 0 and parts:
        longest = max(range(len(parts)), key=lambda i: limits.size(parts[i]))
        parts[longest] = limits.shorten(parts[longest], max(1, limits.size(parts[longest]) - excess))
    return limits.shorten("\n\n".join(parts), limit)


def channel_view(game_id: int, lang: str) -> discord.ui.View:
    """Controls under a channel post: open one's own panel (ephemeral)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(
        label=limits.button_label(t("panel.open", lang)), style=discord.ButtonStyle.success,
        custom_id=PanelId(game_id).build(),
    ))
    return view



# ---- the acting player's confirmation ----------------------------------------------
CONFIRM_ROOM = 1100
"""Units of outcome text in a ✅ reply (the panel below it needs the rest of the 2000)."""
CONFIRM_LINE = 160
"""A condensed event: its first line, at most this long."""
RUN = 3
"""A run of more than this many events of one kind is condensed to its first, a count and its last."""


@dataclass
class Outcome:
    kind: str
    text: str
    private: bool


def outcomes(game: Game, events: list[Event], seat: int, lang: str) -> list[Outcome]:
    """What ``seat`` may read of ``events``: public texts and its own private ones, in order."""
    out: list[Outcome] = []
    for event in events:
        kind = str(event.get("type", ""))
        if kind.startswith("platform.") or ("to" in event and seat not in event["to"]):
            continue
        text = game.event_text(event, lang)
        if text:
            out.append(Outcome(kind, text, "to" in event))
    return out


def private_notes_fit(game: Game, events: list[Event], seat: int, lang: str, room: int) -> bool:
    """The seat's private news from ``events`` fits whole in its confirmation (then the publisher
    does not DM it again to the player who acted)."""
    private = "\n".join(o.text for o in outcomes(game, events, seat, lang) if o.private)
    return limits.size(private) <= room


def confirmation(game: Game, events: list[Event], seat: int, lang: str, *, link: str | None = None,
                 room: int = CONFIRM_ROOM) -> str:
    """The ✅ line(s) of the acting player's answer: every outcome of the action.

    Short outcomes are shown whole. Longer ones are condensed per event (its first line, shortened),
    then runs of one kind of event (a long series of rolls) to their first and last with a count,
    and the reply points to the channel post for the full text. Private news is never condensed:
    it is not in the channel post (when it does not fit, the DM carries it, see
    :func:`private_notes_fit`)."""
    items = outcomes(game, events, seat, lang)
    if not items:
        return "✅ " + t("panel.done", lang)
    whole = "\n".join(o.text for o in items)
    if limits.size(whole) <= room:
        return "✅ " + whole
    private_fits = limits.size("\n".join(o.text for o in items if o.private)) <= PRIVATE_ROOM
    lines: list[str] = []
    for o in items:
        if o.private:
            if private_fits:
                lines.extend(o.text.splitlines())
            continue
        lines.append(limits.shorten(o.text.strip().splitlines()[0] if o.text.strip() else o.text, CONFIRM_LINE))
    if not private_fits:
        lines.append("📩 " + t("panels.private_in_dm", lang))
    text = "\n".join(lines)
    if limits.size(text) > room:
        text = "\n".join(_runs(items, private_fits, lang))
    footer = "📜 " + (t("panels.full_in_channel_link", lang, url=link) if link else t("panels.full_in_channel", lang))
    return limits.shorten("✅ " + text, room + 200) + "\n" + footer


PRIVATE_ROOM = 700
"""Private news up to this size rides whole in the confirmation."""


def _runs(items: list[Outcome], private_fits: bool, lang: str) -> list[str]:
    """Public events condensed to one line each, runs of one kind to first, count, last."""
    lines: list[str] = []
    i = 0
    while i < len(items):
        o = items[i]
        if o.private:
            if private_fits:
                lines.extend(o.text.splitlines())
            i += 1
            continue
        j = i
        while j + 1 < len(items) and items[j + 1].kind == o.kind and not items[j + 1].private:
            j += 1
        run = items[i:j + 1]

        def first(x: Outcome) -> str:
            return limits.shorten(x.text.strip().splitlines()[0] if x.text.strip() else x.text, CONFIRM_LINE)

        if len(run) > RUN:
            lines += [first(run[0]), "⋯ " + t("panels.more_like_this", lang, n=len(run) - 2), first(run[-1])]
        else:
            lines += [first(x) for x in run]
        i = j + 1
    if not private_fits:
        lines.append("📩 " + t("panels.private_in_dm", lang))
    return lines


# ---- takebacks (issue 27) ----------------------------------------------------------------
def undo_tag(game_id: int, seat: int, stamp: int, seq: int) -> str:
    """The keyed tag of a ↩ button: which game, seat, stamp and move it takes back."""
    return _tag(f"u|{game_id}|{seat}|{stamp}|{seq}", TAG_HEX, None)


def answer_tag(game_id: int, request: str, verb: str) -> str:
    """The keyed tag of an Accept or Decline under a takeback request."""
    return _tag(f"k|{game_id}|{request}|{verb}", TAG_HEX, None)


def add_undo(view: discord.ui.View, session: Session, seat: int, seq: int, lang: str) -> None:
    """The ↩ button under the confirmation of ``seat``'s own move ``seq`` (not when takebacks are off,
    the game is over, or the panel is full), signed at the seat's current stamp: once the seat acts
    again or anything is taken back, it answers "no longer available"."""
    from bot.core import takeback  # noqa: PLC0415

    row = session.row
    if (takeback.mode_of(row.settings.takeback) == "off" or row.status != "running" or seq <= 0
            or len(view.children) >= 25 or not 0 <= seat < len(row.seat_counts)):
        return
    stamp = row.seat_counts[seat]
    in_last_row = sum(1 for item in view.children if getattr(item, "row", None) == 4)
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label=limits.button_label(t("takeback.button", lang)), style=discord.ButtonStyle.secondary,
        custom_id=UndoId(session.id, seat, stamp, seq, undo_tag(session.id, seat, stamp, seq)).build(),
        row=4 if in_last_row < 5 else None)
    try:
        view.add_item(button)
    except ValueError:  # every row is full: the panel's own controls come first (/game undo still works)
        pass


async def offer_undo(sessions: SessionManager, view: discord.ui.View, session: Session, seat: int, user_id: int,
                     lang: str, *, latest: bool = True) -> None:
    """Issue 27: the ↩ on a panel ``user_id`` sees of ``seat``, when it applies
    (:meth:`bot.core.sessions.SessionManager.undo_offer`: the seat's own move is the latest, or with
    ``latest=False`` this is that move's confirmation; and it can be undone now or asked for)."""
    seq = await sessions.undo_offer(session, seat, user_id, latest=latest)
    if seq is not None:
        add_undo(view, session, seat, seq, lang)


def takeback_view(game_id: int, request: str, lang: str) -> discord.ui.View:
    """Accept and Decline under a takeback request (the channel's language, both buttons signed)."""
    view = discord.ui.View(timeout=None)
    for verb, key, style in (("y", "takeback.accept", discord.ButtonStyle.success),
                             ("n", "takeback.decline", discord.ButtonStyle.danger)):
        view.add_item(discord.ui.Button(
            label=limits.button_label(t(key, lang)), style=style,
            custom_id=TakebackAnswerId(game_id, request, verb, answer_tag(game_id, request, verb)).build()))
    view.stop()  # routed by its custom id (cogs/controls.py), never stored by discord.py
    return view


def takeback_request_text(session: Session, request: dict[str, object], lang: str) -> str:
    """The channel's line asking every other player to agree to a takeback, with the answers so far."""
    asked = [int(u) for u in request.get("asked", [])]  # type: ignore[attr-defined]
    agreed = [int(u) for u in request.get("agreed", [])]  # type: ignore[attr-defined]
    text = t("takeback.request", lang, who=session.seat_name(int(request["seat"])),  # type: ignore[call-overload]
             n=len(request.get("moves", [])), asked=" ".join(f"<@{u}>" for u in asked))  # type: ignore[arg-type]
    if agreed:
        text += "\n" + t("takeback.request_progress", lang, yes=len(agreed), total=len(asked))
    return text
