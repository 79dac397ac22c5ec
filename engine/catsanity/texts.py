"""CatSanity at the table: the alley, every home grouped by set with running scores, sanity bars, the
auction and the Recall, and controls for every decision (adopt, bid, Copy Cat, Ninja, Recall picks)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.catsanity._cards import (
    COPY,
    KIND,
    KIND_EMOJI,
    KING,
    MOON,
    PRECIOUS,
    QUEEN,
    SUN,
    TOKENS_BY_PLAYERS,
    TWIN_LETTERS,
    kind_name,
)
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
from engine.catsanity.view import seat_mark
from engine.core import IllegalAction, InvalidInput, NotYourTurn, OutOfDate, Rules
from engine.texts import Choice, Control, Texts
from lang import N_, _, n_, p_

SANITY = "🧠"
SUN_MARK, MOON_MARK = "☀️", "🌙"
"""What marks a Sun Cat and a Moon Cat, in the text and (as a sun and a crescent) in the picture."""
ZERO_MOONS = ("ninja", "recall", "cthulhu")


def sun_hint(kind: str) -> str:
    """How a Sun Cat of `kind` ("twin" for every Twin) scores, in a few words."""
    if kind == "house":
        return _("{points} pts each", points=HOUSE_POINTS)
    if kind == "twin":
        return _(
            "{one} alone · {two} a pair · {three} with a Copy Cat",
            one=TWIN_SET[1],
            two=TWIN_SET[2],
            three=TWIN_SET[3],
        )
    if kind == "chorus":
        return _("0 until {count}, then {points}", count=CHORUS_MIN, points=CHORUS_POINTS)
    return " · ".join(str(points) for points in FIBONACCI[1:])


def moon_effect(kind: str) -> str:
    """What a Moon Cat of `kind` does, for the alley's line."""
    if kind == COPY:
        return _("copies any Sun Cat you name")
    if kind == "ninja":
        return _("steals a random Sun Cat from an opponent's home")
    if kind == "recall":
        return _("every opponent returns 2 cats to the deck")
    if kind == "cthulhu":
        return _("opponents lose 1 {sanity}, 2 if their home is bigger", sanity=SANITY)
    if kind == PRECIOUS:
        return _(
            "{points} pts, but −1 {sanity} at the start of each of your turns",
            points=PRECIOUS_POINTS,
            sanity=SANITY,
        )
    return _("2 pts + 2 per other Moon Cat")


def moon_button(kind: str) -> str | None:
    """What a Moon Cat of `kind` does, short enough for its adopt button; None for the royals (their
    button says the points they would bring)."""
    if kind == COPY:
        return _("copies a Sun Cat")
    if kind == "ninja":
        return _("steal a Sun Cat")
    if kind == "recall":
        return _("opponents return 2")
    if kind == "cthulhu":
        return _("opponents −1/−2 {sanity}", sanity=SANITY)
    if kind == PRECIOUS:
        return _("+{points}, then −1 {sanity} a turn", points=PRECIOUS_POINTS, sanity=SANITY)
    return None


# ---- cards and homes as text ----------------------------------------------------------------------------


def card_text(card: str) -> str:
    """A card with its emoji: "👯 Twin A Cat"."""
    kind = KIND[card]
    return f"{KIND_EMOJI[kind]} {kind_name(kind)}"


def kind_text(kind: str) -> str:
    return f"{KIND_EMOJI[kind]} {kind_name(kind)}"


def alley_line(card: str) -> str:
    """An alley card with what it does: Sun Cats their scoring, Moon Cats their cost and effect."""
    kind = KIND[card]
    if card in MOON:
        return f"{MOON_MARK} {card_text(card)} · −1 {SANITY} — {moon_effect(kind)}"
    return f"{SUN_MARK} {card_text(card)} — {sun_hint('twin' if kind.startswith('twin') else kind)}"


