"""Risk Godstorm (and classic Risk) as a plugin: what the platform finds of it (see :mod:`bot.games.manifest`)."""

from bot.games.manifest import Bench, GameManifest, RendererSpec

MANIFEST = GameManifest(
    key="godstorm",
    rules="bot.games.godstorm.game:Godstorm",
    renderer=RendererSpec("bot.games.godstorm.render", personal="render_personal", zoom_choices="zoom_choices",
                          zoom="render_zoom", compose="compose"),
    ai="bot.games.godstorm.ai",
    catchup="bot.games.godstorm.catchup:CATCHUP",
    arena={"risk": {"ruleset": "classic"}},
    bench_state="bot.games.godstorm.playout:bench_state",
    bench=Bench(
        figures=frozenset({"bots", "replay", "loop", "turn_bytes", "backlog", "web"}),
        playouts=(([{}, {}, {}], {"ruleset": "godstorm", "placement": "random"}),
                  ([{}, {}, {}, {}, {}], {"ruleset": "godstorm", "placement": "random"})),
        aliases={"dm_board_render_ms_p50": "personal_render_ms_p50"},  # the DM panel's map (issue 25)
        long_game={"ruleset": "classic", "placement": "random"},  # world domination: it goes on and on
        patient=frozenset({"attack_until"}),  # one die roll at a time, as a game clicked over weeks piles up
    ),
    cog="bot.games.godstorm.cog",
    i18n_domains=("godstorm",),
    moments=frozenset({"epoch_start", "godswar_start", "conquered_capital"}),
    conformance="bot.games.godstorm.conformance:CONFORMANCE",
)
