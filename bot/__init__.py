"""Catnip's bot: start-up, configuration, storage and the game sessions.

The package imports nothing itself: `python -m bot` imports it before it knows its command, and
`catnip fleet`, `catnip backup-db`, `catnip migrate-db` and a start refused for its settings or its
database need none of the bot (discord.py, the games, the cogs). `CatnipBot` and `create_bot` are in
bot/app.py.
"""
