"""The engine contract over thousands of random games, with the game's invariants and a leak check;
every game replays exactly from its seed and action log (G-2)."""

from __future__ import annotations

from engine.core import IllegalAction, Rng, events_for
from engine.madcat import RULES
from engine.madcat._cards import TOTAL_VPS
from engine.madcat._dice import DICE, kind_of
from engine.madcat.model import PICKS, Options
from engine.madcat.rules import MadCatRules
from engine.testing import RandomPlayer, check_conformance

OTHER_TABLE = MadCatRules()  # views of resampled states, kept apart from the game's own views


def invariant(previous, state):
    """MC-1: 160 VPs in play at every moment; no pile below zero; scores only grow; the tray is sane."""
    scores = state.scores
    assert state.supply + sum(state.cards) + sum(scores) == TOTAL_VPS
    assert state.supply >= 0 and min(state.cards) >= 0 and min(scores) >= 0
    assert state.supply <= previous.supply
    if scores is not previous.scores:  # (the same tuple when the move scored nothing)
        assert all(new >= old for new, old in zip(scores, previous.scores, strict=True))
    assert tuple(map(sum, state.earned)) == scores
    assert len(state.aside) <= DICE and len(state.rolled) <= DICE
    assert kind_of(state.aside) in (None, state.kind), "the tray holds one kind plus wilds (MC-2)"
    assert state.picks[state.turn] is None, "the roller never mooches"
    assert state.phase == "over" or RULES.to_act(state)


def resampled(state, seat):
    """`state` with all that `seat` may not see changed: others' unrevealed picks, the dice to come."""
    picks = list(state.picks)
    for other, pick in enumerate(picks):
        if other != seat and pick is not None and not state.paid[other]:
            picks[other] = PICKS[(PICKS.index(pick) + 1 + other) % len(PICKS)]
    return state.model_copy(update={"picks": tuple(picks), "rng": Rng.seeded(state.rng.state ^ 0x9E3779B9)})


class LeakCheck:
    """No secret of another seat reaches a view.

    Every call checks the seat's own pick and that only paid picks show as revealed; every
    `every`-th call also rebuilds the view from a state whose secrets were changed (`resampled`)
    and requires it to be identical.
    """

    def __init__(self, every: int) -> None:
        self.every = every
        self.calls = 0
        self.resampled = 0
        self.state = None
        self.revealed = ()

    def __call__(self, state, seat, view):
        if state is not self.state:
            self.state = state
            pairs = zip(state.picks, state.paid, strict=True)
            self.revealed = tuple(pick if paid else None for pick, paid in pairs)
        assert view.revealed == self.revealed
        assert view.my_pick == (state.picks[seat] if seat is not None else None)
        self.calls += 1
        if self.calls % self.every == 0:
            self.resampled += 1
            assert OTHER_TABLE.view(resampled(state, seat), seat) == view


def test_random_games_keep_the_contract_and_the_invariants_mc1():
    leak_check = LeakCheck(every=8)
    played = check_conformance(
        RULES,
        players=[2, 3, 4, 5],
        games=100,
        options=[None],
        deep_games=5,
        max_steps=5_000,
        invariant=invariant,
        leak_check=leak_check,
    )
    played += check_conformance(
        RULES,
        players=[2, 3, 4, 5],
        games=20,
        options=[Options(first_player=1)],
        seed=7,
        deep_games=4,
        max_steps=5_000,
        invariant=invariant,
        leak_check=leak_check,
    )
    assert played == 480
    assert leak_check.resampled > 15_000


def test_every_view_of_every_step_survives_resampling_the_secrets():
    leak_check = LeakCheck(every=1)
    check_conformance(
        RULES, players=[3, 5], games=25, deep_games=0, invariant=invariant, leak_check=leak_check
    )
    assert leak_check.resampled == leak_check.calls > 5_000


def test_public_narration_never_names_an_unrevealed_pick():
    for seed in range(40):
        state = RULES.setup(4, seed)
        player = RandomPlayer(RULES, seed)
        while RULES.outcome(state) is None:
            seat = player.pick_seat(RULES.to_act(state))
            action = player.choose(state, seat)
            state, events = RULES.apply(state, seat, action)
            if action.encode().startswith("mooch:"):
                assert (
                    next(event.text for event in events_for(events, None))
                    == f"🤫 {{p{seat}}} has picked a mooch card."
                )
                mine = [event for event in events if event.visible_to == (seat,)]
                assert len(mine) == 1 and all(event.visible(seat) for event in events)
                for other in range(4):
                    if other != seat:
                        assert mine[0] not in events_for(events, other)


def every_action():
    """Every action the encoding can express: roll, each multiset of 1-5 faces, each stop and pick."""
    from itertools import combinations_with_replacement

    from engine.madcat._dice import FACES

    texts = ["roll", *(f"mooch:{pick}" for pick in PICKS)]
    texts += [f"stop:{kind}:{combo}" for kind in ("mad", "sad") for combo in ("2p", "fh", "4k", "5k")]
    for size in range(1, 6):
        texts += ["a:" + "".join(faces) for faces in combinations_with_replacement(FACES, size)]
    return [RULES.decode_action(text) for text in texts]


def test_check_accepts_exactly_the_listed_actions_with_a_reason_for_the_rest():
    universe = every_action()
    assert len(universe) == 1 + 6 + 8 + 461
    positions = 0
    for seed in range(12):
        state = RULES.setup(2 + seed % 4, seed)
        player = RandomPlayer(RULES, seed)
        while RULES.outcome(state) is None and positions < 600:
            if positions % 5 == 0:
                for seat in range(state.players):
                    legal = RULES.legal_actions(state, seat)
                    for action in universe:
                        try:
                            RULES.check(state, seat, action)
                        except IllegalAction as error:
                            assert action not in legal and str(error).endswith(".")
                        else:
                            assert action in legal and seat in RULES.to_act(state)
            positions += 1
            seat = player.pick_seat(RULES.to_act(state))
            state, _ = RULES.apply(state, seat, player.choose(state, seat))
    assert positions >= 600
