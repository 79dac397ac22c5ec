"""What a seat may see of a game's events, the latest few of them that a table or panel shows, and
how they name the players."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.core import Event, events_for

seats = st.none() | st.integers(0, 4)
events = st.lists(
    st.builds(
        Event,
        kind=st.just("move"),
        text=st.text(max_size=5),
        visible_to=st.none() | st.lists(st.integers(0, 4), max_size=3).map(tuple),
    ),
    max_size=30,
)


@given(events, seats, st.integers(1, 40))
def test_the_latest_events_a_seat_may_see_are_the_end_of_all_it_may_see(log, seat, last):
    every = events_for(log, seat)
    hidden = [e for e in log if e.visible_to is not None and (seat is None or seat not in e.visible_to)]
    assert len(every) + len(hidden) == len(log) and not any(event in hidden for event in every)
    assert events_for(log, seat, last=last) == every[-last:]


def test_an_event_names_the_players_as_they_are_named_now():
    event = Event(kind="move", text="{p1} passes to {p0}.")
    assert event.render(["Ann", "Bo"]) == "Bo passes to Ann."
    assert event.render(["Ann", "Bo 🤖"]) == "Bo 🤖 passes to Ann.", "a seat taken over is named anew"
    assert Event(kind="move", text="A new trick.").render(["Ann", "Bo"]) == "A new trick."
