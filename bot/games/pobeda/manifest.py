"""Pobeda as a plugin: what the platform finds of it (see :mod:`bot.games.manifest`)."""

from bot.games.manifest import Bench, GameManifest, RendererSpec

MANIFEST = GameManifest(
    key="pobeda",
    rules="bot.games.pobeda.game:Pobeda",
    renderer=RendererSpec("bot.games.pobeda.render", personal="render_personal", zoom_choices="zoom_choices",
                          zoom="render_zoom", compose="compose", encode="encode_board"),
    ai="bot.games.pobeda.ai",
    catchup="bot.games.pobeda.catchup:CATCHUP",
    bench_state="bot.games.pobeda.bench:bench_state",
    bench=Bench(figures=frozenset({"platform", "bots"})),
    score_field="lines",
    # the arena and the bots' bench play without the undo window (issue 27): a bot confirms at once, so the
    # window would only add one trivial decision per move to the timings and the action counts
    arena={"pobeda": {"undo_window": 0}},
    i18n_domains=("pobeda",),
    moments=frozenset({"line", "lines"}),
    conformance="bot.games.pobeda.conformance:CONFORMANCE",
)
