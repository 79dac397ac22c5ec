"""`/game replay`: a finished game stepped through privately, move by move, over the emulated Discord."""

from __future__ import annotations

from bot.live import LiveGame
from cogs.panel import your_fields
from engine import GAMES, Event, Rng, events_for
from engine.decisions import ME
from tests.e2e.driver import NARRATION, Table, catnip, fields, open_table, start_catnip, table_of
from tests.e2e.test_commands import answer


def secrets_by_step(record, moves, viewer: int | None = None) -> list[dict[int, set[str]]]:
    """Per step, each seat's private items then (from the engine's own views): the lines of its private
    fields that neither the public table nor the move's public narration showed at that moment (a
    card of the same name may be in a hand and on the table at once); with `viewer`, that seat's
    own said to it, as the viewer says them ("Your hand")."""
    rules, texts = GAMES[record.game].rules, GAMES[record.game].texts
    names = [ME if seat.seat == viewer else seat.name for seat in record.seats]
    state = rules.setup(len(record.seats), record.seed, LiveGame(record=record, rules=rules).options())
    found = []
    for move in [None, *moves]:
        if move is not None:
            state, _ = rules.apply(state, move.seat, rules.decode_action(move.action))
        public_view = rules.view(state, None)
        said = [Event.model_validate(data) for data in move.events] if move is not None else []
        public = "\n".join(
            [value for _, value in texts.table_fields(public_view, names)]
            + [event.render(names) for event in events_for(said, None)]
        )
        step = {}
        for seat in range(len(names)):
            own = your_fields(texts.private_fields(rules.view(state, seat), public_view, names))
            lines = {line.strip() for _, value in own for line in value.split("\n")}
            step[seat] = {line for line in lines if len(line) > 2 and line not in public}
        found.append(step)
    return found


def shown(message) -> str:
    """Everything a viewer message shows or carries: its text, its controls' ids and its options."""
    options = [o["label"] for c in message.interactive() for o in c.get("options", [])]
    return "\n".join([fields(message, skip=set()), *message.custom_ids(), *options])


async def finished_game(emu, key="catsdogs", players=3, seed=11):
    thread, members = await open_table(emu, key, players)
    table = Table(emu, thread, members, Rng.seeded(seed))
    while not table.over():
        await table.step()
    return thread, members, table


async def test_a_replay_steps_through_every_move_showing_only_public_information(tmp_path):
    async with catnip(tmp_path, pictures=True) as (emu, bot):
        thread, _, table = await finished_game(emu, players=2)
        record = await bot.store.games.get_game(1)
        moves = await bot.store.games.moves(1)
        secrets = secrets_by_step(record, moves)
        assert any(secrets[step][seat] for step in range(len(moves)) for seat in secrets[step])

        di = emu.member("Di")  # not a player
        opened = await di.slash("game replay", thread, id=1)
        assert opened.ok, opened.failed
        viewer = opened.message
        assert viewer.ephemeral and viewer.visible_to == di.id
        assert "The start" in viewer.text() and f"{len(moves)} moves" in viewer.text()
        for step in range(len(moves) + 1):
            viewer = emu.message(viewer.id)
            text = shown(viewer)
            if step:
                assert f"Move {step} of {len(moves)}" in text
            for seat, items in secrets[step].items():
                for item in items:
                    assert item not in text, f"step {step}: seat {seat}'s {item!r} shows in the replay"
            assert viewer.embeds[0]["image"]["url"] == "attachment://table.png"
            assert [a["filename"] for a in viewer.attachments] == ["table.png"]
            if step < len(moves):
                assert (await di.click(viewer, "Next")).ok

        # the last step is the table as the game left it
        final = table.table().embeds[0]
        for field in final.get("fields", []):
            if field["name"] not in NARRATION:
                assert field["value"] in fields(viewer, skip=set()), field["name"]
        assert "🏆" in viewer.text()


async def test_a_player_sees_their_own_hand_at_each_step_and_no_one_elses(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members, _ = await finished_game(emu, key="ninelives", players=3, seed=5)
        bo = members[1]
        moves = await bot.store.games.moves(1)
        secrets = secrets_by_step(await bot.store.games.get_game(1), moves)
        own = secrets_by_step(await bot.store.games.get_game(1), moves, viewer=1)
        viewer = (await bo.slash("game replay", thread, id=1)).message
        jumps = [o for c in viewer.interactive() for o in c.get("options", [])]
        assert jumps and jumps[0]["label"] == "Round 1"
        later = jumps[-1]
        assert (await bo.select(viewer, "Jump to a round…", [later["value"]])).ok
        step = int(later["value"])
        for _ in range(4):
            text = shown(emu.message(viewer.id))
            assert all(item in text for item in own[step][1]), f"Bo's own hand at step {step}"
            for seat in (0, 2):
                # (an item Bo holds too, e.g. a card of the same name, is Bo's to see)
                leaked = {item for item in secrets[step][seat] - secrets[step][1] if item in text}
                assert not leaked, f"step {step}: seat {seat}'s {leaked} shows to Bo"
            assert (await bo.click(viewer, "Back")).ok
            step -= 1
        assert (await bo.click(viewer, "End")).ok and "🏆" in emu.message(viewer.id).text()
        assert (await bo.click(viewer, "Start")).ok and "The start" in emu.message(viewer.id).text()


async def test_an_old_viewer_keeps_working_after_a_restart_and_bad_requests_are_answered(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members, _ = await finished_game(emu, players=2, seed=3)
        ann = members[0]
        viewer = (await ann.slash("game replay", thread, id=1)).message
        assert "no game #99" in await answer(ann, "game replay", thread, id=99)
        await open_table(emu, "catsdogs", 2)
        assert "only a game played to its end" in await answer(ann, "game replay", thread, id=2)
        await bot.close()
        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            assert (await ann.click(viewer, "Next")).ok
            assert "Move 1 of" in emu.message(viewer.id).text()
            forged = await ann.click(viewer, "cn:rv:1:99999:next", force=True)
            assert "isn't valid any more" in forged.message.text()
            table = table_of(emu, thread)
            before = fields(table, skip=set())
            onto_the_table = await ann.click(table, "cn:rv:1:1:next", force=True)
            assert onto_the_table.message.ephemeral and "replay" not in fields(table_of(emu, thread))
            assert fields(emu.message(table.id), skip=set()) == before
        finally:
            await again.close()
