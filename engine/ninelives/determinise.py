"""Sampling a whole State that one seat's view cannot tell apart from the real one.

Computer players search over such samples: the cards they cannot see (closed hands, the deck,
life cards below other players' tops, other players' secret choices) are dealt at random from
what is left, so `build_view(sample_state(view, seed), view.seat) == view`.
"""

from __future__ import annotations

from engine.core import Rng
from engine.ninelives.cards import LIVES, LifeCard, card_types, parse_catalog
from engine.ninelives.model import Placed, State, View

_FILLER = LifeCard(power="skip")


def _num(ident: str) -> int:
    return int(ident[1:])


def _ids(items) -> tuple[int, ...]:
    return tuple(_num(item.id) for item in items)


def _cat_cards(view: View, rng: Rng) -> tuple[dict, Rng]:
    """Hands, table, deck and discard: the unseen cat cards dealt at random to closed hands and the deck."""
    players, seat = view.players, view.seat
    hands: list[tuple[int, ...] | None] = [None] * players
    hands[seat] = _ids(view.hand)
    for info in view.seats:
        if info.open_hand is not None and info.seat != seat:
            hands[info.seat] = _ids(info.open_hand)
    table = tuple(
        tuple(Placed(card=_num(p.card.id), counts=p.counts, note=p.note) for p in pile) for pile in view.table
    )
    discard = _ids(view.discard)
    known = set(discard).union(*(h for h in hands if h is not None))
    known.update(p.card for pile in table for p in pile)
    cats = parse_catalog(view.catalog)
    unseen, rng = rng.shuffled([c for c in range(len(cats)) if c not in known])
    for info in view.seats:
        if hands[info.seat] is None:
            hands[info.seat], unseen = unseen[: info.hand_size], unseen[info.hand_size :]
    if len(unseen) != view.deck_size:
        raise ValueError("the view's card counts do not add up")
    fields = {"cats": cats, "hands": tuple(hands), "table": table, "discard": discard, "deck": unseen}
    return fields, rng


def _life_cards(view: View, rng: Rng) -> tuple[dict, Rng]:
    """Life stacks, wagers and the life catalog, hidden cards drawn from the card types in play."""
    players, seat = view.players, view.seat
    catalog: dict[int, LifeCard] = {}

    def see(items) -> tuple[int, ...]:
        for item in items:
            catalog[_num(item.id)] = item.card()
        return _ids(items)

    stacks: list[tuple[int, ...]] = [()] * players
    stacks[seat] = see(view.my_stack)
    wagered = tuple(see(info.wagered) for info in view.seats)
    arranging, arranged = see(view.arranging), see(view.arranged)
    tops = {info.seat: see((info.top,)) for info in view.seats if info.top is not None}
    hidden_slots: list[tuple[int, int]] = []  # (seat, how many hidden cards below the known ones)
    for info in view.seats:
        if info.seat == seat:
            continue
        if view.arranging_for == info.seat:
            # Shuffle Lives by this seat: the target's stack is seen, its order below the top is not.
            rest = [c for c in arranged + arranging if c not in tops.get(info.seat, ())]
            order, rng = rng.shuffled(rest)
            stacks[info.seat] = tops.get(info.seat, ()) + order
        else:
            stacks[info.seat] = tops.get(info.seat, ())
            hidden_slots.append((info.seat, info.stack_size - len(stacks[info.seat])))
    size = max(LIVES * players, len(catalog) + sum(n for _, n in hidden_slots), *(c + 1 for c in catalog))
    free = [c for c in range(size) if c not in catalog]
    types = card_types(view.limited)
    for other, count in hidden_slots:
        cards, free = free[:count], free[count:]
        for card in cards:
            catalog[card], rng = rng.choice(types)
        stacks[other] = stacks[other] + tuple(cards)
    lifecards = tuple(catalog.get(c, _FILLER) for c in range(size))
    return {"lifecards": lifecards, "stacks": tuple(stacks), "wagered": wagered}, rng


def _pending(view: View, fields: dict, rng: Rng) -> tuple[dict, Rng]:
    """Other seats' unfinished secret choices, consistent with who the view says is still deciding."""
    players, seat, phase = view.players, view.seat, view.phase
    hands, stacks, wagered = fields["hands"], fields["stacks"], fields["wagered"]
    arranging: list[tuple[int, ...]] = [()] * players
    arranged: list[tuple[int, ...]] = [()] * players
    arranging[seat], arranged[seat] = _ids(view.arranging), _ids(view.arranged)
    for other in view.to_act:
        if other == seat:
            continue
        if phase == "order":
            arranging[other] = stacks[other]
        elif phase == "return":
            arranging[other] = wagered[other]
        elif phase == "play" and view.step == "reorder":
            arranging[other] = stacks[view.shuffle_target]
    gifts: tuple[tuple[int, ...], ...] = ()
    need: tuple[int, ...] = ()
    if phase == "carousel":
        need = tuple(min(2, len(hand)) for hand in hands)
        gifts = tuple(
            _ids(view.gifts) if s == seat else (() if s in view.to_act else hands[s][: need[s]])
            for s in range(players)
        )
    selected = _num(view.selected.id) if view.selected is not None else None
    must_from = tuple(_num(c) for c in view.must_from)
    if phase == "play" and view.turn != seat:
        hand = hands[view.turn]
        if view.step in ("place", "icon", "to") and hand:
            selected, rng = rng.choice(hand)
        power = view.power.power if view.power is not None else ""
        if view.wagered_now and power in ("draw_and_play", "steal_and_play"):
            must_from = hand[-2:]
    return {
        "arranging": tuple(arranging),
        "arranged": tuple(arranged),
        "gifts": gifts,
        "gift_need": need,
        "selected": selected,
        "must_from": must_from,
    }, rng


def sample_state(view: View, seed: int) -> State:
    """A full state consistent with `view` (a seat's view, not the public one), hidden parts at random."""
    if view.seat is None:
        raise ValueError("only a seat's view can be completed into a state")
    rng = Rng.seeded(seed)
    cats, rng = _cat_cards(view, rng)
    lives, rng = _life_cards(view, rng)
    pending, rng = _pending(view, {**cats, **lives}, rng)
    return State(
        players=view.players,
        rng=rng,
        limited=view.limited,
        **cats,
        **lives,
        **pending,
        ignored=view.ignored,
        open_hands=tuple(s.seat for s in view.seats if s.open_hand is not None),
        safe=tuple(s.seat for s in view.seats if s.safe),
        queen=view.queen,
        turn=view.turn,
        round=view.round,
        phase=view.phase,
        step=view.step,
        power=view.power.card() if view.power is not None else None,
        wagered_now=view.wagered_now,
        wager_rule=view.wager_rule,
        optional_now=view.optional_now,
        owed=view.owed,
        optional=view.optional,
        next_skip=view.next_skip,
        next_double=view.next_double,
        next_wager=view.next_wager,
        shuffle_target=view.shuffle_target,
        direction=view.direction,
        tied=view.tied,
        losers=view.losers,
    )
