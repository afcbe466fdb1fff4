"""``bot.core.replay.history``: a finished game told with every hidden part revealed, per game.

What must be revealed is what each game hides from the table: Cold War's agent X choices
(cold-war-kgb-vs-cia.ru.txt, line 200: "В фазе планирования каждый игрок втайне от соперника
выбирает одного из своих агентов"), Pobeda's hands (pobeda.ru.txt, line 35: "Выбираете одну карту с
руки"), Godstorm's bids (risk-godstorm.ru.txt, line 149: "Тайно выберите сколько вы хотите показать
... Игроки одновременно показывают свои жертвы на порядок хода"). The expected secrets are read from the game's own state and
log as the game went, then looked for in the replay, marked as revealed and attributed to the seat.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.core.i18n import t
from bot.core.replay import SECRET_MARK, History, history, history_text, pick_moments, thin
from bot.core.store import ActionRow
from bot.games import narration
from bot.games.base import Game, Player, Rng
from bot.games.byallmeans import ByAllMeans
from bot.games.coldwar import ColdWar
from bot.games.godstorm.playout import random_playout
from bot.games.pobeda import Pobeda
from bot.games.pobeda.data import events

NAMES = ["Anna", "Boris", "Clara", "Dima", "Eve"]


def random_game(cls: type[Game], players: int, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any], Game,
                                                                    list[ActionRow]]:
    options = cls.default_options()
    arrangement = cls.arrange_seats([Player(i + 1) for i in range(players)], options, Rng(seed))
    game = cls.new(arrangement.seat_info, options, seed)
    rng = random.Random(seed)
    rows: list[ActionRow] = []
    while game.outcome() is None:
        seat = game.actors()[0]
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        rows.append(ActionRow(len(rows) + 1, seat, None, action, [], 0.0))
    return arrangement.seat_info, options, game, rows


def tell(key: str, seat_info: list[dict[str, Any]], options: dict[str, Any], seed: int, rows: list[ActionRow],
         players: int, lang: str = "en") -> History:
    return history(key, seat_info, options, seed, rows, names=NAMES[:players], lang=lang)


def step_lines(story: History, seq: int) -> tuple[str, ...]:
    return next(s.lines for s in story.steps if s.seq == seq)


def test_cold_war_agent_choices_are_revealed_with_their_seat() -> None:
    seat_info, options, _game, rows = random_game(ColdWar, 2, 5)
    for lang in ("en", "ru"):
        story = tell("coldwar", seat_info, options, 5, rows, 2, lang)
        choices = [r for r in rows if r.action["type"] == "agent"]
        assert choices
        for row in choices:
            agent = t(f"coldwar.agent.{row.action['agent']}", lang)
            lines = step_lines(story, row.seq)
            assert any(line.startswith(f"{SECRET_MARK} {NAMES[row.seat]}:") and agent in line for line in lines), \
                (row, lines)
        # each side's secret headquarters at the start
        assert len(story.opening) == 2 and all(SECRET_MARK in line for line in story.opening)


def test_pobeda_hands_are_revealed_at_the_start_and_the_end() -> None:
    seat_info, options, game, rows = random_game(Pobeda, 3, 8)
    start = Pobeda.new(seat_info, options, 8)
    titles = {cid: e["title"]["en"] for cid, e in events().items()}
    story = tell("pobeda", seat_info, options, 8, rows, 3)
    assert len(story.opening) == 3
    for seat, hand in enumerate(start.s.hands):
        block = story.opening[seat]
        assert NAMES[seat] in block
        for card in hand:
            if card in titles:
                assert titles[card] in block
    for seat, hand in enumerate(game.s.hands):  # what was never played
        for card in hand:
            if card in titles:
                assert any(titles[card] in block and NAMES[seat] in block for block in story.closing)
    # the cards drawn during the game are told under the seat that drew them
    text = history_text(story, "en")
    drawn = [line for line in text.splitlines() if SECRET_MARK in line and line.startswith("`")]
    assert drawn


def test_godstorm_bids_are_revealed_with_their_amounts() -> None:
    playout = random_playout(2, 5)
    rows = [ActionRow(i + 1, seat, None, action, [], 0.0) for i, (seat, action) in enumerate(playout.log)]
    story = history("godstorm", [{} for _ in range(5)], {"ruleset": "godstorm", "placement": "random"}, 2, rows,
                    names=NAMES, lang="en")
    bids = [r for r in rows if r.action["type"] == "bid"]
    assert bids
    for row in bids:
        lines = [line for line in step_lines(story, row.seq) if line.startswith(f"{SECRET_MARK} {NAMES[row.seat]}")]
        assert lines and any(str(row.action["faith"]) in line for line in lines), (row.action, lines)


def test_frames_are_the_start_and_chosen_moments() -> None:
    playout = random_playout(3, 3)
    rows = [ActionRow(i + 1, seat, None, action, [], 0.0) for i, (seat, action) in enumerate(playout.log)]
    story = history("godstorm", [{} for _ in range(3)], {"ruleset": "godstorm", "placement": "random"}, 3, rows,
                    names=NAMES[:3], lang="en", frames=20)
    seqs = [seq for seq, _view in story.frames]
    assert len(seqs) == 20 and seqs[0] == 0 and seqs[-1] == len(rows)
    assert seqs == sorted(set(seqs))
    for _seq, view in story.frames:
        assert "hand" not in view  # public views only


def test_pick_moments_prefers_major_moments_and_keeps_the_end() -> None:
    levels = [1, 0, 2, 1, 1, 2, 0, 1, 2, 1]
    assert pick_moments(levels, 4) == [2, 5, 8, 9]
    assert pick_moments(levels, 2) == [8, 9]  # one major moment fits beside the end: the latest
    assert pick_moments(levels, 6) == [0, 2, 5, 7, 8, 9]  # all majors, then the first and last minor
    assert pick_moments(levels, 50) == [0, 2, 3, 4, 5, 7, 8, 9]  # every moment, never a quiet step
    assert thin(list(range(100)), 5) == [0, 25, 50, 74, 99]


SECOND_PERSON = re.compile(r"\b(?:You|Your|Yours)\b|(?<!\w)(?:Вы|Ваш|Ваша|Ваше|Ваши|Вашу|Вашего|Вашей|Вас|Вам)(?!\w)")
"""Addressing the reader, as a seat's own texts do ("You drew", "Your cards", "Ваши карты", "Вы взяли").
Card rules quoted as printed after a card's name ("“Stonehenge” into play: You buy miracle cards…")
are not narration and stay: :func:`narration_lines` leaves them out."""


def narration_lines(text: str) -> list[str]:
    """The replay's lines that address the reader, card rules after a quoted card name left out."""
    return [line for line in text.splitlines() if SECOND_PERSON.search(re.sub(r"([”»][^:]*): .*$", r"\1", line))]


