"""A throwaway game registered from outside the platform: tic-tac-toe where every move also carries a
secret number (issue 24: a game is one plugin). Nothing in ``bot/``, ``cogs/`` or ``render/`` names it;
``TABLETOP_GAMES_EXTRA=tests.toygame:MANIFEST`` registers it in any process, a test adds it in its own
with ``monkeypatch.setitem(registry.GAMES, MANIFEST.key, MANIFEST)``.

This module stays light: the manifest names the rules, renderer, bots and strings, imported on first use.
"""

from bot.games.manifest import GameManifest, RendererSpec

MANIFEST = GameManifest(
    key="toygame",
    rules="tests.toygame.game:HiddenToe",
    renderer=RendererSpec("tests.toygame.render", personal="render_personal"),
    ai="tests.toygame.ai",
    catchup="tests.toygame.game:CATCHUP",
    reason_key="toygame.reason.{}",
    arena={"toygame-classic": {"secrets": "off"}},
    bench_state="tests.toygame.game:bench_state",
    i18n_domains=("toygame",),
    i18n_files=("tests.toygame:i18n.json",),
    moments=frozenset({"line"}),
    conformance="tests.toygame.game:CONFORMANCE",
)
