"""The data: the rulebook's effect names and texts, the vocabulary every card uses, ru/en names, and every
card ability changing the state when it applies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.core.i18n import catalogue
from bot.games.byallmeans import data, effects, engine, rules  # noqa: F401  (engine registers its ops)
from bot.games.byallmeans.state import BufferSlot, Frame
from tests.byallmeans.bam_helpers import fresh, put, uid_of

RULEBOOK = Path("/work/shared/rules/by-all-means.ru.txt")

NAMES = ["Оклеветать", "Слив информации", "Разоблачить", "Обоюдный удар", "Шантаж", "Усиление потенциала",
         "Восстановление", "Дальновидность", "Управление властью", "Воодушевить", "Скачать", "Запугать",
         "Вредительство", "Уничтожение планов", "Убрать Агента"]


def test_the_fifteen_effects_of_the_rulebook() -> None:
    """The issue lists the rulebook table's 15 effects; each is in the data exactly once."""
    assert sorted(e.name_ru for e in data.pair_effects().values()) == sorted(NAMES)


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not on this machine")
def test_texts_and_legality_are_the_rulebooks() -> None:
    """Each effect's text is in the rulebook's table and its legality sentence in «легальность» chapter."""
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split()).replace("ё", "е")
    folded = book.lower()
    for e in data.pair_effects().values():
        assert e.legal_ru.lower() in folded, e.id
        if e.id != "remove_agent":  # the table splits its text around a footnote mark
            assert e.text_ru.lower() in folded, e.id
    for c in data.number_combos().values():
        assert c.text_ru.lower() in folded, c.id


def test_number_combinations() -> None:
    """«5» Махинации, «7» Ненадежный пиар, «9» Пиар-компания, «11» Большая пиар-компания, «13» Благотворительность."""
    combos = data.number_combos()
    assert sorted(combos) == [5, 7, 9, 11, 13]
    assert [combos[n].name_ru for n in (5, 7, 9, 11, 13)] == [
        "Махинации", "Ненадежный пиар", "Пиар-компания", "Большая пиар-компания", "Благотворительность"]
    assert combos[5].min_cards == 2 and all(combos[n].min_cards == 1 for n in (7, 9, 11, 13))


def _walk(ops: list | tuple):  # type: ignore[no-untyped-def,type-arg]
    for op in ops:
        yield op
        for option in op.get("options", []):
            yield from _walk(option["ops"])
        yield from _walk(op.get("then", []))
        yield from _walk(op.get("else", []))


def test_every_op_is_in_the_vocabulary() -> None:
    programs = [e.ops for e in data.pair_effects().values()] + [c.ops for c in data.number_combos().values()]
    programs += [a.ops for c in data.cards().values() for a in c.abilities]
    for ops in programs:
        for op in _walk(ops):
            spec = effects.OPS.get(op["op"])
            assert spec is not None and spec.data, op
    for c in data.cards().values():
        assert c.type in data.CARD_TYPES and all(a.when in data.WHEN for a in c.abilities), c.code
        assert set(c.symbols) <= set(data.symbols()), c.code
        assert set(c.arrows) <= set(data.DIRECTIONS)


def test_every_name_has_russian_and_english() -> None:
    keys = catalogue()
    needed = [f"bam.card.{c}" for c in data.cards()] + [f"bam.sym.{s}" for s in data.symbols()]
    needed += [f"bam.eff.{e.id}" for e in data.pair_effects().values()]
    needed += [f"bam.efftext.{e.id}" for e in data.pair_effects().values()]
    needed += [f"bam.num.{n}" for n in data.number_combos()] + [f"bam.numtext.{n}" for n in data.number_combos()]
    needed += [o["key"] for ops in [e.ops for e in data.pair_effects().values()] + [
        c.ops for c in data.number_combos().values()] for op in _walk(ops) for o in op.get("options", [])]
    for key in needed:
        assert key in keys and keys[key]["ru"] and keys[key]["en"], key
    assert all(k.startswith("bam.") for k in json.loads(Path("data/i18n/byallmeans.json").read_text("utf-8")))


def _rich(seat: int = 0):  # type: ignore[no-untyped-def]
    """A position where every ability of the starter set has something to act on."""
    g = fresh(seat=seat)
    put(g, 0, "T02", 4)
    put(g, 1, "T04", 7)
    put(g, 0, "A02", 3)
    put(g, 1, "A01", 7)  # hidden on its own territory
    for s_ in (0, 1):
        p = g.s.players[s_]
        p.hand += [p.main.pop() for _ in range(3)]
        p.buffer.append(BufferSlot(uid_of(g.s, s_, "T05"), ["eye"]))
        p.utility.append(uid_of(g.s, s_, "P02"))
    return g


def _derived(g) -> str:  # type: ignore[no-untyped-def]
    """What static abilities change: every agent's efficiency and resilience, every card's prices."""
    s = g.s
    stats = [(a.uid, rules.efficiency(s, a), rules.resilience(s, a)) for _, a in rules.agents(s)]
    prices = [(seat, code, rules.price(s, seat, data.card(code), zone)) for seat in (0, 1)
              for code in sorted(data.cards()) for zone in ("hand", "buffer")]
    return json.dumps([stats, prices])


@pytest.mark.parametrize("code", sorted(data.cards()))
def test_every_ability_changes_the_state(code: str) -> None:
    """No ability is text the engine ignores: run each one (first option of every decision) and compare the
    state; a static ability is compared by what it modifies (agent stats, prices) with and without it."""
    card = data.card(code)
    assert card.abilities or card.requires or card.type == "territory" or card.operative or card.is_agent, code
    for ability in card.abilities:
        g = _rich()
        if ability.when == "static":
            without = _derived(g)
            put(g, 0, code, 4 if card.type in ("graffiti", "plot") else 0)
            assert _derived(g) != without, (code, "static")
            continue
        source = put(g, 0, code, 4 if card.type == "graffiti" or card.attach else 0) \
            if card.type != "plot" or card.attach else None
        before = json.dumps(g.to_json(), sort_keys=True)
        uid = source.uid if source else None
        g.s.stack.append(Frame(0, uid, [dict(op) for op in ability.ops], {"this": uid, "host": 4}))
        effects.run(g.s, [])
        while effects.pending(g.s) is not None:
            seat, values = effects.pending(g.s)
            effects.answer(g.s, seat, values[0], [])
        assert json.dumps(g.to_json(), sort_keys=True) != before, (code, ability.when)


def test_conditions_statics_and_attachments_are_known() -> None:
    """Every placement condition, static modifier and attachment in the data is one the rules read."""
    for c in data.cards().values():
        assert all(r["cond"] in data.CONDITIONS for r in c.requires), c.code
        assert c.attach in ("", "self", "opp", "any") and (not c.attach or c.type == "plot"), c.code
        for ab in c.abilities:
            assert (ab.when == "static") == bool(ab.mods), c.code
            assert all(m["stat"] in data.STATS for m in ab.mods), c.code
            assert ab.when == "static" or ab.ops, c.code
        assert all(n is None or n >= 0 for n in c.cost) and 1 <= c.number <= 8, c.code
