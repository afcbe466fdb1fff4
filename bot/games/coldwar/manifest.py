"""Cold War as a plugin: what the platform finds of it (see :mod:`bot.games.manifest`)."""

from bot.games.manifest import Bench, GameManifest, RendererSpec

MANIFEST = GameManifest(
    key="coldwar",
    rules="bot.games.coldwar.game:ColdWar",
    renderer=RendererSpec("bot.games.coldwar.render", personal="render_personal", zoom_choices="zoom_choices",
                          zoom="render_zoom", compose="compose"),
    ai="bot.games.coldwar.ai",
    catchup="bot.games.coldwar.catchup:CATCHUP",
    bench_state="bot.games.coldwar.bench:bench_state",
    bench=Bench(figures=frozenset({"bots"})),
    i18n_domains=("coldwar",),
    moments=frozenset({"round", "report"}),
    conformance="bot.games.coldwar.conformance:CONFORMANCE",
)
