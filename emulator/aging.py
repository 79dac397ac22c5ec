"""Rules of what ages on Discord: a message over an hour old, a thread left idle until it archived.

Each function says why a bot request is refused (None: it may go on); :class:`emulator.rest.Rest`
answers the refusal and records it as a violation.
"""

from __future__ import annotations

from emulator.model import Channel, StoredMessage, World


def edit_refusal(world: World, message: StoredMessage) -> str | None:
    """Edits of a message over an hour old are capped: Discord documents error 30046 "Maximum number
    of edits to messages older than 1 hour reached" (discord/discord-api-docs#4381) without the cap's
    size, and answers it as an HTTP 429 (aikaterna/aikaterna-cogs#302), an invalid request. The
    strictest reading of an unpublished cap is a cap of none: every such edit is refused, recorded as
    a violation and counted toward the ban (`emulator.rest.COUNTS_AS_INVALID`). It is answered with
    status 400 rather than 429 so that discord.py does not retry it five times."""
    window = world.edit_window
    age = world.now() - message.created_at
    if window is None or age <= window:
        return None
    return f"message {message.id} is {age / 60:.0f} min old; edits are refused after {window / 60:.0f}"


def thread_refusal(world: World, channel: Channel, *, sending: bool) -> str | None:
    """The rules of archived threads (topics/threads; resources/channel#thread-metadata-object) for the
    bot's requests there:

    - a message sent to an archived thread unarchives it ("sending a message will unarchive the
      thread"; the emulator's THREAD_UPDATE says so) unless it is locked: "when a thread is locked,
      only users with MANAGE_THREADS can unarchive it", which a message does not do — the strict
      reading refuses it (400, 50083);
    - anything else there (editing or deleting a message) is refused while it is archived (400, 50083
      "Thread is archived"), recorded as a violation: the bot hears of the archiving (THREAD_UPDATE)
      and should post anew instead.

    A locked thread that is not archived takes messages only from those with MANAGE_THREADS
    (`emulator.rest.Rest.check_thread_open`)."""
    if not channel.is_thread or not channel.archived:
        return None
    if sending and not channel.locked:
        world.set_archived(channel, False)
        return None
    return f"thread {channel.name} is {'locked and archived' if channel.locked else 'archived'}"
