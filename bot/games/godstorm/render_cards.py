"""A player's miracle cards as one small picture for their private panel (issue 10): each card in hand (and
each relic they have in play) as a card face — name, deck, cost, text — legible when shown 400 px wide.

Reads only the seat's own view (``me.miracles``; ``players[seat].relics``) and the cards' printed data;
decides nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.core.i18n import t
from bot.games.godstorm.miracles import CARDS, card_of
from render.common import encode_png, font

WIDTH = 800
"""Drawn 800 px wide (shown at 400 px on a phone: every text at half size, still ≥ 8 px cap height)."""
COLS = 2
PAD = 16
CARD_W = (WIDTH - PAD * (COLS + 1)) // COLS
DECK_COLOUR: dict[str, tuple[int, int, int]] = {
    "war": (170, 40, 40), "death": (70, 60, 80), "magic": (40, 110, 60), "sky": (40, 100, 170)}
BG = (245, 240, 228)
INK = (25, 25, 25)


def _wrap(draw: ImageDraw.ImageDraw, text: str, fnt: ImageFont.FreeTypeFont, width: int) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if line and draw.textlength(trial, font=fnt) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def cards_of(view: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """(card id, in play) for the seat's hand (one face per distinct card, in hand order) and its relics."""
    me = view.get("me") or {}
    out: list[tuple[str, bool]] = []
    seen: set[str] = set()
    for inst in me.get("miracles") or []:
        cid = card_of(inst).id
        if cid not in seen:
            seen.add(cid)
            out.append((cid, False))
    seat = me.get("seat")
    players = view.get("players") or []
    if isinstance(seat, int) and 0 <= seat < len(players):
        out += [(card_of(inst).id, True) for inst in players[seat].get("relics") or []]
    return out


def render_hand(view: Mapping[str, Any], lang: str) -> bytes | None:
    """The PNG of the seat's cards, or None when it holds none (no picture then)."""
    faces = cards_of(view)
    if not faces:
        return None
    counts: dict[str, int] = {}
    for inst in (view.get("me") or {}).get("miracles") or []:
        counts[card_of(inst).id] = counts.get(card_of(inst).id, 0) + 1
    f_name, f_meta, f_text = font(26, "condensed-bold"), font(20, "condensed"), font(21, "condensed")
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    inner = CARD_W - 2 * 12
    blocks: list[tuple[str, bool, list[str], list[str]]] = []
    for cid, in_play in faces:
        c = CARDS[cid]
        name = c.name.get(lang, c.name["en"])
        if counts.get(cid, 0) > 1 and not in_play:
            name = f"{name} ×{counts[cid]}"
        blocks.append((cid, in_play, _wrap(scratch, name, f_name, inner),
                       _wrap(scratch, c.text.get(lang, c.text["en"]), f_text, inner)))
    heights = [12 + 30 * len(n) + 28 + 26 * len(x) + 14 for _, _, n, x in blocks]
    rows = [max(heights[i:i + COLS]) for i in range(0, len(heights), COLS)]
    img = Image.new("RGB", (WIDTH, PAD + sum(h + PAD for h in rows)), BG)
    draw = ImageDraw.Draw(img)
    y = PAD
    for r, row_h in enumerate(rows):
        for col in range(COLS):
            i = r * COLS + col
            if i >= len(blocks):
                break
            cid, in_play, name_lines, text_lines = blocks[i]
            c = CARDS[cid]
            x = PAD + col * (CARD_W + PAD)
            colour = DECK_COLOUR.get(c.deck, (90, 90, 90))
            draw.rounded_rectangle((x, y, x + CARD_W, y + row_h), radius=12, fill=(255, 255, 255),
                                   outline=colour, width=4)
            draw.rectangle((x + 4, y + 4, x + CARD_W - 4, y + 8 + 30 * len(name_lines)), fill=colour)
            ty = y + 8
            for line in name_lines:
                draw.text((x + 12, ty), line, font=f_name, fill=(255, 255, 255))
                ty += 30
            ty += 4
            meta = t("godstorm.ui.card.meta", lang, deck=t(f"godstorm.deck.{c.deck}", lang), cost=c.cost)
            if in_play:
                meta = f"{meta} · {t('godstorm.ui.card.in_play', lang)}"
            draw.text((x + 12, ty), meta, font=f_meta, fill=colour)
            ty += 28
            for line in text_lines:
                draw.text((x + 12, ty), line, font=f_text, fill=INK)
                ty += 26
        y += row_h + PAD
    return encode_png(img)
