"""CatSanity at the table: the alley, every home grouped by set with running scores, sanity bars, the
auction and the Recall, and controls for every decision (adopt, bid, Copy Cat, Ninja, Recall picks)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.catsanity._cards import (
    COPY,
    KIND,
    KIND_EMOJI,
    KIND_NAMES,
    KING,
    MOON,
    PRECIOUS,
    QUEEN,
    SUN,
    TOKENS_BY_PLAYERS,
    TWIN_LETTERS,
)
from engine.catsanity._flow import name_of_kind
from engine.catsanity._scoring import (
    CHORUS_MIN,
    CHORUS_POINTS,
    FIBONACCI,
    HOUSE_POINTS,
    PRECIOUS_POINTS,
    TWIN_SET,
    quick_score,
)
from engine.catsanity.model import (
    Adopt,
    CallAuction,
    CatSanityAction,
    Declare,
    NinjaTarget,
    Phase,
    PlaceBid,
    ReturnCat,
    State,
    View,
)
from engine.catsanity.rules import decode
from engine.core import IllegalAction, InvalidInput, NotYourTurn, OutOfDate, Rules
from engine.texts import Choice, Control, Texts

SANITY = "🧠"
SUN_MARK, MOON_MARK = "☀️", "🌙"
"""What marks a Sun Cat and a Moon Cat, in the text and (as a sun and a crescent) in the picture."""
ROYAL_POINTS = "2 pts + 2 per other Moon Cat"
SUN_HINT = {
    "house": f"{HOUSE_POINTS} pts each",
    "twin": f"{TWIN_SET[1]} alone · {TWIN_SET[2]} a pair · {TWIN_SET[3]} with a Copy Cat",
    "chorus": f"0 until {CHORUS_MIN}, then {CHORUS_POINTS}",
    "fib": " · ".join(str(points) for points in FIBONACCI[1:]),
}
MOON_EFFECT = {
    COPY: "copies any Sun Cat you name",
    "ninja": "steals a random Sun Cat from an opponent's home",
    "recall": "every opponent returns 2 cats to the deck",
    "cthulhu": f"opponents lose 1 {SANITY}, 2 if their home is bigger",
    PRECIOUS: f"{PRECIOUS_POINTS} pts, but −1 {SANITY} at the start of each of your turns",
    KING: ROYAL_POINTS,
    QUEEN: ROYAL_POINTS,
}
MOON_BUTTON = {
    COPY: "copies a Sun Cat",
    "ninja": "steal a Sun Cat",
    "recall": "opponents return 2",
    "cthulhu": f"opponents −1/−2 {SANITY}",
    PRECIOUS: f"+{PRECIOUS_POINTS}, then −1 {SANITY} a turn",
}
ZERO_MOONS = ("ninja", "recall", "cthulhu")
RECALL_TAG = "set aside, goes back to the deck"


# ---- cards and homes as text ----------------------------------------------------------------------------


def card_text(card: str) -> str:
    """A card with its emoji: "👯 Twin A Cat"."""
    kind = KIND[card]
    return f"{KIND_EMOJI[kind]} {KIND_NAMES[kind]}"


def kind_text(kind: str) -> str:
    return f"{KIND_EMOJI[kind]} {KIND_NAMES[kind]}"


def alley_line(card: str) -> str:
    """An alley card with what it does: Sun Cats their scoring, Moon Cats their cost and effect."""
    kind = KIND[card]
    if card in MOON:
        return f"{MOON_MARK} {card_text(card)} · −1 {SANITY} — {MOON_EFFECT[kind]}"
    return f"{SUN_MARK} {card_text(card)} — {SUN_HINT['twin' if kind.startswith('twin') else kind]}"


def sanity_bar(tokens: int, players: int) -> str:
    """Sanity tokens as a bar: "🧠 ●●●●○○○ 4/7", or insane."""
    full = TOKENS_BY_PLAYERS[players]
    if tokens == 0:
        return f"😵 insane (0/{full} {SANITY})"
    return f"{SANITY} {'●' * tokens}{'○' * max(full - tokens, 0)} {tokens}/{full}"


def home_groups(home: Sequence[str], copy_as: str | None, hints: bool = True) -> list[tuple[str, int]]:
    """A home grouped by set, each with its running score (CS-11); the totals add up to the home's score.

    A declared Copy Cat shows as 🪞 inside the set it joins (CS-6); `hints` adds what the next card of a
    growing set would bring (Chorus, Fibonacci)."""
    kinds = Counter(KIND[card] for card in home)
    copied = copy_as if kinds[COPY] and copy_as else None
    mirror = KIND_EMOJI[COPY]
    counts = kinds.copy()
    if copied:
        counts[copied] += 1

    def amount(kind: str) -> str:
        total = f" ×{counts[kind]}" if counts[kind] > 1 else ""
        return total + (f" incl. {mirror}" if copied == kind else "")

    groups: list[tuple[str, int]] = []
    if counts["house"]:
        groups.append((f"{KIND_EMOJI['house']} House{amount('house')}", HOUSE_POINTS * counts["house"]))
    twins = [letter for letter in TWIN_LETTERS if counts[f"twin{letter}"]]
    if twins:
        parts = []
        for letter in twins:
            kind = f"twin{letter}"
            cards = letter * kinds[kind] + (mirror if copied == kind else "")
            parts.append(f"{cards} {TWIN_SET[counts[kind]]}")
        total = sum(TWIN_SET[counts[f"twin{letter}"]] for letter in twins)
        groups.append((f"{KIND_EMOJI['twinA']} Twins " + " · ".join(parts), total))
    if counts["chorus"]:
        n = counts["chorus"]
        need = f" ({n}/{CHORUS_MIN} for {CHORUS_POINTS})" if hints and n < CHORUS_MIN else ""
        points = CHORUS_POINTS if n >= CHORUS_MIN else 0
        groups.append((f"{KIND_EMOJI['chorus']} Chorus{amount('chorus')}{need}", points))
    if counts["fib"]:
        n = counts["fib"]
        following = f" (next: {FIBONACCI[n + 1]})" if hints and n + 1 < len(FIBONACCI) else ""
        groups.append((f"{KIND_EMOJI['fib']} Fibonacci{amount('fib')}{following}", FIBONACCI[n]))
    if kinds[COPY] and not copied:
        groups.append((f"{mirror} Copy Cat (not declared)", 0))
    if kinds[PRECIOUS]:
        groups.append((kind_text(PRECIOUS), PRECIOUS_POINTS))
    moons = sum(n for kind, n in kinds.items() if kind not in _SUN_KINDS)
    for royal in (KING, QUEEN):
        if kinds[royal]:
            others = moons - 1
            groups.append((f"{kind_text(royal)} (2 + 2×{others} Moon)", 2 + 2 * others))
    zero = [
        f"{KIND_EMOJI[kind]} {KIND_NAMES[kind].split()[0]}" + (f" ×{kinds[kind]}" if kinds[kind] > 1 else "")
        for kind in ZERO_MOONS
        if kinds[kind]
    ]
    if zero:
        groups.append((" · ".join(zero), 0))
    return groups


_SUN_KINDS = frozenset(KIND[card] for card in SUN)
_SUN_EMOJI = tuple(KIND_EMOJI[kind] for kind in ("house", "twinA", "chorus", "fib"))


def cats(count: int) -> str:
    return f"{count} cat{'s' if count != 1 else ''}"


def home_text(view: View, seat: int) -> str:
    """A home at a glance: the sanity bar, then one line per set with its running score."""
    home = view.homes[seat]
    lines = [f"{sanity_bar(view.tokens[seat], view.players)} · {cats(len(home))}"]
    groups = home_groups(home, view.copy_as, hints=not view.over)
    lines += [f"{text} → **{points}**" for text, points in groups]
    if not groups:
        lines.append("🏚️ No cats" if view.over else "🏚️ No cats yet")
    return "\n".join(lines)


def recall_pick_line(card: str) -> str:
    """How a Recall pick set aside (a secret until both are chosen) is shown to its chooser."""
    return f"↩️ {card_text(card)} — {RECALL_TAG}"


def gain(view: View, seat: int, card: str) -> int:
    """How many points adopting `card` adds to `seat`'s home right now."""
    home = view.homes[seat]
    return quick_score((*home, card), view.copy_as) - quick_score(home, view.copy_as)


