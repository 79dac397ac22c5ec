"""Sampling a whole State that one seat's view cannot tell apart from the real one.

Computer players search over such samples: the cards they cannot see (closed hands, the deck,
life cards below other players' tops, other players' secret choices) are dealt at random from
what is left, so `RULES.view(sample_state(view, seed), view.seat) == view`.

A `Sampler` reads the view once; each `sample(seed)` then only deals the hidden parts.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import FastRng, Rng, evolve
from engine.ninelives._cards import LIVES, LifeCard, PowerKey, card_types, parse_catalog
from engine.ninelives.model import Phase, Placed, State, Step, View

_FILLER = LifeCard(power=PowerKey.SKIP)


@lru_cache(maxsize=2)
def _types(limited: bool) -> tuple[LifeCard, ...]:
    return tuple(card_types(limited))


def _num(ident: str) -> int:
    return int(ident[1:])


def _ids(items) -> tuple[int, ...]:
    return tuple(_num(item.id) for item in items)


class Sampler:
    """Everything a view fixes, read once; `sample` deals the rest at random."""

    def __init__(self, view: View) -> None:
        if view.seat is None:
            raise ValueError("only a seat's view can be completed into a state")
        self.view = view
        self._read_cats(view)
        self._read_lives(view)
        self.template = State(**self._public(view), **self._dealt(FastRng(0)))

    def _read_cats(self, view: View) -> None:
        seat = view.seat
        hands: list[tuple[int, ...] | None] = [None] * view.players
        hands[seat] = _ids(view.hand)
        for info in view.seats:
            if info.open_hand is not None and info.seat != seat:
                hands[info.seat] = _ids(info.open_hand)
        self.table = tuple(
            tuple(Placed(card=_num(p.card.id), counts=p.counts, note=p.note) for p in pile)
            for pile in view.table
        )
        self.discard = _ids(view.discard)
        known = set(self.discard).union(*(h for h in hands if h is not None))
        known.update(p.card for pile in self.table for p in pile)
        self.cats = parse_catalog(view.catalog)
        self.unseen = [c for c in range(len(self.cats)) if c not in known]
        self.hands = hands
        self.closed = [(info.seat, info.hand_size) for info in view.seats if hands[info.seat] is None]
        if len(self.unseen) != view.deck_size + sum(size for _, size in self.closed):
            raise ValueError("the view's card counts do not add up")

    def _read_lives(self, view: View) -> None:
        seat = view.seat
        catalog: dict[int, LifeCard] = {}

        def see(items) -> tuple[int, ...]:
            for item in items:
                catalog[_num(item.id)] = item.card()
            return _ids(items)

        stacks: list[tuple[int, ...]] = [()] * view.players
        stacks[seat] = see(view.my_stack)
        self.wagered = tuple(see(info.wagered) for info in view.seats)
        seen = see(view.arranged) + see(view.arranging)
        tops = {info.seat: see((info.top,)) for info in view.seats if info.top is not None}
        self.reordered: tuple[int, tuple[int, ...]] | None = None
        slots: list[tuple[int, int]] = []
        for info in view.seats:
            if info.seat == seat:
                continue
            stacks[info.seat] = tops.get(info.seat, ())
            if view.arranging_for == info.seat:
                # Shuffle Lives by this seat: the target's stack is seen, its order below the top is not.
                self.reordered = (info.seat, tuple(c for c in seen if c not in stacks[info.seat]))
            else:
                slots.append((info.seat, info.stack_size - len(stacks[info.seat])))
        hidden = sum(n for _, n in slots)
        size = max(LIVES * view.players, len(catalog) + hidden, *(c + 1 for c in catalog))
        free = [c for c in range(size) if c not in catalog]
        self.slots = []
        for other, count in slots:
            self.slots.append((other, tuple(free[:count])))
            free = free[count:]
        self.lifecards = [catalog.get(c, _FILLER) for c in range(size)]
        self.stacks = stacks
        self.types = _types(view.limited)

    def _public(self, view: View) -> dict:
        return {
            "players": view.players,
            "limited": view.limited,
            "cats": self.cats,
            "table": self.table,
            "discard": self.discard,
            "wagered": self.wagered,
            "ignored": view.ignored,
            "open_hands": tuple(s.seat for s in view.seats if s.open_hand is not None),
            "safe": tuple(s.seat for s in view.seats if s.safe),
            "queen": view.queen,
            "turn": view.turn,
            "round": view.round,
            "phase": view.phase,
            "step": view.step,
            "power": view.power.card() if view.power is not None else None,
            "wagered_now": view.wagered_now,
            "wager_rule": view.wager_rule,
            "optional_now": view.optional_now,
            "owed": view.owed,
            "optional": view.optional,
            "next_skip": view.next_skip,
            "next_double": view.next_double,
            "next_wager": view.next_wager,
            "held": view.held,
            "shuffle_target": view.shuffle_target,
            "direction": view.direction,
            "tied": view.tied,
            "losers": view.losers,
        }

    def _dealt(self, rng: FastRng) -> dict:
        """The hidden parts, dealt with `rng`."""
        unseen = list(self.unseen)
        rng.shuffle(unseen)
        hands = list(self.hands)
        for other, size in self.closed:
            hands[other], unseen = tuple(unseen[:size]), unseen[size:]
        lifecards = list(self.lifecards)
        stacks = list(self.stacks)
        types = self.types
        for other, cards in self.slots:
            for card in cards:
                lifecards[card] = types[rng.below(len(types))]
            stacks[other] = stacks[other] + cards
        if self.reordered is not None:
            other, rest = self.reordered
            order = list(rest)
            rng.shuffle(order)
            stacks[other] = stacks[other] + tuple(order)
        fields = {
            "hands": tuple(hands),
            "deck": tuple(unseen),
            "lifecards": tuple(lifecards),
            "stacks": tuple(stacks),
            "rng": Rng.seeded(rng.next()),
        }
        fields.update(self._pending(fields, rng))
        return fields

    def _pending(self, fields: dict, rng: FastRng) -> dict:
        """Other seats' unfinished secret choices, consistent with who the view says is still deciding."""
        view = self.view
        players, seat, phase = view.players, view.seat, view.phase
        hands, stacks = fields["hands"], fields["stacks"]
        arranging: list[tuple[int, ...]] = [()] * players
        arranged: list[tuple[int, ...]] = [()] * players
        arranging[seat], arranged[seat] = _ids(view.arranging), _ids(view.arranged)
        for other in view.to_act:
            if other == seat:
                continue
            if phase == Phase.ORDER:
                arranging[other] = stacks[other]
            elif phase == Phase.RETURN:
                arranging[other] = self.wagered[other]
            elif phase == Phase.PLAY and view.step == Step.REORDER:
                arranging[other] = stacks[view.shuffle_target]
        gifts: tuple[tuple[int, ...], ...] = ()
        need: tuple[int, ...] = ()
        if phase == Phase.CAROUSEL:
            need = tuple(min(2, len(hand)) for hand in hands)
            gifts = tuple(
                _ids(view.gifts) if s == seat else (() if s in view.to_act else hands[s][: need[s]])
                for s in range(players)
            )
        selected = _num(view.selected.id) if view.selected is not None else None
        must_from = tuple(_num(c) for c in view.must_from)
        if phase == Phase.PLAY and view.turn != seat:
            hand = hands[view.turn]
            if view.step in (Step.PLACE, Step.ICON, Step.TO) and hand:
                selected = hand[rng.below(len(hand))]
            power = view.power.power if view.power is not None else None
            if view.wagered_now and power in (PowerKey.DRAW_AND_PLAY, PowerKey.STEAL_AND_PLAY):
                must_from = hand[-2:]
        return {
            "arranging": tuple(arranging),
            "arranged": tuple(arranged),
            "gifts": gifts,
            "gift_need": need,
            "selected": selected,
            "must_from": must_from,
        }

    def sample(self, seed: int) -> State:
        """One full state consistent with the view."""
        return evolve(self.template, self._dealt(FastRng(seed)))


def sample_state(view: View, seed: int) -> State:
    """A full state consistent with `view` (a seat's view, not the public one), hidden parts at random."""
    return Sampler(view).sample(seed)
