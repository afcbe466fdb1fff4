"""By All Means as a plugin: what the platform finds of it (see :mod:`bot.games.manifest`)."""

from bot.games.manifest import Bench, GameManifest, RendererSpec

MANIFEST = GameManifest(
    key="byallmeans",
    rules="bot.games.byallmeans.game:ByAllMeans",
    renderer=RendererSpec("bot.games.byallmeans.render", personal="render_personal", hand="render_hand",
                          zoom_choices="zoom_choices", zoom="render_zoom"),
    ai="bot.games.byallmeans.ai",
    catchup="bot.games.byallmeans.catchup:CATCHUP",
    reason_key="bam.reason.{}",
    arena={"byallmeans": {"decks": ["random", "random"]}},
    bench_state="bot.games.byallmeans.bench:bench_state",
    bench=Bench(ai_game="bot.games.byallmeans.bench:ai_game"),
    cog="bot.games.byallmeans.cog",
    i18n_domains=("byallmeans", "bam"),
    conformance="bot.games.byallmeans.conformance:CONFORMANCE",
)
