"""Loading a game's state: from its snapshot, or rebuilt from the action log when the snapshot is unusable."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError

from bot.storage.models import GameRecord
from bot.storage.protocol import GameStore

log = logging.getLogger(__name__)


async def load_state(store: GameStore, game: GameRecord, rules: Any) -> Any:
    """The current State of the started game `game` (`rules` is its engine.core.Rules).

    Reads the snapshot; if it is missing, behind the log or does not validate,
    replays the log from the seed, logs a warning and writes the rebuilt snapshot back.
    """
    state_json, version = await store.load_state_json(game.id)
    if state_json is not None:
        try:
            return rules.State.model_validate_json(state_json)
        except ValidationError as error:
            problem = f"does not validate ({error.error_count()} errors)"
    else:
        problem = "is missing or out of date"
    if game.seed is None:
        raise ValueError(f"game {game.id} has not started: there is no state to load")
    moves = await store.moves(game.id)
    log.warning(
        "game=%d guild=%d: snapshot %s; rebuilding it from %d logged moves",
        game.id,
        game.guild_id,
        problem,
        len(moves),
    )
    state = rules.replay(
        len(game.seats),
        game.seed,
        rules.make_options(game.options),
        [(move.seat, move.action) for move in moves],
    )
    seq = moves[-1].seq if moves else 0
    await store.repair_snapshot(game.id, state_json=state.model_dump_json(), version=version, seq=seq)
    return state
