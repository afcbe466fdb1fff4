"""Per-user command cooldowns (bot/core/cooldown.py): timing, independence, bound, and the wording."""

from __future__ import annotations

import pytest

from bot.core.cooldown import Cooldown, plural_form, wait_text


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_second_use_within_the_period_is_refused_with_the_time_left() -> None:
    clock = Clock()
    cd = Cooldown({"board": 5.0}, clock=clock)
    assert cd.use("board", 1) == 0.0
    clock.now += 1.5
    assert cd.use("board", 1) == pytest.approx(3.5)
    clock.now += 3.0
    assert cd.use("board", 1) == pytest.approx(0.5)  # a refused try does not restart the period
    clock.now += 0.5
    assert cd.use("board", 1) == 0.0  # exactly 5 s after the charged use
    assert cd.left("board", 1) == pytest.approx(5.0)


def test_users_and_commands_cool_down_independently() -> None:
    clock = Clock()
    cd = Cooldown({"board": 5.0, "log": 3.0}, clock=clock)
    assert cd.use("board", 1) == 0.0
    assert cd.use("board", 2) == 0.0  # another user
    assert cd.use("log", 1) == 0.0  # another command of the same user
    clock.now += 3.0
    assert cd.use("log", 1) == 0.0
    assert cd.use("board", 1) == pytest.approx(2.0)
    assert cd.use("board", 2) == pytest.approx(2.0)


def test_a_command_without_a_cooldown_is_always_allowed_and_not_remembered() -> None:
    cd = Cooldown({"board": 5.0, "status": 0.0}, clock=Clock())
    for _ in range(10):
        assert cd.use("status", 1) == 0.0
        assert cd.use("hand", 1) == 0.0
    assert len(cd) == 0


def test_memory_is_bounded_and_forgets_the_least_recently_used() -> None:
    clock = Clock()
    cd = Cooldown({"board": 5.0}, max_entries=3, clock=clock)
    for user in (1, 2, 3):
        assert cd.use("board", user) == 0.0
    assert cd.use("board", 4) == 0.0  # user 1 is forgotten
    assert len(cd) == 3
    assert cd.use("board", 1) == 0.0  # forgotten: one extra allowed use is the worst case
    assert cd.use("board", 3) > 0  # still remembered, still cooling down
    for user in range(100, 10_000):
        cd.use("board", user)
    assert len(cd) == 3


def test_invalid_bound_is_rejected() -> None:
    with pytest.raises(ValueError):
        Cooldown({"board": 5.0}, max_entries=0)


@pytest.mark.parametrize(("n", "form"), [
    # Russian: 1, 21, 101 секунду; 2-4, 22-24 секунды; 0, 5-20, 25-30, 111-114 секунд
    (1, "one"), (21, "one"), (101, "one"), (2, "few"), (3, "few"), (4, "few"), (22, "few"), (24, "few"),
    (0, "many"), (5, "many"), (11, "many"), (12, "many"), (14, "many"), (20, "many"), (25, "many"),
    (111, "many"), (112, "many"), (114, "many"),
])
def test_russian_plural_forms(n: int, form: str) -> None:
    assert plural_form(n, "ru") == form


def test_english_plural_forms() -> None:
    assert plural_form(1, "en") == "one"
    assert [plural_form(n, "en") for n in (0, 2, 5, 21)] == ["other"] * 4  # CLDR's name for it


@pytest.mark.parametrize(("left", "ru_word", "en_word"), [
    (0.2, "1 секунду", "1 more second "),  # a fraction of a second is shown as one, not zero
    (1.0, "1 секунду", "1 more second "),
    (1.01, "2 секунды", "2 more seconds"),
    (3.7, "4 секунды", "4 more seconds"),
    (4.5, "5 секунд", "5 more seconds"),
    (20.9, "21 секунду", "21 more seconds"),
])
def test_the_answer_states_the_whole_seconds_left_in_each_language(left: float, ru_word: str,
                                                                   en_word: str) -> None:
    ru = wait_text(left, "/game board", "ru")
    en = wait_text(left, "/game board", "en")
    assert f"ещё {ru_word}" in ru and "/game board" in ru
    assert en_word in en and "/game board" in en
    assert ru.startswith("⏳") and en.startswith("⏳")