# ---- the renderer ---------------------------------------------------------------------------------------


class CatSanityTexts(Texts):
    hand_label = "My home"
    emoji = "😼"
    more_label = "Other homes"
    more_emoji = "🏠"

    def table_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        fields = []
        if not view.over:
            fields.append(self._alley(view))
        if view.auction is not None:
            fields.append(self._auction(view, names))
        if view.recall_adopter is not None:
            fields.append(self._recall(view, names))
        seats = range(view.players)
        if view.over:
            seats = sorted(seats, key=lambda seat: -view.scores[seat])
        fields += [(self._home_title(view, seat, names), home_text(view, seat)) for seat in seats]
        return fields

    def compact_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """The alley by name only and one line per home; when the game is over the final scores
        say it all, and each home's sets are behind the Details button."""
        if view.over:
            return []
        title, _ = self._alley(view)
        alley = [f"{MOON_MARK if card in MOON else SUN_MARK} {card_text(card)}" for card in view.alley]
        if sum(card in MOON for card in view.alley) == 2:
            alley.append("⚠️ One more Moon Cat: **CatSanity!**")
        fields = [(title, "\n".join(alley) or "Empty — it refills at the start of a turn.")]
        if view.auction is not None:
            fields.append(self._auction(view, names))
        if view.recall_adopter is not None:
            fields.append(self._recall(view, names))
        homes = [self._home_line(view, seat, names) for seat in range(view.players)]
        fields.append(("🏠 Homes", "\n".join(homes)))
        return fields

    def _home_line(self, view: View, seat: int, names: Sequence[str]) -> str:
        """One home in a line: "▶ **Ann** · 3 pts · 🧠 4/6 · 2 cats"."""
        mark = "▶ " if seat in view.to_act else ""
        tokens = view.tokens[seat]
        sanity = f"{SANITY} {tokens}/{TOKENS_BY_PLAYERS[view.players]}" if tokens else "😵 insane"
        score = view.scores[seat]
        points = f"{score} pt{'s' if score != 1 else ''}"
        return f"{mark}**{names[seat]}** · {points} · {sanity} · {cats(len(view.homes[seat]))}"

    def private_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """Your recall pick and your home, then what the decision is about: the alley to adopt from, the
        auction (its Sun Cats' scoring and what each bidder holds) or the Recall; the other homes are
        `more_fields`."""
        seat = view.seat
        assert seat is not None
        fields = []
        if view.my_recall_pick:
            fields.append(("Your recall pick", "\n".join(recall_pick_line(c) for c in view.my_recall_pick)))
        fields.append((f"Your home — {view.scores[seat]} pts", home_text(view, seat)))
        if view.auction is not None:
            fields.append(self._auction(view, names, bidding=True))
        elif view.phase == Phase.TURN and not view.over:
            fields.append(self._alley(view))
        if view.recall_adopter is not None:
            fields.append(self._recall(view, names))
        return fields

    def more_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """Every other home in full (sanity, sets and running scores) and the alley."""
        seat = view.seat
        others = [other for other in range(view.players) if other != seat]
        fields = [(self._home_title(view, other, names), home_text(view, other)) for other in others]
        return fields + ([] if view.over else [self._alley(view)])

    def prompt(self, view: View, names: Sequence[str]) -> str:
        text = super().prompt(view, names)
        if view.phase == Phase.RECALL and view.seat is None:
            text += f" — privately, with 🃏 **{self.hand_label}**"
        return text

    # ---- fields ----

    def _alley(self, view: View) -> tuple[str, str]:
        title = f"🌃 The alley · 🂠 {view.deck_size} card{'s' if view.deck_size != 1 else ''} in the deck"
        lines = [alley_line(card) for card in view.alley] or ["Empty — it refills at the start of a turn."]
        moons = sum(card in MOON for card in view.alley)
        if moons == 2:
            lines.append("⚠️ Two Moon Cats: a third one in the alley means **CatSanity!** (everyone −1 🧠)")
        return title, "\n".join(lines)

    def _home_title(self, view: View, seat: int, names: Sequence[str]) -> str:
        if view.over:
            best = max(view.scores)
            mark = "🏆 " if view.scores[seat] == best else ""
        else:
            mark = "▶ " if seat in view.to_act else ""
        return f"{mark}{names[seat]} — {view.scores[seat]} pts"

    def _auction(self, view: View, names: Sequence[str], bidding: bool = False) -> tuple[str, str]:
        """The auction: what is for sale, the high bid and who bids in turn; `bidding` (a bidder's panel)
        gives each Sun Cat's scoring and the sanity each bidder still to bid holds."""
        auction = view.auction
        assert auction is not None
        suns = [card_text(card) for card in view.alley if card in SUN]
        if auction.high_seat is None:
            standing = "No bid yet — the lowest winning bid is 1."
        else:
            standing = f"Highest bid: **{auction.high}** {SANITY} by **{names[auction.high_seat]}**"
        order = [f"{names[bid.seat]} {bid.amount or 'pass'}" for bid in auction.bids]
        for index, seat in enumerate(auction.waiting):
            mark = "▶ " if index == 0 else ""
            caller = " (caller)" if seat == auction.caller else ""
            holds = f" {SANITY}{view.tokens[seat]}" if bidding else ""
            order.append(f"{mark}{names[seat]}{caller}{holds} …")
        lines = [f"For: {', '.join(suns)}"]
        if bidding:
            lines = [alley_line(card) for card in view.alley if card in SUN]
        lines += [standing, "Bids: " + " · ".join(order)]
        return f"🔨 Mine! Mine! Mine! — {names[auction.caller]}'s auction", "\n".join(lines)

    def _recall(self, view: View, names: Sequence[str]) -> tuple[str, str]:
        adopter = view.recall_adopter
        assert adopter is not None
        order = [(adopter + k) % view.players for k in range(1, view.players)]
        waiting = view.recall_waiting
        lines = ["Each opponent returns 2 cats of their choice to the deck; then it is reshuffled."]
        for seat in order:
            if seat not in waiting:
                lines.append(f"✅ {names[seat]} has returned their cats")
            elif seat == waiting[0]:
                lines.append(f"▶ {names[seat]} is choosing privately")
            else:
                lines.append(f"⏳ {names[seat]} chooses next")
        return f"🕊️ Born free! {names[adopter]}'s Recall Cat", "\n".join(lines)

    # ---- labels and controls ----

    def label(self, rules: Rules, state: State, seat: int, action: CatSanityAction) -> str:
        """A button label; seats appear as {pN} placeholders like in prompts."""
        if isinstance(action, Adopt):
            card = action.card
            cost = " (−1 sanity)" if card in MOON else ""
            return f"{KIND_EMOJI[KIND[card]]} Adopt {KIND_NAMES[KIND[card]]}{cost}"
        if isinstance(action, CallAuction):
            suns = sum(card in SUN for card in state.alley)
            return f"🔨 Mine! Mine! Mine! (auction {suns} Sun Cat{'s' if suns > 1 else ''})"
        if isinstance(action, PlaceBid):
            if not action.amount:
                return "Pass"
            return f"Bid {action.amount} sanity token{'s' if action.amount > 1 else ''}"
        if isinstance(action, Declare):
            return f"{KIND_EMOJI[action.kind]} Copy Cat is a {name_of_kind(action.kind)} Cat"
        if isinstance(action, NinjaTarget):
            return f"🥷 Banzai! Attack {{p{action.target}}}"
        return f"{KIND_EMOJI[action.kind]} Return a {KIND_NAMES[action.kind]}"

    def controls(self, view: View, choices: Sequence[Choice]) -> list[Control] | None:
        """Adopt buttons, the auction's bid row and select, the Copy Cat's two selects, the Ninja's
        target select and the Recall pick select, offering what the view's choices mark playable;
        None (the default) if a legal action would be missed."""
        labels = {choice.value: choice for choice in choices}
        if not labels or view.seat is None:
            return None
        build = {
            Phase.TURN: self._turn_controls,
            Phase.AUCTION: self._auction_controls,
            Phase.COPY: self._copy_controls,
            Phase.NINJA: self._ninja_controls,
            Phase.RECALL: self._recall_controls,
        }.get(view.phase)
        if build is None:
            return None
        playable = [decode(choice.action) for choice in view.choices if choice.playable]
        controls = [control for control in build(view, playable, labels) if control.choices]
        offered = {choice.value for control in controls for choice in control.choices}
        if not set(labels) <= offered:
            return None
        return controls

    def confirmation(self, view: View, encoded: str) -> str | None:
        """Mine! Mine! Mine! sits beside the adopt buttons and gives up the turn's adoption."""
        if encoded != "auction":
            return None
        suns = sum(card in SUN for card in view.alley)
        cats = "the Sun Cat" if suns == 1 else f"the {suns} Sun Cats"
        return f"Auction {cats} instead of adopting? Your turn ends with the auction."

    def compose(self, view: View, key: str, values: Sequence[str]) -> str:
        """The Copy Cat's Twin letter: a one-choice "multi" select, so that its custom_id differs from the
        type select's in the same message. The letter must be one of the view's Twin declarations; one the
        engine refuses is refused with the engine's reason."""
        if key != TWIN_KEY or len(values) != 1:
            raise InvalidInput(_ONE_TWIN_LETTER)
        if view.phase != Phase.COPY:
            raise OutOfDate("The table has moved on — here is the current position.")
        if view.seat not in view.to_act:
            raise NotYourTurn("It's not your turn to decide anything right now.")
        twins = {
            choice.action: choice for choice in view.choices if _is_twin_declaration(decode(choice.action))
        }
        chosen = twins.get(values[0])
        if chosen is None:
            raise InvalidInput(_ONE_TWIN_LETTER)
        if not chosen.playable:
            raise IllegalAction(chosen.why_not)
        return chosen.action

    def _turn_controls(
        self, view: View, playable: list[CatSanityAction], labels: dict[str, Choice]
    ) -> list[Control]:
        seat = view.seat
        adopt = []
        for action in playable:
            if not isinstance(action, Adopt):
                continue
            card = action.card
            kind = KIND[card]
            if card in MOON:
                effect = MOON_BUTTON.get(kind) or f"+{gain(view, seat, card)}"
                label = f"{KIND_EMOJI[kind]} Adopt {KIND_NAMES[kind]} (−1 {SANITY} · {effect})"
            else:
                label = f"{KIND_EMOJI[kind]} Adopt {KIND_NAMES[kind]} ({self._sun_gain(view, seat, card)})"
            adopt.append(Choice(action.encode(), label))
        controls = [Control("buttons", tuple(adopt), style="primary")]
        for action in playable:
            if isinstance(action, CallAuction):
                suns = sum(card in SUN for card in view.alley)
                label = f"🔨 Mine! Mine! Mine! — auction the {suns} Sun Cat{'s' if suns > 1 else ''}"
                controls.append(Control("buttons", (Choice(action.encode(), label),), style="danger"))
        return controls

    @staticmethod
    def _sun_gain(view: View, seat: int, card: str) -> str:
        points = gain(view, seat, card)
        if KIND[card] == "chorus" and not points:
            have = Counter(KIND[c] for c in view.homes[seat])["chorus"] + (view.copy_as == "chorus")
            return f"Chorus {have + 1}/{CHORUS_MIN}"
        return f"+{points}"

    def _auction_controls(
        self, view: View, playable: list[CatSanityAction], labels: dict[str, Choice]
    ) -> list[Control]:
        """Quick raises of up to 3 over the high bid, a select of every playable bid, and Pass."""
        auction = view.auction
        assert auction is not None and view.seat is not None
        tokens = view.tokens[view.seat]
        bids = [action for action in playable if isinstance(action, PlaceBid)]
        raises = [bid for bid in bids if bid.amount]
        quick = [
            Choice(bid.encode(), f"+{bid.amount - auction.high} → bid {bid.amount} {SANITY}")
            for bid in raises
            if bid.amount - auction.high <= QUICK_RAISES
        ]
        custom = tuple(
            Choice(
                bid.encode(),
                f"Bid {bid.amount} {SANITY}",
                (
                    "opening bid"
                    if auction.high_seat is None
                    else f"+{bid.amount - auction.high} over the high bid"
                )
                + f" · you keep {tokens - bid.amount} {SANITY}",
            )
            for bid in raises
        )
        passes = tuple(Choice(bid.encode(), "🙅 Pass") for bid in bids if not bid.amount)
        return [
            Control("buttons", tuple(quick), style="success"),
            Control("select", custom, placeholder=f"Custom bid… (up to your {tokens} {SANITY})"),
            Control("buttons", passes),
        ]

    def _copy_controls(
        self, view: View, playable: list[CatSanityAction], labels: dict[str, Choice]
    ) -> list[Control]:
        seat = view.seat
        home = view.homes[seat]
        have = Counter(KIND[card] for card in home)
        before = quick_score(home, None)
        declarations = [action for action in playable if isinstance(action, Declare)]

        def option(action: Declare, label: str) -> Choice:
            points = quick_score(home, action.kind) - before
            owned = f" · you have {have[action.kind]}" if have[action.kind] else ""
            return Choice(action.encode(), label, f"+{points} pts now{owned}")

        plain = tuple(
            option(action, kind_text(action.kind))
            for action in declarations
            if not _is_twin_declaration(action)
        )
        twins = tuple(
            option(action, f"👯 Twin {action.kind[4:]}")
            for action in declarations
            if _is_twin_declaration(action)
        )
        return [
            Control("select", plain, placeholder="🪞 The Copy Cat becomes a House, Chorus or Fibonacci Cat…"),
            Control("multi", twins, placeholder="🪞 …or a Twin Cat: choose its letter", key=TWIN_KEY),
        ]

    def _ninja_controls(
        self, view: View, playable: list[CatSanityAction], labels: dict[str, Choice]
    ) -> list[Control]:
        options = []
        targets = [action for action in playable if isinstance(action, NinjaTarget)]
        for action in sorted(targets, key=lambda target: (target.target - view.turn) % view.players):
            suns = Counter(KIND_EMOJI[KIND[card]] for card in view.homes[action.target] if card in SUN)
            if suns:
                count = sum(suns.values())
                summary = " ".join(f"{emoji}×{suns[emoji]}" for emoji in _SUN_EMOJI if suns[emoji])
                text = f"{count} Sun Cat{'s' if count > 1 else ''}: {summary} — one taken at random"
            else:
                text = "No Sun Cats — the attack would find nothing"
            value = action.encode()
            options.append(Choice(value, labels[value].label, text[:100]))
        return [Control("select", tuple(options), placeholder="🥷 Banzai! Whose home does the Ninja raid?")]

    def _recall_controls(
        self, view: View, playable: list[CatSanityAction], labels: dict[str, Choice]
    ) -> list[Control]:
        """One option per kind the engine lets the seat return, with what returning one would cost."""
        seat = view.seat
        picked = list(view.my_recall_pick)
        home = list(view.homes[seat])
        for card in picked:
            home.remove(card)
        now = quick_score(tuple(home), view.copy_as)
        have = Counter(KIND[card] for card in home)
        options = []
        for action in playable:
            if not isinstance(action, ReturnCat):
                continue
            kind = action.kind
            rest = list(home)
            rest.remove(next(card for card in reversed(home) if KIND[card] == kind))
            loss = now - quick_score(tuple(rest), view.copy_as)
            options.append(
                Choice(
                    action.encode(),
                    kind_text(kind),
                    f"You have {have[kind]} · returning one costs {loss} pts",
                )
            )
        which = "2nd" if picked else "1st"
        return [Control("select", tuple(options), placeholder=f"🕊️ Choose the {which} of 2 cats to return…")]


TWIN_KEY = "twin"
QUICK_RAISES = 3
"""How far over the high bid the one-click raise buttons go."""
_ONE_TWIN_LETTER = "Choose one Twin letter for the Copy Cat."


def _is_twin_declaration(action: CatSanityAction) -> bool:
    return isinstance(action, Declare) and action.kind.startswith("twin")


TEXTS = CatSanityTexts()
