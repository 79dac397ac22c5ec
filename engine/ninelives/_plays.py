"""What each of a seat's hand cards would do if played now, for its view: the legal ways to play it
with the counts each reaches, or why it can't be played.

The ways come from the engine's one enumeration of where a card may go (`_counting.placements`, which
the legal moves use too), the refusals from the same checks as `_legal.reason`: a card that is not
one of those just received, Forbid, the nine-limit.
"""

from __future__ import annotations

from engine.ninelives._cards import Counts, LifeCard, PowerKey, card_id
from engine.ninelives._counting import Placement, effective, perfect, placements, plus, raw_counts, too_many
from engine.ninelives.model import HandPlay, Phase, PlayWay, State, Unplayable


def _way(found: Placement, ignored: tuple[int, ...]) -> PlayWay:
    after = plus(found.before, found.adds)
    return PlayWay(
        mode=found.mode,
        pile=found.pile,
        icon=found.icon,
        before=found.before,
        adds=found.adds,
        after=after,
        nines=tuple(perfect(after, found.adds, ignored)),
    )


def _blocked(card: str, icons: Counts, power: LifeCard | None, base: Counts, ignored) -> HandPlay:
    """A card with no legal way to play it: Forbid's cat is on it, or the cats it would take past nine."""
    if power is not None and power.power == PowerKey.FORBID:
        return HandPlay(card=card, why_not=Unplayable.FORBIDDEN, forbidden=power.a)
    adds, _ = effective(icons, power)
    allowed = power.a if power is not None and power.power == PowerKey.PLUS else -1
    over = tuple((cat, base[cat] + adds[cat]) for cat in too_many(base, adds, ignored, allowed))
    return HandPlay(card=card, why_not=Unplayable.LIMIT if over else Unplayable.NO_WAY, over=over)


def hand_plays(state: State, seat: int) -> tuple[HandPlay, ...]:
    """On the seat's turn, each hand card under the power in force; otherwise whether it would fit
    the table now as a plain new card."""
    mine = state.phase == Phase.PLAY and state.turn == seat
    power = state.power if mine else None
    base, ignored, table = raw_counts(state.table), state.ignored, state.table
    result = []
    for card in state.hands[seat]:
        shown, icons = card_id(card), state.cats[card]
        if mine and state.must_from and card not in state.must_from:
            result.append(HandPlay(card=shown, why_not=Unplayable.MUST_PLAY_RECEIVED))
            continue
        found = placements(icons, power, base, table, ignored)
        if found:
            result.append(HandPlay(card=shown, ways=tuple(_way(way, ignored) for way in found)))
        else:
            result.append(_blocked(shown, icons, power, base, ignored))
    return tuple(result)
