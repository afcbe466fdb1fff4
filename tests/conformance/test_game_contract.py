"""One contract for every registered game (issue 24), modelled on OpenSpiel's ``api_test``.

Parametrised over the registry (the four games, and the throwaway ``tests.toygame`` registered here as a
package from outside would be): random games end within the bound their manifest gives; replaying the
stored log from the seed gives the same state; JSON round-trips; every listed action applies, and an
unlisted one (an unknown type, another seat's move, the manifest's own samples) raises
:class:`IllegalAction` with a known text and changes nothing (a listed action with a field's value
garbled is not listed, and ``apply`` raises without changing anything); the timeout action of
every seat that must act is legal (listed, or at least taken by ``apply``) and asking for it changes
nothing; and the views keep secrets: two
states differing only in hidden parts (the manifest's ``hidden_twin``: other hands, secret choices) give
the same public view, status and event texts, and the same view, legal actions and texts to a seat that
cannot see the difference. The manifest itself is checked too (rules, renderer, strings, bots, catch-up,
arena variants).

Games are played once per setup and seed (cached) and walked again for each check, which looks at a few
dozen states of each game. Game-specific invariants stay in each game's own property tests.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.core.i18n import LANGS, catalogue, has
from bot.core.replay import replay
from bot.games import registry
from bot.games.ai import LEVELS, Policy
from bot.games.base import ADMIN, Action, Event, Game, IllegalAction
from bot.games.manifest import CatchUp, Conformance, GameManifest, GameRenderer
from tests.toygame import MANIFEST as TOY

KEYS = list(dict.fromkeys([*registry.GAMES, TOY.key]))
SEEDS = (1, 2)
SAMPLES = 24
"""States of each game the costlier checks look at (evenly spread, the end included)."""
JUNK: tuple[Any, ...] = ("__junk__", -7, 10**9, [])
"""Values a listed action's fields are changed to: each makes it unlisted, and ``apply`` refuses it.
(Not None: a game may read a missing field as its default, e.g. Pobeda's event card without its cell.)"""


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy game is registered as a package from outside would be (``TABLETOP_GAMES_EXTRA`` in a process)."""
    if TOY.key not in registry.GAMES:
        monkeypatch.setitem(registry.GAMES, TOY.key, TOY)
        catalogue.cache_clear()  # its strings come with it
        yield
        monkeypatch.undo()
        catalogue.cache_clear()
    else:
        yield


def manifest_of(key: str) -> GameManifest:
    return registry.GAMES[key] if key in registry.GAMES else TOY


def kit_of(key: str) -> Conformance:
    kit = manifest_of(key).conformance_kit()
    assert kit is not None, f"{key}: its manifest names no Conformance (conformance=...)"
    return kit


def cases(key: str) -> list[tuple[int, int]]:
    return [(setup, seed) for setup in range(len(kit_of(key).setups)) for seed in SEEDS]


CASES = [pytest.param(key, setup, seed, id=f"{key}-{setup}-{seed}") for key in KEYS for setup, seed in cases(key)]


# ---- playing ----------------------------------------------------------------------------------------
@dataclass
class Playout:
    key: str
    setup: int
    seat_info: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int
    log: list[tuple[int, Action]]
    final: str
    """The final state's JSON text."""
    ended: bool


def new_game(key: str, setup: int, seed: int) -> Game:
    seat_info, options = kit_of(key).setups[setup]
    return manifest_of(key).game_class().new([dict(s) for s in seat_info], dict(options), seed)


@functools.cache
def playout(key: str, setup: int, seed: int) -> Playout:
    """One random game: every step checks that an actor exists and has a legal action."""
    kit = kit_of(key)
    seat_info, options = kit.setups[setup]
    game = new_game(key, setup, seed)
    rnd = random.Random(f"{key}:{setup}:{seed}")
    log: list[tuple[int, Action]] = []
    moderated = 0
    while game.outcome() is None and len(log) < kit.max_actions:
        admin = game.admin_actions()
        if admin and moderated < 2 and rnd.random() < 0.02:  # a moderator's action is logged like a move
            action = rnd.choice(admin)
            game.apply(ADMIN, action)
            log.append((ADMIN, action))
            moderated += 1
            continue
        actors = game.actors()
        assert actors, f"{key}: a running game has nobody to act (step {len(log)})"
        seat = rnd.choice(actors)
        legal = game.legal_actions(seat)
        assert legal, f"{key}: actor {seat} has no legal action (step {len(log)})"
        action = kit.choose(game, seat, legal, rnd) if kit.choose is not None else rnd.choice(legal)
        game.apply(seat, action)
        log.append((seat, action))
    return Playout(key, setup, [dict(s) for s in seat_info], dict(options), seed, log, game.to_json_text(),
                   game.outcome() is not None)


def walk(p: Playout, every: bool = False, samples: int = SAMPLES) -> Iterator[tuple[Game, int, list[Event]]]:
    """The game's states again, with the events of the action that led to each: all of them, or about
    ``samples`` spread evenly (the start and the end included)."""
    game = new_game(p.key, p.setup, p.seed)
    stride = 1 if every else max(1, len(p.log) // samples)
    events: list[Event] = []
    for step in range(len(p.log) + 1):
        if step % stride == 0 or step == len(p.log):
            yield game, step, events
        if step < len(p.log):
            seat, action = p.log[step]
            events = game.apply(seat, json.loads(json.dumps(action)))


def text(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True, ensure_ascii=False)


def states(key: str, setup: int, seed: int, every: bool = False,
           samples: int = SAMPLES) -> Iterator[tuple[Game, int, list[Event], int]]:
    p = playout(key, setup, seed)
    for game, step, events in walk(p, every, samples):
        yield game, step, events, len(p.seat_info)


# ---- the checks -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("key", "setup", "seed"), CASES)
def test_random_games_end(key: str, setup: int, seed: int) -> None:
    p = playout(key, setup, seed)
    assert p.ended, f"{key}: a random game did not end within {kit_of(key).max_actions} actions"
    game = manifest_of(key).game_class().from_json(json.loads(p.final))
    outcome = game.outcome()
    assert outcome is not None
    assert isinstance(outcome.get("winners"), list) and all(isinstance(w, int) for w in outcome["winners"])
    assert isinstance(outcome.get("draw"), bool)
    assert game.actors() == []
    assert all(game.legal_actions(s) == [] for s in range(len(p.seat_info)))
    pattern = manifest_of(key).reason_pattern()
    reasons = outcome.get("reasons") or ([outcome["reason"]] if outcome.get("reason") else [])
    for reason in reasons:  # the end post says why the game ended
        assert has(pattern.format(reason)), f"{key}: no text {pattern.format(reason)!r} for the ending reason"


@pytest.mark.parametrize(("key", "setup", "seed"), CASES)
def test_replay_of_the_stored_log_is_exact(key: str, setup: int, seed: int) -> None:
    p = playout(key, setup, seed)
    stored = json.loads(json.dumps(p.log))  # as the store keeps it
    game = replay(key, p.seat_info, p.options, p.seed, [(seat, action) for seat, action in stored])
    assert json.loads(game.to_json_text()) == json.loads(p.final)


@pytest.mark.parametrize(("key", "setup", "seed"), CASES)
def test_json_round_trip(key: str, setup: int, seed: int) -> None:
    cls = manifest_of(key).game_class()
    for game, step, _, n in states(key, setup, seed):
        stored = json.loads(game.to_json_text())
        assert stored == json.loads(json.dumps(game.to_json())), f"{key} step {step}: to_json_text != to_json"
        clone = cls.from_json(json.loads(json.dumps(stored)))
        assert text(clone) == text(game), f"{key} step {step}"
        assert clone.actors() == game.actors() and clone.outcome() == game.outcome()
        for seat in [None, *range(n)]:
            assert clone.view(seat) == game.view(seat)
            json.dumps(game.view(seat))  # views are plain JSON
        for seat in range(n):
            assert clone.legal_actions(seat) == game.legal_actions(seat)


@pytest.mark.parametrize(("key", "setup", "seed"), CASES)
def test_listed_actions_apply(key: str, setup: int, seed: int) -> None:
    cls = manifest_of(key).game_class()
    for game, step, _, _n in states(key, setup, seed):
        snapshot = json.loads(game.to_json_text())
        for seat in game.actors():
            legal = game.legal_actions(seat)
            for action in legal[:: max(1, len(legal) // 12)]:
                assert game.is_listed(seat, action)
                events = cls.from_json(json.loads(json.dumps(snapshot))).apply(seat, action)
                json.dumps(events)
                for event in events:
                    assert isinstance(event.get("type"), str), (key, step, event)
                    assert all(isinstance(s, int) for s in event.get("to", [])), (key, step, event)


def refused(game: Game, seat: int, action: Any, why: str, strict: bool = True) -> None:
    """``action`` of ``seat`` is refused and the state is as it was: with :class:`IllegalAction` and a known
    text (``strict``), or by any exception (a listed action with a field's value garbled: the platform
    refuses it before ``apply``, as it is not listed; ``apply`` must still change nothing)."""
    before = text(game)
    with pytest.raises(IllegalAction if strict else Exception) as caught:
        game.apply(seat, action)
    assert text(game) == before, f"{game.key}: a refused action ({why}: {action!r}) changed the state"
    if isinstance(caught.value, IllegalAction):
        assert has(caught.value.key), f"{game.key}: refusal {caught.value.key!r} ({why}) has no text"


@pytest.mark.parametrize(("key", "setup", "seed"), CASES)
def test_unlisted_actions_are_refused_and_change_nothing(key: str, setup: int, seed: int) -> None:
    kit = kit_of(key)
    cls = manifest_of(key).game_class()
    for game, _step, _, n in states(key, setup, seed, samples=SAMPLES // 2):
        actors = game.actors()
        for seat in actors or range(n):
            for bad in ({"type": "__conformance__"}, {}, *kit.illegal):
                if not game.is_listed(seat, bad) and not game.is_standing(seat, bad):
                    refused(game, seat, bad, "not listed")
        for seat in actors:
            legal = game.legal_actions(seat)
            for action in legal[:: max(1, len(legal) // 3)]:
                for other in range(n):  # another seat's move
                    if other not in actors and not game.is_listed(other, action) and not game.is_standing(other, action):
                        refused(game, other, action, f"seat {seat}'s move by seat {other}")
                for field in sorted(k for k in action if k != "type"):
                    for junk in JUNK:
                        changed = {**action, field: junk}
                        if game.is_standing(seat, changed):
                            continue
                        if not game.is_listed(seat, changed):
                            refused(game, seat, changed, f"field {field!r} changed", strict=False)
                        elif field in game.free_keys:  # any integer is listed there: apply checks the range
                            tried = cls.from_json(json.loads(game.to_json_text()))
                            try:
                                tried.apply(seat, changed)
                            except IllegalAction:
                                assert text(tried) == text(game), f"{key}: refused {changed!r} changed the state"
                        # else: the garbled action is another legal one (e.g. an empty exchange)


@pytest.mark.parametrize(("key", "setup", "seed"), CASES)
def test_timeouts_of_the_seats_to_act_are_legal(key: str, setup: int, seed: int) -> None:
    """The rule for an absent seat is an action ``apply`` takes: one of its legal actions, or a move only an
    absence makes (Pobeda's pass, never offered to a player)."""
    cls = manifest_of(key).game_class()
    for game, step, _, _n in states(key, setup, seed, every=True):
        for seat in game.actors():
            before = text(game)
            action = game.timeout_action(seat)
            assert text(game) == before, f"{key} step {step}: asking for seat {seat}'s timeout changed the state"
            assert action is not None, f"{key} step {step}: seat {seat} must act but has no timeout action"
            if not game.is_listed(seat, action):
                cls.from_json(json.loads(game.to_json_text())).apply(seat, action)


def public_texts(game: Game, events: list[Event]) -> list[Any]:
    out: list[Any] = []
    for lang in LANGS:
        out.append(game.status_lines(lang))
        out += [game.event_text(e, lang) for e in events if "to" not in e]
    return out


def seat_texts(game: Game, seat: int) -> list[str]:
    return [f(seat, lang) for lang in LANGS for f in (game.private_text, game.prompt_text)]


@pytest.mark.parametrize(("key", "setup", "seed"), CASES)
def test_views_keep_hidden_parts_secret(key: str, setup: int, seed: int) -> None:
    twin_of = kit_of(key).hidden_twin
    if twin_of is None:
        pytest.skip(f"{key} hides nothing")
    rng = random.Random(seed)
    for game, step, events, n in states(key, setup, seed):
        for seat in [None, *range(n)]:
            twin = twin_of(game, seat, rng)
            if twin is None:
                continue
            where = f"{key} step {step}, hidden from {'everyone' if seat is None else f'seat {seat}'}"
            assert twin.view(None) == game.view(None), f"{where}: the public view shows a hidden part"
            assert public_texts(twin, events) == public_texts(game, events), f"{where}: public texts differ"
            if seat is not None:
                assert twin.view(seat) == game.view(seat), f"{where}: the seat's view shows what it cannot see"
                assert twin.legal_actions(seat) == game.legal_actions(seat), f"{where}: its legal actions differ"
                assert seat_texts(twin, seat) == seat_texts(game, seat), f"{where}: its private texts differ"


@pytest.mark.parametrize("key", KEYS)
def test_hidden_twins_differ(key: str) -> None:
    """The secrecy checks above are not empty: the manifest's ``hidden_twin`` does change hidden parts."""
    twin_of = kit_of(key).hidden_twin
    if twin_of is None:
        pytest.skip(f"{key} hides nothing")
    rng = random.Random(0)
    for setup, seed in cases(key):
        for game, _step, _, n in states(key, setup, seed, every=True):
            for seat in [None, *range(n)]:
                twin = twin_of(game, seat, rng)
                if twin is not None and text(twin) != text(game):
                    return
    raise AssertionError(f"{key}: hidden_twin never changed anything")


# ---- the manifest -------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", KEYS)
def test_manifest_is_whole(key: str) -> None:
    m = manifest_of(key)
    cls = m.game_class()
    assert cls.key == m.key == key
    strings = catalogue()
    for domain in m.domains():
        assert any(k.startswith(domain + ".") for k in strings), f"{key}: no strings in its domain {domain!r}"
    assert f"{key}.name" in strings and f"{key}.rules" in strings
    drawer = m.board_renderer()
    assert isinstance(drawer, GameRenderer)
    game = new_game(key, 0, 1)
    view = json.loads(json.dumps(game.view(None)))
    for lang in LANGS:
        assert drawer.board(view, lang)[:8] == b"\x89PNG\r\n\x1a\n"
    if drawer.personal is not None:
        own = json.loads(json.dumps(game.view(0)))
        png = drawer.personal(own, "en")
        assert png is None or png[:8] == b"\x89PNG\r\n\x1a\n"
    if drawer.zoom_choices is not None:
        assert drawer.zoom is not None, f"{key}: zoom choices without a zoom"
    for name, options in m.arena.items():
        assert name not in KEYS or name == key, f"{key}: arena variant {name!r} is another game's key"
        cls.new(list(kit_of(key).setups[0][0]), dict(options), 1)
    if m.ai is not None:
        module = m.policies()
        assert module is not None
        for level in LEVELS:
            assert isinstance(module.policy(level), Policy)
    table = m.catchup_rules()
    if table is not None:
        assert isinstance(table, CatchUp)
        for name in [*table.order, *table.loss_order]:
            label = name if "." in name else f"lifecycle.cu.{name}"
            assert has(label) or has(label + ".one"), f"{key}: catch-up label {label!r} has no text"
    if m.bench_state is not None:
        assert callable(_load(m.bench_state))
    if m.cog is not None:
        assert importlib.util.find_spec(m.cog) is not None, f"{key}: its cog {m.cog!r} is missing"


def _load(ref: str) -> Callable[..., Any]:
    from bot.games.manifest import load

    found: Callable[..., Any] = load(ref)
    return found
