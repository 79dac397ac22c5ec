"""The CPU budget of table pictures: a burst is allowed, then drawings wait for the budget to refill,
so that many tables moving at once slow their pictures down, not the game."""

from __future__ import annotations

from cogs.play._pictures import BURST_SECONDS, DrawingBudget


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_drawings_wait_once_the_budget_is_spent_and_go_on_as_it_refills():
    clock = Clock()
    budget = DrawingBudget(clock)
    started = 0
    while budget.start():
        budget.settle(0.01)
        started += 1
    assert started == round(BURST_SECONDS / 0.01), "a burst of drawings goes ahead at once"
    wait = budget.wait()
    assert wait > 0
    clock.now += wait
    assert budget.start(), "the budget refills with time"
    budget.settle(0.01)
    clock.now += 100.0
    spent = 0
    while budget.start():
        budget.settle(0.01)
        spent += 1
    assert spent == started, "it never holds more than one burst"


def test_a_drawing_in_flight_is_counted_before_it_ends():
    clock = Clock()
    budget = DrawingBudget(clock)
    in_flight = 0
    while budget.start():
        in_flight += 1
    assert 0 < in_flight <= BURST_SECONDS / budget.guess + 1
    for _ in range(in_flight):
        budget.settle(budget.guess)
    assert not budget.start()
    clock.now += budget.wait()
    assert budget.start()