def sanity_bar(tokens: int, players: int) -> str:
    """Sanity tokens as a bar: "🧠 ●●●●○○○ 4/7", or insane."""
    full = TOKENS_BY_PLAYERS[players]
    if tokens == 0:
        return _("😵 insane (0/{full} {sanity})", full=full, sanity=SANITY)
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
        return total + (_(" incl. {mirror}", mirror=mirror) if copied == kind else "")

    groups: list[tuple[str, int]] = []
    if counts["house"]:
        groups.append(
            (KIND_EMOJI["house"] + " " + _("House") + amount("house"), HOUSE_POINTS * counts["house"])
        )
    twins = [letter for letter in TWIN_LETTERS if counts[f"twin{letter}"]]
    if twins:
        parts = []
        for letter in twins:
            kind = f"twin{letter}"
            cards = letter * kinds[kind] + (mirror if copied == kind else "")
            parts.append(f"{cards} {TWIN_SET[counts[kind]]}")
        total = sum(TWIN_SET[counts[f"twin{letter}"]] for letter in twins)
        groups.append((KIND_EMOJI["twinA"] + " " + _("Twins") + " " + " · ".join(parts), total))
    if counts["chorus"]:
        n = counts["chorus"]
        need = ""
        if hints and n < CHORUS_MIN:
            need = _(" ({count}/{most} for {points})", count=n, most=CHORUS_MIN, points=CHORUS_POINTS)
        points = CHORUS_POINTS if n >= CHORUS_MIN else 0
        groups.append((KIND_EMOJI["chorus"] + " " + _("Chorus") + amount("chorus") + need, points))
    if counts["fib"]:
        n = counts["fib"]
        following = (
            _(" (next: {points})", points=FIBONACCI[n + 1]) if hints and n + 1 < len(FIBONACCI) else ""
        )
        groups.append((f"{KIND_EMOJI['fib']} Fibonacci{amount('fib')}{following}", FIBONACCI[n]))
    if kinds[COPY] and not copied:
        groups.append((mirror + " " + _("Copy Cat (not declared)"), 0))
    if kinds[PRECIOUS]:
        groups.append((kind_text(PRECIOUS), PRECIOUS_POINTS))
    moons = sum(n for kind, n in kinds.items() if kind not in _SUN_KINDS)
    for royal in (KING, QUEEN):
        if kinds[royal]:
            others = moons - 1
            groups.append(
                (_("{cat} (2 + 2×{others} Moon)", cat=kind_text(royal), others=others), 2 + 2 * others)
            )
    zero = [
        f"{KIND_EMOJI[kind]} {_short_moon(kind)}" + (f" ×{kinds[kind]}" if kinds[kind] > 1 else "")
        for kind in ZERO_MOONS
        if kinds[kind]
    ]
    if zero:
        groups.append((" · ".join(zero), 0))
    return groups


def _short_moon(kind: str) -> str:
    """A Moon Cat that scores nothing, in a word: "Ninja", "Recall", "Cat" (of Cthulhu)."""
    if kind == "ninja":
        return _("Ninja")
    if kind == "recall":
        return _("Recall")
    return p_("the Cat of Cthulhu, in one word", "Cat")


_SUN_KINDS = frozenset(KIND[card] for card in SUN)
_SUN_EMOJI = tuple(KIND_EMOJI[kind] for kind in ("house", "twinA", "chorus", "fib"))


def cats(count: int) -> str:
    return n_("{count} cat", "{count} cats", count)


def home_text(view: View, seat: int) -> str:
    """A home at a glance: the sanity bar, then one line per set with its running score."""
    home = view.homes[seat]
    lines = [f"{sanity_bar(view.tokens[seat], view.players)} · {cats(len(home))}"]
    groups = home_groups(home, view.copy_as, hints=not view.over)
    lines += [f"{text} → **{points}**" for text, points in groups]
    if not groups:
        lines.append(_("🏚️ No cats") if view.over else _("🏚️ No cats yet"))
    return "\n".join(lines)


def recall_pick_line(card: str) -> str:
    """How a Recall pick set aside (a secret until both are chosen) is shown to its chooser."""
    return _("↩️ {cat} — set aside, goes back to the deck", cat=card_text(card))


def gain(view: View, seat: int, card: str) -> int:
    """How many points adopting `card` adds to `seat`'s home right now."""
    home = view.homes[seat]
    return quick_score((*home, card), view.copy_as) - quick_score(home, view.copy_as)


# ---- the renderer ---------------------------------------------------------------------------------------


