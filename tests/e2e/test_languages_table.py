"""A French server's games over the emulated Discord, beyond the lobby: the replay viewer, /stats and
/leaderboard, the table's notes on absent members and computers, and a game's end, each in the
language of whoever reads it (the table the server's, a private answer the member's own)."""

from __future__ import annotations

from engine import Rng
from tests.e2e.driver import MEMBERS, Table, catnip, start_catnip, table_of
from tests.e2e.test_absent import live_game, miss_a_decision, settle
from tests.e2e.test_commands import answer
from tests.e2e.test_languages import speaking
from tests.e2e.test_robustness import crash

HANDED = "Confier une place à un joueur ordinateur…"


async def open_french_table(emu, key: str, players: int):
    """`/play` on a French server by French members, joined and started with the lobby's French
    buttons; the thread and the members."""
    speaking(emu, server="fr", **dict.fromkeys(MEMBERS, "fr"))
    members = [emu.member(name) for name in MEMBERS[:players]]
    assert (await (await members[0].slash("play", "games", game=key)).wait_final()) is not None
    thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
    lobby = await emu.wait_for(lambda: table_of(emu, thread))
    for member in members[1:]:
        assert (await member.click(lobby, "Rejoindre")).ok
    await emu.settle()
    assert (await members[0].click(lobby, "Commencer")).ok
    await emu.settle()
    return thread, members


async def finished_french_game(emu, bot, key="catsdogs", players=2, seed=11):
    thread, members = await open_french_table(emu, key, players)
    game, table = live_game(bot), Table(emu, thread, members, Rng.seeded(seed))
    while game.id in bot.service.live:
        await table.step()
    await settle(emu, bot)
    return thread, members, game


def labels(message) -> list[str]:
    return [button.get("label") for button in message.buttons()]