@pytest.mark.parametrize(("cls", "key", "players"), [(Pobeda, "pobeda", 3), (ColdWar, "coldwar", 2),
                                                     (ByAllMeans, "byallmeans", 2)])
def test_the_replay_speaks_of_every_seat_in_the_third_person(cls: type[Game], key: str, players: int) -> None:
    """Issue 25 item 9: the public replay said "Ваши карты (6)", "🔓 bob: Вы взяли…"; every line of
    a whole game, hands and private events included, now names the seat instead, in both languages."""
    for seed in (3, 5):
        seat_info, options, _game, rows = random_game(cls, players, seed)
        for lang in ("en", "ru"):
            story = tell(key, seat_info, options, seed, rows, players, lang)
            text = history_text(story, lang)
            assert SECRET_MARK in text
            assert narration_lines(text) == [], (key, lang, seed)
            for seat, block in enumerate(story.opening):  # each hand names its holder in its own text
                assert NAMES[seat] in block.split("\n", 1)[1], block


def test_a_godstorm_replay_speaks_in_the_third_person() -> None:
    playout = random_playout(7, 5)
    rows = [ActionRow(i + 1, seat, None, action, [], 0.0) for i, (seat, action) in enumerate(playout.log)]
    for lang in ("en", "ru"):
        story = history("godstorm", [{} for _ in range(5)], {"ruleset": "godstorm", "placement": "random"}, 7, rows,
                        names=NAMES, lang=lang)
        text = history_text(story, lang)
        assert narration_lines(text) == [], lang
        bid = t("godstorm.evt.bid_secret.named", lang, name="@", n=3).split("@")[1].split("3")[0]
        assert bid.strip() in text  # "Anna (Greeks) bids 3 faith", "… ставит 3 жетона веры"


def test_the_third_person_is_only_for_the_replay() -> None:
    """Live texts still speak to the seat: the replay's narration is scoped to it (a context variable,
    so a replay in a worker thread leaves the live games' texts alone)."""
    seat_info, options, game, _rows = random_game(Pobeda, 3, 4)
    game.seat_names = NAMES[:3]
    live = game.private_text(0, "en")
    assert live.startswith("Your cards") or live == t("pobeda.hand.empty", "en")
    with narration.third_person():
        told = game.private_text(0, "en")
    assert told.startswith("Anna") and not SECOND_PERSON.search(told)
    assert game.private_text(0, "en") == live
    assert game.event_text({"type": "drew", "to": [1], "seat": 1, "card": "p1"}, "ru").startswith("Вы взяли")
