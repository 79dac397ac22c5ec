"""The controls of a Nine Lives panel: which buttons and selects offer the seat's legal actions, and
the words on each (button labels are at most 80 characters, Discord's limit).

Every label and description comes from the seat's view; nothing here works out a rule again.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ninelives._cards import EMOJI, card_id, life_id, life_name, life_text
from engine.ninelives._words import (
    after_text,
    card_status,
    card_text,
    cards_text,
    effect_text,
    life_short,
    lives_text,
    ordinal,
    play_of,
)
from engine.ninelives.model import (
    CardView,
    CarouselDirection,
    CopyPower,
    CountAs,
    Cover,
    Crown,
    EndTurn,
    Give,
    GiveTo,
    GiveUp,
    Keep,
    Move,
    NewCard,
    NextLife,
    Pass,
    Phase,
    Play,
    ReorderStack,
    SkipTurn,
    StealFrom,
    Step,
    SwapWith,
    Take,
    View,
    Wager,
    decode,
)
from engine.texts import Choice, Control
from lang import N_, _, n_, p_

BUTTONS, OPTIONS, ROWS = 5, 25, 4
CARD_BUTTONS = 10  # playable cards as buttons (two rows); more go into selects of 25
PLACEHOLDERS = {
    Step.PLACE: N_("🔁 Where does your card go?"),
    Step.ICON: N_("☝️ Which icon does your card count as?"),
    Step.COPY: N_("🐈 Whose top life power do you copy?"),
    Step.GIVE: N_("💸 Which card do you give away?"),
    Step.TO: N_("💸 Who gets your card?"),
    Step.FROM: N_("🦝 Where do you steal from?"),
    Step.TAKE: N_("🦝 Which table card do you take?"),
    Step.DIR: N_("🎠 Which way do the cards go?"),
    Step.STACK: N_("🔀 Whose life stack do you reorder?"),
    Phase.CAROUSEL: N_("🎠 Choose a card to pass"),
    Phase.QUEEN: N_("👑 Who becomes the Kittyqueen?"),
}


def arrange(view: View, choices: Sequence[Choice]) -> list[Control] | None:
    """Wager/skip buttons, a button (or grouped select) per playable card and give up/end last; a
    select of lives for every ordering; a control per follow-up (where the card goes, which icon,
    whose power, whom to steal from, …). None when a legal action would be missed."""
    legal = {choice.value: choice for choice in choices}
    if not legal or view.seat is None:
        return None
    if view.phase in (Phase.ORDER, Phase.RETURN) or (view.phase == Phase.PLAY and view.step == Step.REORDER):
        controls = _order_controls(view, legal)
    elif view.phase == Phase.PLAY and view.step == Step.PLAY:
        controls = _play_controls(view, legal)
    else:
        controls = _pick_controls(view, legal)
    controls = [control for control in controls if control.choices]
    offered = [choice.value for control in controls for choice in control.choices]
    if sorted(offered) != sorted(legal) or len(controls) > ROWS:
        return None
    return controls


def _play_controls(view: View, legal: dict[str, Choice]) -> list[Control]:
    first = []
    if "w" in legal:
        label = _("🎲 Wager {life}", life=life_short(view.my_stack[0])) if view.my_stack else legal["w"].label
        first.append(Choice("w", label))
    if "skip" in legal:
        first.append(Choice("skip", _(FIXED_LABELS[SkipTurn])))
    last = [Choice("end", _(FIXED_LABELS[EndTurn]))] if "end" in legal else []
    if "giveup" in legal:  # NL-5: the top life and every life wagered this round
        me = view.seats[view.seat]
        lost = lives_text(min(me.stack_size, 1) + len(me.wagered))
        last.append(Choice("giveup", _("🏳️ Give up (lose {lives})", lives=lost)))
    cards = []
    for card in view.hand:
        if f"p:{card.id}" in legal:
            status = card_status(view, card)
            label = _("🐱 Play {card}", card=card_text(card)) + " 🎯" * status.perfect + "…" * status.choose
            cards.append(Choice(f"p:{card.id}", label, status.text[:100]))
    known = {choice.value for choice in (*first, *last, *cards)}
    cards += [choice for value, choice in legal.items() if value not in known]
    if len(cards) <= CARD_BUTTONS:
        middle = [
            Control("buttons", tuple(cards[i : i + BUTTONS]), style="success")
            for i in range(0, len(cards), BUTTONS)
        ]
    else:
        middle = grouped(cards, _("🐱 Play a card"))
    return [
        Control("buttons", tuple(first), style="primary"),
        *middle,
        Control("buttons", tuple(last), style="danger"),
    ]


def _order_controls(view: View, legal: dict[str, Choice]) -> list[Control]:
    """The next life of an ordering (NL-1 setup, NL-5 return, Shuffle Lives) and Keep the rest."""
    position = len(view.arranged) + 1 + (len(view.my_stack) if view.phase == Phase.RETURN else 0)
    lives = {f"n:{life.id}": life for life in view.arranging}
    options = tuple(
        Choice(value, life_short(lives[value]), life_text(lives[value].card())[:100])
        if value in lives
        else choice
        for value, choice in legal.items()
        if value != "keep"
    )
    place = ordinal(position)
    if view.arranging_for in (None, view.seat):
        placeholder = _("Choose your {place} life (from the top)", place=place)
    else:
        placeholder = _("Choose the {place} life (from the top)", place=place)
    keep = (Choice("keep", _(FIXED_LABELS[Keep])),) if "keep" in legal else ()
    return [
        *grouped(options, placeholder, buttons=False),
        Control("buttons", keep, style="success"),
    ]


def _pick_controls(view: View, legal: dict[str, Choice]) -> list[Control]:
    """One follow-up decision: buttons for a few choices, selects for many; a new table card keeps
    its own button when the covers or swaps need a select."""
    step = view.step if view.phase == Phase.PLAY else view.phase
    choices = [_describe(view, choice) for choice in legal.values()]
    placeholder = _(PLACEHOLDERS[step]) if step in PLACEHOLDERS else _("Choose")
    new = [choice for choice in choices if choice.value == "t"]
    rest = [choice for choice in choices if choice.value != "t"]
    if new and len(choices) > BUTTONS:
        return [Control("buttons", tuple(new), style="success"), *grouped(rest, placeholder)]
    return grouped(choices, placeholder)


def _describe(view: View, choice: Choice) -> Choice:
    """A follow-up choice with a telling label and, for selects, a description."""
    action = decode(choice.value)
    if isinstance(action, Give | Pass):
        card = _hand_card(view, action.card)
        if card is None:
            return choice
        if isinstance(action, Give):
            return Choice(choice.value, _("💸 Give {card}", card=card_text(card)))
        return Choice(choice.value, _("🎠 Pass {card}", card=card_text(card)))
    if isinstance(action, NewCard | Cover | SwapWith | CountAs | Take):
        return _describe_placing(view, action, choice)
    seat = getattr(action, "seat", None)
    if seat is not None and seat < view.players:
        info = view.seats[seat]
        if isinstance(action, CopyPower):
            return Choice(choice.value, choice.label, life_text(info.top.card()) if info.top else None)
        if isinstance(action, ReorderStack):
            return Choice(
                choice.value, choice.label, _("{lives} in the stack", lives=lives_text(info.stack_size))
            )
        return Choice(choice.value, choice.label, _("{cards} in hand", cards=cards_text(info.hand_size)))
    if isinstance(action, StealFrom):
        uncovered = n_(
            "{count} uncovered card to choose from", "{count} uncovered cards to choose from", len(view.table)
        )
        return Choice(choice.value, choice.label, uncovered)
    return choice


def _describe_placing(
    view: View, action: NewCard | Cover | SwapWith | CountAs | Take, choice: Choice
) -> Choice:
    """Where the chosen card goes (as a new card, covering, swapping, as which icon) and what that
    does to the counts, or which table card a Steal takes."""
    piles = {pile[-1].card.id: index for index, pile in enumerate(view.table)}
    if isinstance(action, Cover | SwapWith | Take) and card_id(action.card) not in piles:
        return choice
    if isinstance(action, Take):
        top = view.table[piles[card_id(action.card)]][-1].card
        return Choice(
            choice.value,
            _("🦝 Take {card}", card=card_text(top)),
            _("into your hand; what it covered counts again"),
        )
    play = play_of(view, view.selected.id) if view.selected is not None else None
    if play is None:
        return choice
    label = action_label(view, action)
    if isinstance(action, CountAs):
        found = [way for way in play.ways if way.icon == action.cat]
    elif isinstance(action, NewCard):
        found = [way for way in play.ways if way.mode == "t"]
    else:
        found = [way for way in play.ways if way.pile == piles[card_id(action.card)]]
    if not found:
        return Choice(choice.value, label)
    way = found[0]
    return Choice(choice.value, f"{label} → {after_text(way, view.ignored)}", effect_text(way, view.ignored))


def grouped(choices: Sequence[Choice], placeholder: str, buttons: bool = True) -> list[Control]:
    """A button row for up to 5 choices (if `buttons`), else selects of up to 25 options each."""
    if buttons and len(choices) <= BUTTONS:
        return [Control("buttons", tuple(choices))]
    chunks = [tuple(choices[i : i + OPTIONS]) for i in range(0, len(choices), OPTIONS)]
    if len(chunks) == 1:
        return [Control("select", chunks[0], placeholder=f"{placeholder}…")]
    return [
        Control("select", chunk, placeholder=f"{placeholder} ({index}/{len(chunks)})…")
        for index, chunk in enumerate(chunks, start=1)
    ]


# ---- labels --------------------------------------------------------------------------------------------


def _hand_card(view: View, card: int) -> CardView | None:
    return next((c for c in view.hand if c.id == card_id(card)), None)


def _table_top(view: View, card: int) -> CardView | None:
    return next((pile[-1].card for pile in view.table if pile[-1].card.id == card_id(card)), None)


FIXED_LABELS = {
    Keep: N_("✅ Keep the rest in this order"),
    GiveUp: N_("🏳️ Give up (lose a life)"),
    SkipTurn: N_("⏭️ Skip your turn"),
    EndTurn: N_("✋ End your turn"),
    NewCard: N_("🐱 Play it as a new table card"),
}
CARD_WORDS = {
    Play: N_("🐱 Play {card}"),
    Give: N_("💸 Give {card}"),
    Pass: N_("🎠 Pass {card}"),
    Take: N_("🦝 Take {card}"),
    Cover: N_("🔁 Cover {card}"),
    SwapWith: N_("🔄 Swap it for {card}"),
}


def action_label(view: View, action: Move) -> str:
    """A short button label for `action`, from the seat's view, with {pN} placeholders for names."""
    if type(action) in FIXED_LABELS:
        return _(FIXED_LABELS[type(action)])
    if isinstance(action, Wager):
        return _("🎲 Wager {life}", life=life_short(view.my_stack[0])) if view.my_stack else _("🎲 Wager")
    if isinstance(action, Play | Give | Pass):
        card = _hand_card(view, action.card)
        text = _(CARD_WORDS[type(action)], card=card_text(card) if card is not None else card_id(action.card))
        if isinstance(action, Play):
            play = play_of(view, card_id(action.card))
            one_way = play is not None and len(play.ways) == 1 and play.ways[0].icon < 0
            return (text if one_way else f"{text}…")[:80]
        return text[:80]
    if isinstance(action, Take | Cover | SwapWith):
        top = _table_top(view, action.card)
        return _(CARD_WORDS[type(action)], card=card_text(top) if top is not None else card_id(action.card))[
            :80
        ]
    if isinstance(action, CountAs):
        return _("☝️ Count it as one {cat}", cat=EMOJI[action.cat])
    if isinstance(action, NextLife):
        life = next((life for life in view.arranging if life.id == life_id(action.life)), None)
        return _("Next: {life}", life=life_short(life)) if life is not None else action.encode()
    seat = _seat(getattr(action, "seat", None))
    if isinstance(action, CopyPower):
        top = view.seats[action.seat].top
        power = life_name(top.card()) if top is not None else p_("a life card's power", "power")
        return _("🐈 Copy {player}'s {power}", player=seat, power=power)
    if isinstance(action, GiveTo):
        return _("💸 Give it to {player}", player=seat)
    if isinstance(action, StealFrom):
        return (
            _("🦝 Steal from the table") if action.seat is None else _("🦝 Steal from {player}", player=seat)
        )
    if isinstance(action, CarouselDirection):
        return _("⬅️ Pass to the left") if action.left else _("➡️ Pass to the right")
    if isinstance(action, ReorderStack):
        return _("🔀 Reorder {player}'s lives", player=seat)
    if isinstance(action, Crown):
        return _("👑 Crown {player}", player=seat)
    return action.encode()


def _seat(seat: int | None) -> str:
    """A seat in a label, named when shown: "{p2}"."""
    return f"{{p{seat}}}"