async def test_a_french_member_replays_a_finished_game_in_french_and_an_english_one_in_english(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, (_, bo), game = await finished_french_game(emu, bot)
        moves = len(await bot.store.games.moves(game.id))
        emu.world.member_named("Di").locale = "en-US"

        viewer = (await bo.slash("game replay", thread, id=game.id)).message
        embed = viewer.embeds[0]
        assert embed["title"] == "🐱🐶 Cats & Dogs — relecture", embed["title"]
        assert embed["description"].startswith(f"**Le début** · {moves} coups en tout")
        assert embed["footer"]["text"].startswith(f"Partie #{game.id} · relecture")
        assert labels(viewer) == ["Début", "Précédent", "Suivant", "Fin"]
        jump = viewer.selects()[0]
        assert jump["placeholder"] == "Aller à une manche…"
        assert [o["label"] for o in jump["options"]][:2] == ["Manche 1", "Manche 2"]

        assert (await bo.click(viewer, "Suivant")).ok
        step = emu.message(viewer.id).embeds[0]
        assert step["description"].startswith(f"**Ce coup** · coup 1 sur {moves} · "), step["description"]
        assert step["footer"]["text"] == f"Partie #{game.id} · relecture · vous seul voyez votre main"
        assert (await bo.select(viewer, "Aller à une manche…", [jump["options"][1]["value"]])).ok
        assert (await bo.click(viewer, "Fin")).ok
        assert (await bo.click(viewer, "Début")).ok
        for english in ("The start", "moves in all", "This move", " replay", "Jump to", "only you see"):
            assert english not in emu.message(viewer.id).text(), english

        di = emu.member("Di")  # an English member of the same server: the viewer speaks their language
        english = (await di.slash("game replay", thread, id=game.id)).message
        assert english.embeds[0]["title"] == "🐱🐶 Cats & Dogs replay"
        assert english.embeds[0]["description"].startswith(f"**The start** · {moves} moves in all")
        assert labels(english) == ["Start", "Back", "Next", "End"]
        assert english.selects()[0]["placeholder"] == "Jump to a round…"


async def test_stats_leaderboard_and_replay_refusals_speak_the_member_s_language(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, (ann, bo), game = await finished_french_game(emu, bot, seed=3)
        stats = await answer(ann, "stats", thread)
        assert stats.startswith("Parties de Ann\n**Cats & Dogs** : parties gagnées "), stats
        assert "sur 1" in stats and "1 partie classée (provisoire)" in stats
        board = await answer(bo, "leaderboard", thread, game="catsdogs")
        assert board.startswith("Classement de Cats & Dogs\n"), board
        assert await answer(bo, "leaderboard", thread, game="madcat") == (
            "Classement de Mad Cat Sad Cat\nAucune partie classée pour l'instant."
        )
        di = emu.member("Di")
        assert await answer(di, "stats", thread) == "Parties de Di\nAucune partie terminée pour l'instant."

        await ann.slash("play", "games", game="madcat")  # a lobby: not a game played to its end
        await emu.settle()
        assert await answer(ann, "game replay", thread, id=game.id + 1) == (
            f"La partie #{game.id + 1} est en attente de joueurs : seule une partie jouée jusqu'au bout "
            "peut être revue."
        )


async def test_a_french_table_tells_of_absent_members_and_computers_in_french(tmp_path):
    """G-X8, G-X9 on a French server: the timers' and the computer's notes, the member back, a seat handed
    over, everyone away, and the table closed, all in French; the private answers in each member's."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_french_table(emu, "madcat", 2)
        await settle(emu, bot)
        game = live_game(bot)
        seat = game.to_act()[0]
        absent, other = members[seat], members[1 - seat]
        others = Table(emu, thread, [other], Rng.seeded(4))
        await miss_a_decision(emu, bot, game, seat, others)
        await miss_a_decision(emu, bot, game, seat, others)
        log = (await absent.slash("game log", thread)).message.embeds[0]
        assert log["title"] == f"Table #{game.id} — derniers événements"
        assert f"⏰ {absent.name} a dépassé le temps imparti ; " in log["description"], log["description"]
        assert (
            f"💤 {absent.name} a manqué 2 décisions d'affilée : "
            "un ordinateur joue à sa place jusqu'à son retour." in table_of(emu, thread).text()
        )

        refused = (await other.click(table_of(emu, thread), "Je suis de retour")).message
        assert refused.text() == "Vous jouez déjà votre place : aucun ordinateur ne joue pour vous."
        welcome = (await absent.click(table_of(emu, thread), "Je suis de retour")).message
        assert "👋 Bon retour — vous jouez à nouveau votre place." in welcome.text()
        await settle(emu, bot)
        assert f"👋 {absent.name} est de retour et rejoue." in table_of(emu, thread).text()

        host = next(member for member in members if member.id == game.record.host_id)
        guest = next(m for m in members if m is not host)
        for member in (guest, host):
            picker = (await host.click(table_of(emu, thread), "Remplacer un joueur")).message
            assert (
                picker.content
                == "Quelle place confier à un joueur ordinateur jusqu'au retour de son joueur ?"
            )
            assert (await host.select(picker, HANDED, [str(game.seat_of(member.id))])).ok
            assert emu.message(picker.id).content == (
                f"🤖 Un joueur ordinateur joue désormais pour {member.name} jusqu'à son retour."
            )
            await settle(emu, bot)
        told = (await guest.click(table_of(emu, thread), "Détails")).message.text()
        assert f"🤖 {host.name} a confié la place de {guest.name} à un joueur ordinateur" in told
        assert "Tout le monde est absent maintenant : si personne ne revient d'ici" in told

        emu.advance(bot.settings.abandon_taken_over_minutes * 60 + 5)
        await bot.absence.tick()
        await settle(emu, bot)
        closed = table_of(emu, thread).embeds[0]
        assert closed["title"] == f"Mad Cat Sad Cat — table #{game.id} fermée"
        minutes = f"{bot.settings.abandon_taken_over_minutes:g}"
        assert closed["description"] == (
            f"Tout le monde était absent depuis {minutes} min, la partie a donc été arrêtée. "
            "Elle ne compte pour personne."
        )


async def test_leaving_and_ending_a_french_game_and_a_click_out_of_turn_are_told_in_french(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, (ann, bo, cy) = await open_french_table(emu, "madcat", 3)
        await settle(emu, bot)
        game = live_game(bot)
        roller = next(m for m in (ann, bo, cy) if game.seat_of(m.id) == game.to_act()[0])
        waiting = next(m for m in (ann, bo, cy) if m is not roller)
        roll = next(
            c for c in table_of(emu, thread).interactive() if c.get("custom_id", "").startswith("cn:a:")
        )
        refused = (await waiting.click(table_of(emu, thread), roll["custom_id"])).message
        assert refused.text() == f"Ce n'est pas votre tour — en attente de {roller.name}."

        assert await answer(ann, "game leave", thread) == (
            "Vous avez quitté la partie ; un joueur ordinateur a pris votre place."
        )
        await settle(emu, bot)
        host = next(m for m in (bo, cy) if m.id == game.record.host_id)
        told = (await bo.click(table_of(emu, thread), "Détails")).message.text()
        assert (
            "Ann a quitté la partie ; un joueur ordinateur a pris sa place. "
            f"{host.name} est maintenant l'hôte." in told
        )

        emu.world.member_named(
            host.name
        ).locale = "en-US"  # the host's own answer in English, the table French
        assert await answer(host, "game end", thread) == f"Table #{game.id} was ended."
        await settle(emu, bot)
        closed = table_of(emu, thread).embeds[0]
        assert (closed["title"], closed["description"]) == (
            f"Mad Cat Sad Cat — table #{game.id} fermée",
            "La partie a été arrêtée avant sa fin.",
        )


async def test_a_reason_stored_in_english_before_languages_shows_in_french_when_the_bot_is_back(tmp_path):
    """A game closed as the bot died is marked closed when it starts again, in the table's language,
    even with its reason stored in English (by a Catnip that spoke English only)."""
    async with catnip(tmp_path) as (emu, bot):
        thread, _ = await open_french_table(emu, "catsdogs", 1)
        game = live_game(bot)

        async def dies_first(game, reason):
            pass

        bot.presenter.game_closed = dies_first
        await bot.service.endings.abandon(game, "The game was ended before its finish.")
        await crash(emu, bot)

        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            await emu.wait_for(lambda: table_of(emu, thread).embeds[0]["title"].endswith("fermée"))
            closed = table_of(emu, thread).embeds[0]
            assert (closed["title"], closed["description"]) == (
                f"Cats & Dogs — table #{game.id} fermée",
                "La partie a été arrêtée avant sa fin.",
            )
        finally:
            await again.close()