class CatSanityTexts(Texts):
    emoji = "😼"
    more_emoji = "🏠"

    @property
    def hand_label(self) -> str:  # type: ignore[override]
        return _("My home")

    @property
    def more_label(self) -> str:  # type: ignore[override]
        return _("Other homes")

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
        title = self._alley(view)[0]
        alley = [f"{MOON_MARK if card in MOON else SUN_MARK} {card_text(card)}" for card in view.alley]
        if sum(card in MOON for card in view.alley) == 2:
            alley.append(_("⚠️ One more Moon Cat: **CatSanity!**"))
        fields = [(title, "\n".join(alley) or _("Empty — it refills at the start of a turn."))]
        if view.auction is not None:
            fields.append(self._auction(view, names))
        if view.recall_adopter is not None:
            fields.append(self._recall(view, names))
        homes = [self._home_line(view, seat, names) for seat in range(view.players)]
        fields.append((_("🏠 Homes"), "\n".join(homes)))
        return fields

    def _home_line(self, view: View, seat: int, names: Sequence[str]) -> str:
        """One home in a line: "▶ **Ann** · 3 pts · 🧠 4/6 · 2 cats"."""
        mark = "▶ " if seat in view.to_act else ""
        tokens = view.tokens[seat]
        sanity = f"{SANITY} {tokens}/{TOKENS_BY_PLAYERS[view.players]}" if tokens else _("😵 insane")
        points = n_("{count} pt", "{count} pts", view.scores[seat])
        return f"{mark}**{names[seat]}** · {points} · {sanity} · {cats(len(view.homes[seat]))}"

    def private_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """Your recall pick and your home, then what the decision is about: the alley to adopt from, the
        auction (its Sun Cats' scoring and what each bidder holds) or the Recall; the other homes are
        `more_fields`."""
        seat = view.seat
        assert seat is not None
        fields = []
        if view.my_recall_pick:
            picks = "\n".join(recall_pick_line(c) for c in view.my_recall_pick)
            fields.append((_("Your recall pick"), picks))
        fields.append((_("Your home — {points} pts", points=view.scores[seat]), home_text(view, seat)))
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
            text += _(" — privately, with 🃏 **{button}**", button=self.hand_label)
        return text

    # ---- fields ----

    def _alley(self, view: View) -> tuple[str, str]:
        title = n_(
            "🌃 The alley · 🂠 {count} card in the deck",
            "🌃 The alley · 🂠 {count} cards in the deck",
            view.deck_size,
        )
        lines = [alley_line(card) for card in view.alley] or [_("Empty — it refills at the start of a turn.")]
        moons = sum(card in MOON for card in view.alley)
        if moons == 2:
            lines.append(_("⚠️ Two Moon Cats: a third one in the alley means **CatSanity!** (everyone −1 🧠)"))
        return title, "\n".join(lines)

    def _home_title(self, view: View, seat: int, names: Sequence[str]) -> str:
        if view.over:
            best = max(view.scores)
            mark = "🏆 " if view.scores[seat] == best else ""
        else:
            mark = "▶ " if seat in view.to_act else ""
        return mark + _("{player} — {points} pts", player=names[seat], points=view.scores[seat])

    def _auction(self, view: View, names: Sequence[str], bidding: bool = False) -> tuple[str, str]:
        """The auction: what is for sale, the high bid and who bids in turn; `bidding` (a bidder's panel)
        gives each Sun Cat's scoring and the sanity each bidder still to bid holds."""
        auction = view.auction
        assert auction is not None
        suns = [card_text(card) for card in view.alley if card in SUN]
        if auction.high_seat is None:
            standing = _("No bid yet — the lowest winning bid is 1.")
        else:
            standing = _(
                "Highest bid: **{high}** {sanity} by **{player}**",
                high=auction.high,
                sanity=SANITY,
                player=names[auction.high_seat],
            )
        passed = p_("a bid of nothing in an auction", "pass")
        order = [f"{names[bid.seat]} {bid.amount or passed}" for bid in auction.bids]
        for index, seat in enumerate(auction.waiting):
            mark = "▶ " if index == 0 else ""
            caller = _(" (caller)") if seat == auction.caller else ""
            holds = f" {SANITY}{view.tokens[seat]}" if bidding else ""
            order.append(f"{mark}{names[seat]}{caller}{holds} …")
        lines = [_("For: {cats}", cats=", ".join(suns))]
        if bidding:
            lines = [alley_line(card) for card in view.alley if card in SUN]
        lines += [standing, _("Bids: {bids}", bids=" · ".join(order))]
        title = _("🔨 Mine! Mine! Mine! — {player}'s auction", player=names[auction.caller])
        return title, "\n".join(lines)

    def _recall(self, view: View, names: Sequence[str]) -> tuple[str, str]:
        adopter = view.recall_adopter
        assert adopter is not None
        order = [(adopter + k) % view.players for k in range(1, view.players)]
        waiting = view.recall_waiting
        lines = [_("Each opponent returns 2 cats of their choice to the deck; then it is reshuffled.")]
        for seat in order:
            if seat not in waiting:
                lines.append(_("✅ {player} has returned their cats", player=names[seat]))
            elif seat == waiting[0]:
                lines.append(_("▶ {player} is choosing privately", player=names[seat]))
            else:
                lines.append(_("⏳ {player} chooses next", player=names[seat]))
        return _("🕊️ Born free! {player}'s Recall Cat", player=names[adopter]), "\n".join(lines)

    # ---- labels and controls ----

    def label(self, rules: Rules, state: State, seat: int, action: CatSanityAction) -> str:
        """A button label; seats appear as {pN} placeholders like in prompts."""
        if isinstance(action, Adopt):
            card = action.card
            kind = KIND[card]
            if card in MOON:
                return _("{emoji} Adopt {cat} (−1 sanity)", emoji=KIND_EMOJI[kind], cat=kind_name(kind))
            return _("{emoji} Adopt {cat}", emoji=KIND_EMOJI[kind], cat=kind_name(kind))
        if isinstance(action, CallAuction):
            suns = sum(card in SUN for card in state.alley)
            return n_(
                "🔨 Mine! Mine! Mine! (auction {count} Sun Cat)",
                "🔨 Mine! Mine! Mine! (auction {count} Sun Cats)",
                suns,
            )
        if isinstance(action, PlaceBid):
            if not action.amount:
                return p_("a button that passes in an auction", "Pass")
            return n_("Bid {count} sanity token", "Bid {count} sanity tokens", action.amount)
        if isinstance(action, Declare):
            return _("{emoji} Copy Cat is a {cat}", emoji=KIND_EMOJI[action.kind], cat=kind_name(action.kind))
        if isinstance(action, NinjaTarget):
            return _("🥷 Banzai! Attack {player}", player=seat_mark(action.target))
        return _("{emoji} Return a {cat}", emoji=KIND_EMOJI[action.kind], cat=kind_name(action.kind))

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
        return n_(
            "Auction the Sun Cat instead of adopting? Your turn ends with the auction.",
            "Auction the {count} Sun Cats instead of adopting? Your turn ends with the auction.",
            suns,
        )

    def compose(self, view: View, key: str, values: Sequence[str]) -> str:
        """The Copy Cat's Twin letter: a one-choice "multi" select, so that its custom_id differs from the
        type select's in the same message. The letter must be one of the view's Twin declarations; one the
        engine refuses is refused with the engine's reason."""
        if key != TWIN_KEY or len(values) != 1:
            raise InvalidInput(_(_ONE_TWIN_LETTER))
        if view.phase != Phase.COPY:
            raise OutOfDate(_("The table has moved on — here is the current position."))
        if view.seat not in view.to_act:
            raise NotYourTurn(_("It's not your turn to decide anything right now."))
        twins = {
            choice.action: choice for choice in view.choices if _is_twin_declaration(decode(choice.action))
        }
        chosen = twins.get(values[0])
        if chosen is None:
            raise InvalidInput(_(_ONE_TWIN_LETTER))
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
                effect = moon_button(kind) or f"+{gain(view, seat, card)}"
                label = _(
                    "{emoji} Adopt {cat} (−1 {sanity} · {effect})",
                    emoji=KIND_EMOJI[kind],
                    cat=kind_name(kind),
                    sanity=SANITY,
                    effect=effect,
                )
            else:
                label = _(
                    "{emoji} Adopt {cat} ({gain})",
                    emoji=KIND_EMOJI[kind],
                    cat=kind_name(kind),
                    gain=self._sun_gain(view, seat, card),
                )
            adopt.append(Choice(action.encode(), label))
        controls = [Control("buttons", tuple(adopt), style="primary")]
        for action in playable:
            if isinstance(action, CallAuction):
                suns = sum(card in SUN for card in view.alley)
                label = n_(
                    "🔨 Mine! Mine! Mine! — auction the {count} Sun Cat",
                    "🔨 Mine! Mine! Mine! — auction the {count} Sun Cats",
                    suns,
                )
                controls.append(Control("buttons", (Choice(action.encode(), label),), style="danger"))
        return controls

    @staticmethod
    def _sun_gain(view: View, seat: int, card: str) -> str:
        points = gain(view, seat, card)
        if KIND[card] == "chorus" and not points:
            have = Counter(KIND[c] for c in view.homes[seat])["chorus"] + (view.copy_as == "chorus")
            return _("Chorus {count}/{most}", count=have + 1, most=CHORUS_MIN)
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
            Choice(
                bid.encode(),
                _(
                    "+{more} → bid {amount} {sanity}",
                    more=bid.amount - auction.high,
                    amount=bid.amount,
                    sanity=SANITY,
                ),
            )
            for bid in raises
            if bid.amount - auction.high <= QUICK_RAISES
        ]
        custom = tuple(
            Choice(
                bid.encode(),
                _("Bid {amount} {sanity}", amount=bid.amount, sanity=SANITY),
                (
                    _("opening bid")
                    if auction.high_seat is None
                    else _("+{more} over the high bid", more=bid.amount - auction.high)
                )
                + _(" · you keep {left} {sanity}", left=tokens - bid.amount, sanity=SANITY),
            )
            for bid in raises
        )
        passes = tuple(Choice(bid.encode(), _("🙅 Pass")) for bid in bids if not bid.amount)
        return [
            Control("buttons", tuple(quick), style="success"),
            Control(
                "select",
                custom,
                placeholder=_("Custom bid… (up to your {count} {sanity})", count=tokens, sanity=SANITY),
            ),
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
            owned = _(" · you have {count}", count=have[action.kind]) if have[action.kind] else ""
            return Choice(action.encode(), label, _("+{points} pts now", points=points) + owned)

        plain = tuple(
            option(action, kind_text(action.kind))
            for action in declarations
            if not _is_twin_declaration(action)
        )
        twins = tuple(
            option(action, _("👯 Twin {letter}", letter=action.kind[4:]))
            for action in declarations
            if _is_twin_declaration(action)
        )
        return [
            Control(
                "select", plain, placeholder=_("🪞 The Copy Cat becomes a House, Chorus or Fibonacci Cat…")
            ),
            Control("multi", twins, placeholder=_("🪞 …or a Twin Cat: choose its letter"), key=TWIN_KEY),
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
                text = n_(
                    "{count} Sun Cat: {summary} — one taken at random",
                    "{count} Sun Cats: {summary} — one taken at random",
                    count,
                    summary=summary,
                )
            else:
                text = _("No Sun Cats — the attack would find nothing")
            value = action.encode()
            options.append(Choice(value, labels[value].label, text[:100]))
        return [
            Control("select", tuple(options), placeholder=_("🥷 Banzai! Whose home does the Ninja raid?"))
        ]

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
                    _("You have {count} · returning one costs {loss} pts", count=have[kind], loss=loss),
                )
            )
        placeholder = (
            _("🕊️ Choose the 2nd of 2 cats to return…")
            if picked
            else _("🕊️ Choose the 1st of 2 cats to return…")
        )
        return [Control("select", tuple(options), placeholder=placeholder)]


TWIN_KEY = "twin"
QUICK_RAISES = 3
"""How far over the high bid the one-click raise buttons go."""
_ONE_TWIN_LETTER = N_("Choose one Twin letter for the Copy Cat.")


def _is_twin_declaration(action: CatSanityAction) -> bool:
    return isinstance(action, Declare) and action.kind.startswith("twin")


TEXTS = CatSanityTexts()
