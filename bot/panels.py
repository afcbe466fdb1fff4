"""Generic controls built from a game's legal actions (no per-game Discord code needed).

A *panel* is what one seat sees: its private text, what it is asked to do, and controls. The
controls come from ``legal_actions(seat)`` and ``action_path(...)``: few actions become buttons,
many become nested selects grouped by path prefix. Every custom id carries the game id, the seat
and the seat's action count (its *stamp*): a control built before the seat's latest action is
stale, so a double click or an old DM can never apply twice. Leaf controls carry a short hash of
the action itself, so they are checked against the legal actions at click time.

Custom ids (all under 100 characters):
  ``tt:a:<game>:<seat>:<stamp>:<hash>``      apply the legal action with that hash
  ``tt:n:<game>:<seat>:<stamp>:<prefix>:<k>`` select of the next path level (``prefix`` = dotted indices)
  ``tt:b:<game>:<seat>:<stamp>:<prefix>``     go back to a path prefix
  ``tt:p:<game>``                           open my panel (ephemeral), on channel posts
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import discord

from bot.games.base import Action, Game
from bot.i18n import t
from bot.sessions import Session

MAX_BUTTONS = 20
SELECT_SIZE = 25
MAX_SELECTS = 4


def action_hash(action: Action) -> str:
    raw = json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(raw.encode(), digest_size=5).hexdigest()


def find_action(game: Game, seat: int, digest: str) -> Action | None:
    for action in game.legal_actions(seat):
        if action_hash(action) == digest:
            return action
    return None


def encode_prefix(prefix: list[int]) -> str:
    return ".".join(str(i) for i in prefix) or "-"


def decode_prefix(text: str) -> list[int]:
    if text in ("", "-"):
        return []
    return [int(p) for p in text.split(".")]


@dataclass
class Choice:
    action: Action
    path: list[str]


def _clip(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def choices_under(game: Game, seat: int, lang: str, prefix: list[int]) -> tuple[list[Choice], list[str]]:
    """The legal actions under ``prefix`` and the labels of the prefix levels chosen so far."""
    choices = [Choice(a, game.action_path(seat, a, lang) or ["?"]) for a in game.legal_actions(seat)]
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


def panel_header(session: Session, seat: int, lang: str) -> str:
    game = session.game
    assert game is not None
    name = t(f"{session.row.game}.name", lang)
    side = game.side_name(game.side_of(seat), lang)
    return t("panel.header", lang, game=name, seat=session.seat_name(seat), side=side)


def build_panel(session: Session, seat: int, lang: str, prefix: list[int] | None = None,
                note: str | None = None) -> tuple[str, discord.ui.View]:
    """Text and controls of ``seat``'s panel, at the given path prefix."""
    game = session.game
    assert game is not None
    prefix = prefix or []
    gid, stamp = session.id, session.row.seat_counts[seat]
    parts: list[str] = []
    if note:
        parts.append(note)
    parts.append(panel_header(session, seat, lang))
    private = game.private_text(seat, lang)
    if private:
        parts.append(private)
    view = discord.ui.View(timeout=None)
    outcome = session.outcome()
    if outcome is not None or session.row.status != "running":
        parts.append(t("panel.game_over", lang))
        return _join(parts), view
    if seat not in game.actors():
        parts.append(t("panel.waiting", lang))
        return _join(parts), view
    prompt = game.prompt_text(seat, lang)
    if prompt:
        parts.append(prompt)
    choices, chosen = choices_under(game, seat, lang, prefix)
    if chosen:
        parts.append("**" + " › ".join(chosen) + "**")
    if not choices:
        parts.append(t("panel.nothing", lang))
        return _join(parts), view
    depth = len(prefix)
    if len(choices) <= MAX_BUTTONS:
        for n, choice in enumerate(choices):
            label = " · ".join(choice.path[depth:]) or choice.path[-1]
            view.add_item(discord.ui.Button(
                label=_clip(label, 80), style=discord.ButtonStyle.primary,
                custom_id=f"tt:a:{gid}:{seat}:{stamp}:{action_hash(choice.action)}", row=min(n // 5, 3),
            ))
    else:
        labels = level_labels(choices, depth)
        for k in range(min(MAX_SELECTS, (len(labels) + SELECT_SIZE - 1) // SELECT_SIZE)):
            chunk = labels[k * SELECT_SIZE:(k + 1) * SELECT_SIZE]
            options = [
                discord.SelectOption(label=_clip(label, 100), value=str(k * SELECT_SIZE + i))
                for i, label in enumerate(chunk)
            ]
            placeholder = t("panel.choose", lang) if k == 0 else t("panel.choose_more", lang, n=k + 1)
            view.add_item(discord.ui.Select(
                custom_id=f"tt:n:{gid}:{seat}:{stamp}:{encode_prefix(prefix)}:{k}",
                placeholder=_clip(placeholder, 150), options=options, row=k,
            ))
    if prefix:
        view.add_item(discord.ui.Button(
            label=_clip(t("panel.back", lang), 80), style=discord.ButtonStyle.secondary,
            custom_id=f"tt:b:{gid}:{seat}:{stamp}:{encode_prefix(prefix[:-1])}", row=4,
        ))
    return _join(parts), view


def _join(parts: list[str]) -> str:
    text = "\n\n".join(p for p in parts if p)
    return text if len(text) <= 1900 else text[:1899] + "…"


def channel_view(game_id: int, lang: str) -> discord.ui.View:
    """Controls under a channel post: open one's own panel (ephemeral)."""
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(
        label=t("panel.open", lang), style=discord.ButtonStyle.success, custom_id=f"tt:p:{game_id}",
    ))
    return view

