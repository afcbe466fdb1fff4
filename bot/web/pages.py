"""The HTML of the web pages, built as strings (no template engine; issue 29).

Every value that comes from a game or a user reaches these functions already as HTML made by
:func:`bot.web.markup.to_html` (escaped, then the few Discord forms as tags), or is escaped here with
``html.escape``. The pages hold no inline script or style (the Content Security Policy forbids both):
the script and the style sheet are ``/static/web.js`` and ``/static/web.css``, and what the script needs
is in ``data-`` attributes.
"""

from __future__ import annotations

import html
import json

from bot.core.i18n import LANGS, t
from bot.web.model import Live, Replay, board_url, mine_url, step_url

STATIC_VERSION = "4"
"""Bumped when web.js or web.css change (their addresses carry it, so browsers fetch the new ones)."""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _lang_links(lang: str, here: str) -> str:
    links = []
    for other in LANGS:
        label = t("web.lang.name", other)
        if other == lang:
            links.append(f"<strong>{_e(label)}</strong>")
        else:
            links.append(f"<a href=\"{_e(here)}?lang={other}\" hreflang=\"{other}\">{_e(label)}</a>")
    return " · ".join(links)


def _document(lang: str, title: str, body_attrs: dict[str, str], body: str) -> str:
    attrs = "".join(f" {name}=\"{_e(value)}\"" for name, value in body_attrs.items())
    return (
        "<!doctype html>\n"
        f"<html lang=\"{_e(lang)}\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta name=\"referrer\" content=\"no-referrer\">"
        f"<title>{_e(title)}</title>"
        f"<link rel=\"stylesheet\" href=\"../static/web.css?v={STATIC_VERSION}\">"
        f"<script src=\"../static/web.js?v={STATIC_VERSION}\" defer></script>"
        f"</head><body{attrs}>{body}</body></html>\n"
    )


def _board(src: str, alt: str, hint: str, element_id: str = "board") -> str:
    return (f"<figure class=\"board\" id=\"{element_id}-frame\"><img id=\"{element_id}\" src=\"{_e(src)}\" "
            f"alt=\"{_e(alt)}\"><figcaption>{_e(hint)}</figcaption></figure>")


def live_page(live: Live, base: str, lang: str, seat: int | None) -> str:
    """A lobby's, a running game's or an aborted game's page (live: the script follows the event stream)."""
    title = live.title
    head = (f"<header><h1>{_e(title)}</h1><nav>{_lang_links(lang, base)}</nav>"
            f"<p class=\"live\" id=\"live\" data-on=\"{_e(t('web.live.on', lang))}\" "
            f"data-lost=\"{_e(t('web.live.lost', lang))}\">{_e(t('web.live.off', lang))}</p></header>")
    boards = ""
    if live.drawn:
        hint = t("web.board.hint", lang)
        boards = _board(board_url(base, live.seq, lang, live.version), t("web.board.alt", lang, game=title), hint)
    private = ""
    if seat is not None:
        mine = ""
        if live.personal:
            mine = _board(mine_url(base, live.seq, lang, live.version), t("web.private.board", lang),
                          t("web.board.hint", lang), "mine")
        private = (f"<section class=\"private\"><h2>🔒 {_e(t('web.private.title', lang))}</h2>"
                   f"<div id=\"private\">{live.private_html}</div>{mine}</section>")
    side = (f"<section><h2>{_e(t('web.players', lang))}</h2><ol id=\"players\">{live.players_html}</ol></section>"
            f"<section id=\"turn\">{live.turn_html}</section>"
            f"<section id=\"state\">{live.status_html}</section>{private}"
            f"<section><h2>{_e(t('web.log.title', lang))}</h2><ol id=\"log\" class=\"log\">{live.log_html}</ol>"
            f"</section>")
    lobby = f"<p>{_e(t('web.lobby', lang))}</p>" if live.status == "lobby" else ""
    body = (f"{head}<main class=\"game\"><div class=\"boards\">{boards}{lobby}</div>"
            f"<div class=\"side\">{side}</div></main>"
            f"<noscript><p>{_e(t('web.noscript', lang))}</p></noscript>")
    attrs = {"data-version": str(live.version), "data-seq": str(live.seq), "data-status": live.status,
             "data-overdue": t("web.overdue", lang), "data-lang": lang}
    if not live.ended:  # an ended game's page has nothing more to follow
        attrs["data-events"] = f"{base}/events?lang={lang}"
    return _document(lang, title, attrs, body)


def replay_page(replay: Replay, base: str, lang: str) -> str:
    """A finished game's page: the replay, stepped through with ◀ ▶ and a slider, its boards drawn per step."""
    steps = [f"<li class=\"step\" data-seq=\"0\" data-board=\"{_e(step_url(base, 0, lang))}\">"
             f"<span class=\"seq\">0</span> {_e(t('web.replay.start', lang))}"
             + "".join(f"<p>{line}</p>" for line in replay.opening) + "</li>"]
    for step in replay.steps:
        lines = "".join(f"<p>{line}</p>" for line in step.lines) or f"<p>{step.who}</p>"
        steps.append(f"<li class=\"step\" data-seq=\"{step.seq}\" data-board=\"{_e(step_url(base, step.seq, lang))}\">"
                     f"<span class=\"seq\">{step.seq}</span> {lines}</li>")
    closing = "".join(f"<p>{line}</p>" for line in replay.closing)
    last = len(steps) - 1
    end_board = step_url(base, replay.steps[-1].seq if replay.steps else 0, lang)
    controls = (f"<div class=\"controls\" id=\"controls\">"
                f"<button type=\"button\" id=\"prev\" aria-label=\"{_e(t('web.replay.prev', lang))}\">◀</button>"
                f"<input type=\"range\" id=\"slider\" min=\"0\" max=\"{last}\" value=\"{last}\" "
                f"aria-label=\"{_e(t('web.replay.slider', lang))}\">"
                f"<button type=\"button\" id=\"next\" aria-label=\"{_e(t('web.replay.next', lang))}\">▶</button>"
                f"<output id=\"where\">{_e(t('web.replay.step', lang, n=last, total=last))}</output></div>")
    head = (f"<header><h1>{_e(replay.title)}</h1><nav>{_lang_links(lang, base)}</nav>"
            f"<p class=\"result\">🏁 {replay.result_html}</p></header>")
    body = (f"{head}<main class=\"game\"><div class=\"boards\">"
            f"{_board(end_board, t('web.board.alt', lang, game=replay.title), t('web.board.hint', lang))}"
            f"{controls}</div><div class=\"side\"><section><h2>{_e(t('web.replay.title', lang))}</h2>"
            f"<ol id=\"steps\" class=\"log\">{''.join(steps)}</ol>"
            + (f"<h3>{_e(t('web.replay.end', lang))}</h3><div id=\"closing\">{closing}</div>" if closing else "")
            + "</section></div></main>")
    attrs = {"data-replay": "1", "data-step-text": t("web.replay.step", lang, n="{n}", total="{total}"),
             "data-lang": lang}
    return _document(lang, replay.title, attrs, body)


def error_page(lang: str, key: str) -> str:
    text = t(key, lang)
    return _document(lang, t("web.error.title", lang), {}, f"<main class=\"error\"><p>{_e(text)}</p></main>")


def event(name: str, data: object) -> bytes:
    """One Server-Sent Events message (``data`` as one JSON line: no line break can end it early)."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()
