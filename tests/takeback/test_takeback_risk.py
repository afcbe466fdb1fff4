"""The ↩ under the answer of Godstorm's own commands (``/risk ...``, issue 27): a move that revealed nothing
(a placement, a fortification, an advance into an empty territory, ending a step, an attack declared with a
new game's undo window) is answered with the panel and a ↩ that takes it back; a roll of the dice reveals, so
in mode ``own`` no ↩ is offered once it is seen."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.games.base import Action, Game
from bot.games.godstorm.cog import RiskCog
from tests.slash import StandInInteraction, invoke
from tests.takeback.common import (
    Env,
    free_move,
    play_until,
    start,
    stored,
    undo_buttons,
    user_of,
)

CHANNEL = 700  # tests.takeback.common.start's channel
COMMANDS: dict[str, set[str]] = {
    "place": {"type", "territory", "count"},
    "attack": {"type", "from", "to", "dice"},
    "fortify": {"type", "from", "to", "count", "gods"},
    "end_attacks": {"type"},
    "end_step": {"type"},
}
"""The moves a /risk command builds, with the keys it gives them (``RiskCog.place`` and the others)."""


def by_command(action: Action) -> bool:
    keys = COMMANDS.get(str(action.get("type")))
    return keys is not None and set(action) == keys and not action.get("gods")


async def command(cog: RiskCog, user: int, action: Action) -> None:
    """The /risk command that builds ``action``, typed by ``user`` in English."""
    asking = StandInInteraction(CHANNEL, user, "en-US")
    kind = action["type"]
    if kind == "place":
        await invoke(RiskCog.place, cog, asking, action["territory"], action["count"])
    elif kind == "attack":
        await invoke(RiskCog.attack, cog, asking, action["from"], action["to"], action["dice"])
    elif kind == "fortify":
        await invoke(RiskCog.fortify, cog, asking, action["from"], action["to"], action["count"])
    else:
        await invoke(RiskCog.end, cog, asking)


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, discord.ui.View | None]]:
    said: list[tuple[str, discord.ui.View | None]] = []

    async def reply(interaction: Any, content: str, *, view: discord.ui.View | None = None, **_: Any) -> None:
        said.append((content, view))

    monkeypatch.setattr("bot.games.godstorm.cog.reply", reply)
    monkeypatch.setattr("cogs.common.reply", reply)  # a refusal, answered by the command tree
    return said


async def test_a_risk_command_answers_with_undo_when_the_move_revealed_nothing(
        env: Env, answers: list[tuple[str, discord.ui.View | None]]) -> None:
    session = await start(env, "godstorm", mode="own")

    def wanted(s: Any, seat: int, action: Action, before: Game, after: Game, events: list[Any]) -> bool:
        return by_command(action) and free_move(s, seat, action, before, after, events)

    found = await play_until(env, session, wanted)
    assert found is not None, "no move a /risk command makes that reveals nothing"
    seat, action = found
    user = user_of(session, seat)
    before = await stored(env, session)
    bot: Any = type("Bot", (), {})()
    bot.sessions = env.sessions
    cog = RiskCog(bot)
    await command(cog, user, action)
    content, view = answers[-1]
    assert content.startswith("✅"), content
    assert session.row.seq == before[2] + 1  # the command made the move
    undo, = undo_buttons(view)
    assert (undo.seat, undo.stamp, undo.seq) == (seat, session.row.seat_counts[seat], session.row.seq)
    assert (await env.sessions.takeback(session.id, user, seat, from_seq=undo.seq, stamp=undo.stamp)).done
    assert (await stored(env, session))[:2] == before[:2]  # the position and the clocks before the command

    def declared(s: Any, seat: int, action: Action, before: Game, after: Game, events: list[Any]) -> bool:
        """An attack by command that waits for its roll (a new game's undo window, Godstorm's issue 27 part)."""
        return action["type"] == "attack" and by_command(action) and any(d.kind == "roll"
                                                                         for d in after.open_decisions())

    found = await play_until(env, session, declared)
    assert found is not None, "no attack came up"
    seat, action = found
    user = user_of(session, seat)
    await command(cog, user, action)
    content, view = answers[-1]
    assert content.startswith("✅"), content
    assert len(undo_buttons(view)) == 1  # the order threw no die: ↩ takes it back
    rolled = await env.sessions.act(session.id, user, seat, {"type": "roll"})
    if any(e["type"] == "roll" for e in rolled.events):
        assert await env.sessions.undo_offer(session, seat, user) is None  # the dice were seen: no ↩ in "own"
