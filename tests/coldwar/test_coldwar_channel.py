"""A whole game as the channel sees it: agent choices go by DM; the public log names no agent X
between planning and the truce (civil unrest, the report and a played Summit Meeting are the rules' own
reveals, and a Summit Meeting names only the opponent's agent)."""

from bot.core.i18n import t
from bot.games.base import Rng
from bot.games.coldwar import ColdWar

AGENT_NAMES = [t(f"coldwar.agent.{i}", lang) for i in range(1, 7) for lang in ("ru", "en")]


def test_channel_log_hides_agents_until_report() -> None:
    for seed in range(6):
        g = ColdWar.new([{}, {}], {}, seed)
        rng = Rng(seed * 31 + 1)
        secret_window = False
        dms: dict[int, list[str]] = {0: [], 1: []}
        while g.outcome() is None:
            seat = rng.choice(g.actors())
            action = g.timeout_action(seat) if rng.random() < 0.3 else rng.choice(g.legal_actions(seat))
            for e in g.apply(seat, action):
                if e["type"] == "planning":
                    secret_window = True
                if e["type"] in ("truce",):
                    secret_window = False
                for lang in ("ru", "en"):
                    text = g.event_text(e, lang) or ""
                    if "to" in e:
                        for s in e["to"]:
                            dms[s].append(text)
                    elif secret_window and e["type"] == "x_revealed":
                        # Summit Meeting: exactly the revealed agent, and only once it was played
                        assert e["agent"] == g.s.x[e["seat"]] and t(f"coldwar.agent.{e['agent']}", lang) in text
                    elif secret_window:
                        assert not any(name in text for name in AGENT_NAMES), text
            if secret_window:
                for lang in ("ru", "en"):
                    status = " ".join(g.status_lines(lang))
                    assert not any(name in status for name in AGENT_NAMES), status
        assert any(t("coldwar.agent.1", "en") in m or "Your agent X" in m for m in dms[0])
