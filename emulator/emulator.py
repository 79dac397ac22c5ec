"""The public face of the emulator: start it, point discord.py at it, run a bot, drive members."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord_door
from emulator import guilds, harness
from emulator.control import Control
from emulator.entities import permission_value
from emulator.gateway import shard_of
from emulator.guilds import Guild
from emulator.harness import WAIT, RemoteState
from emulator.model import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    Channel,
    StoredMessage,
    Violation,
    VirtualClock,
    World,
)
from emulator.ratelimits import DISCORD, RateLimits
from emulator.ratelimits import NONE as NO_LIMITS
from emulator.server import Forced429, Server
from emulator.users import Invoker, SimulatedMember

TOKEN = "emulator-token"


class EmulatorFailure(AssertionError):
    """Discord rules were broken, the bot crashed, logged an error, or used an unemulated endpoint."""


@dataclass(frozen=True)
class MemberSpec:
    """A member to create: a name and (optionally) the permissions of a role they get."""

    name: str
    permissions: Any = None


@dataclass(frozen=True)
class Timing:
    interaction_id: int
    label: str
    seconds: float | None  # dispatch -> initial response; None: never answered


class Emulator:
    """A local Discord (one guild) served on 127.0.0.1, plus the simulated members' API.

    ``rate_limits`` are Discord's by default (:data:`emulator.ratelimits.DISCORD`); None turns them all
    off, and ``rate_limit`` sets the bucket of the routes without a figure of their own.
    """

    def __init__(
        self,
        *,
        guild_name: str = "Catnip Test",
        channels: Iterable[str] = ("games",),
        members: Iterable[str | MemberSpec] = (),
        bot_name: str = "Catnip",
        token: str = TOKEN,
        clock: VirtualClock | None = None,
        heartbeat_interval: float = 41.25,
        rate_limits: RateLimits | None = DISCORD,
        rate_limit: tuple[int, float] | None = None,
        response_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        edit_window: float | None = 60 * 60.0,
        bot_permissions: Any = BOT_PERMISSIONS,
        everyone_permissions: Any = EVERYONE_PERMISSIONS,
        strict: bool = True,
        watch_loggers: Iterable[str] = ("discord",),
        max_guilds_per_session: int = 2500,
        guilds_per_shard: int = 1000,
        max_concurrency: int = 1,
        identify_window: float | None = None,
        lost_tokens: float = 0.0,
    ) -> None:
        """`lost_tokens`: the share of interaction-token webhook requests answered 404 although the
        token is valid (`emulator.lost_tokens.LostTokens`)."""
        self.world = World(
            guild_name=guild_name,
            channels=channels,
            bot_name=bot_name,
            bot_permissions=permission_value(bot_permissions),
            everyone_permissions=permission_value(everyone_permissions),
            clock=clock,
            response_deadline=response_deadline,
            token_lifetime=token_lifetime,
            edit_window=edit_window,
        )
        for spec in members:
            spec = MemberSpec(spec) if isinstance(spec, str) else spec
            self.world.add_member(spec.name, permission_value(spec.permissions))
        self.world.lost_tokens.rate = lost_tokens
        self.token = token
        self.strict = strict
        limits = rate_limits or NO_LIMITS
        if rate_limit is not None:
            limits = dataclasses.replace(limits, other=rate_limit)
        self.server = Server(
            self.world,
            token=token,
            heartbeat_interval=heartbeat_interval,
            rate_limits=limits,
            max_guilds_per_session=max_guilds_per_session,
            guilds_per_shard=guilds_per_shard,
            max_concurrency=max_concurrency,
            identify_window=identify_window,
        )
        self.invoker = Invoker(self.world, self.check_bots)
        Control(self).install(self.server.app)
        self.errors = harness.ErrorLog(tuple(watch_loggers))
        self.bots: list[tuple[Any, asyncio.Task[None]]] = []
        self.busy: list[Callable[[], bool]] = []
        """Tell `settle` a bot is still working off the wire (e.g. drawing in a thread): it waits while
        any of these returns True."""
        self.remote_bots: list[Callable[[], Awaitable[RemoteState | None]]] = []
        """Ask a bot in another process what `settle` reads off a bot run here (None: it is not
        running): then `settle` waits for it as for a local bot, not for quiet time."""
        self._log_guard: contextlib.ExitStack | None = None

    # lifecycle --------------------------------------------------------------------------------------

    @classmethod
    @contextlib.asynccontextmanager
    async def start(cls, *, port: int = 0, **options: Any) -> AsyncIterator[Emulator]:
        """Runs an emulator for the ``async with`` block; on exit stops bots and fails on broken rules."""
        emulator = cls(**options)
        await emulator.open(port)
        failed = False
        try:
            yield emulator
        except BaseException:
            failed = True
            raise
        finally:
            await emulator.close()
            if emulator.strict and not failed:
                emulator.check()

    async def open(self, port: int = 0) -> None:
        await self.server.start(port)
        self._log_guard = contextlib.ExitStack()
        self._log_guard.enter_context(self.errors.installed())

    async def close(self) -> None:
        for bot, task in self.bots:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(bot.close(), 2)
            if not task.done():
                task.cancel()
            with contextlib.suppress(BaseException):
                await task
        for watcher in list(self.invoker.watchers):
            watcher.cancel()
        await self.server.stop()
        if self._log_guard is not None:
            self._log_guard.close()
            self._log_guard = None

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return f"{self.server.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return self.server.gateway.url

    # discord.py -------------------------------------------------------------------------------------

    def point_discord_py(self) -> contextlib.AbstractContextManager[None]:
        """Points discord.py here and refuses non-loopback connections until the block ends."""
        return harness.point_discord_py(self.api_base, self.gateway_url)

    async def run_bot(self, bot: Any, *, timeout: float = WAIT) -> asyncio.Task[None]:
        """Starts ``bot.start(token)``; returns its task once READY and the guild is available. A bot
        with a ``busy()`` method (Catnip's) is waited for by `settle` while it says it is at work."""

        def ready() -> bool:
            if not bot.is_ready():
                return False
            count = getattr(bot, "shard_count", None) or 1
            if shard_of(self.world.guild_id, count) not in (getattr(bot, "shard_ids", None) or range(count)):
                return True  # a sharded bot that does not run the first guild's shard
            guild = bot.get_guild(self.world.guild_id)
            return guild is not None and not guild.unavailable

        task = await harness.start_bot(bot, self.token, is_ready=ready, timeout=timeout)
        self.bots.append((bot, task))
        if callable(busy := getattr(bot, "busy", None)) and busy not in self.busy:
            self.busy.append(busy)
        self.check_bots()
        return task

    async def stop_bot(self, bot: Any, *, clean: bool = True) -> None:
        """Stops a bot: ``bot.close()``, or without ``clean`` a crash (task cancelled, sockets cut)."""
        entry = next((e for e in self.bots if e[0] is bot), None)
        if entry is None:  # already stopped
            return
        self.bots.remove(entry)
        task = entry[1]
        if clean:
            await bot.close()
        else:
            keep_alives = discord_door.heartbeat_threads(bot)
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            for keep_alive in keep_alives:
                keep_alive.stop()  # a dead process's heartbeat threads die with it
            await bot.http.close()
            await self.server.gateway.drop(abort=True)
        with contextlib.suppress(BaseException):
            await task

    def check_bots(self) -> None:
        """Raises BotCrashed if a bot task died, EmulatorFailure if discord.py logged an error."""
        for _, task in self.bots:
            harness.raise_if_dead(task)
        if self.errors.records:
            lines = self.errors.describe()
            self.errors.records.clear()
            raise EmulatorFailure("discord.py logged errors:\n  " + "\n  ".join(lines))

    def check(self) -> None:
        """Raises EmulatorFailure listing broken rules, logged errors and unemulated endpoints."""
        self.check_bots()
        problems = [str(v) for v in self.world.violations]
        problems += [f"[unsupported] the emulator has no route for {r}" for r in self.server.unsupported]
        if problems:
            raise EmulatorFailure("Discord rules broken:\n  " + "\n  ".join(problems))

    # members, channels, messages --------------------------------------------------------------------

    def member(self, name: str) -> SimulatedMember:
        return SimulatedMember(self.world, self.invoker, self.world.member_named(name))

    def add_member(self, name: str, permissions: Any = None) -> SimulatedMember:
        """Adds a member (with a role granting ``permissions``) and tells the bot (GUILD_MEMBER_ADD)."""
        user = self.world.add_member(name, permission_value(permissions))
        for role_id in user.role_ids:
            role = self.world.roles[role_id]
            self.world.dispatch(
                "GUILD_ROLE_CREATE", {"guild_id": str(self.world.guild_id), "role": role.payload()}
            )
        self.world.dispatch(
            "GUILD_MEMBER_ADD", {**self.world.member_payload(user), "guild_id": str(self.world.guild_id)}
        )
        return self.member(name)

    def add_guild(
        self, name: str, *, channels: Iterable[str] = ("games",), members: Iterable[str | MemberSpec] = ()
    ) -> Guild:
        """Another guild the bot is in, with its own channels and members (a bot already connected
        hears of it with GUILD_CREATE). Its members are driven with :meth:`member` like any other."""
        guild = guilds.add_guild(self.world, name, channels)
        for spec in members:
            spec = MemberSpec(spec) if isinstance(spec, str) else spec
            self.world.add_member(spec.name, permission_value(spec.permissions), guild_id=guild.id)
        self.world.dispatch("GUILD_CREATE", self.world.guild_payload(guild.id))
        return guild

    def guild_channel(self, guild: Guild, name: str) -> Channel:
        """The channel `name` of `guild`."""
        return next(c for c in self.world.channels.values() if c.guild_id == guild.id and c.name == name)

    def dm_channel(self, member: SimulatedMember) -> Channel:
        """The direct-message channel between the bot and ``member``."""
        return guilds.dm_channel(self.world, member.user)

    @property
    def members(self) -> list[SimulatedMember]:
        users = [u for u in self.world.members.values() if not u.bot and u.id != self.world.owner.id]
        return [SimulatedMember(self.world, self.invoker, u) for u in users]

    def channel(self, name: str) -> Channel:
        """A channel or thread by name."""
        return self.world.channel_named(name)

    def threads(self, parent: Channel | str | None = None) -> list[Channel]:
        threads = [c for c in self.world.channels.values() if c.is_thread]
        if parent is not None:
            parent_id = (parent if isinstance(parent, Channel) else self.channel(parent)).id
            threads = [t for t in threads if t.parent_id == parent_id]
        return sorted(threads, key=lambda t: t.id)

    def public_messages(self, channel: Channel | str) -> list[StoredMessage]:
        """What everyone sees in a channel or thread, oldest first."""
        target = channel if isinstance(channel, Channel) else self.channel(channel)
        return self.world.channel_messages(target.id)

    def message(self, message_id: int) -> StoredMessage:
        return self.world.messages[message_id]

    def on_message(self, callback: Callable[[str, StoredMessage], None]) -> None:
        """Calls ``callback(kind, message)`` on every "create", "update" and "delete"."""
        self.world.listeners.append(callback)

    def delete_message(self, message: StoredMessage) -> None:
        """A moderator deletes a message (the bot gets MESSAGE_DELETE)."""
        self.server.rest.remove_message(message)

    def delete_channel(self, channel: Channel) -> None:
        """A moderator deletes a channel or thread with its messages (CHANNEL_DELETE / THREAD_DELETE)."""
        del self.world.channels[channel.id]
        for message in self.world.by_channel.get(channel.id, []):
            message.deleted = True
        data = {"id": str(channel.id), "guild_id": str(self.world.guild_id), "type": channel.type}
        if channel.is_thread:
            self.world.dispatch("THREAD_DELETE", {**data, "parent_id": str(channel.parent_id)})
        else:
            self.world.dispatch("CHANNEL_DELETE", self.world.channel_payload(channel))

    def archive_thread(self, thread: Channel | str, *, locked: bool = False) -> None:
        """A moderator archives (and with `locked` locks) a thread (THREAD_UPDATE); idle threads archive
        by themselves as the clock moves (`World.archive_idle_threads`)."""
        target = thread if isinstance(thread, Channel) else self.channel(thread)
        self.world.set_archived(target, True, locked=locked)

    def deny_bot(self, channel: Channel | str, permissions: Any) -> None:
        """A channel overwrite denies the bot ``permissions`` there and in its threads (CHANNEL_UPDATE)."""
        target = channel if isinstance(channel, Channel) else self.channel(channel)
        if target.is_thread:
            raise ValueError("threads take their permissions from their parent channel")
        denied = self.world.bot_denied
        denied[target.id] = denied.get(target.id, 0) | permission_value(permissions)
        self.world.dispatch("CHANNEL_UPDATE", self.world.channel_payload(target))

    @property
    def commands(self) -> dict[str, Any]:
        return {c.name: c for c in self.world.commands.values()}

    # rules, timings, time ---------------------------------------------------------------------------

    @property
    def violations(self) -> list[Violation]:
        return self.world.violations

    def take_violations(self) -> list[Violation]:
        """Returns and forgets the violations recorded so far (for tests that provoke them)."""
        taken = list(self.world.violations)
        self.world.violations.clear()
        return taken

    def interaction_timings(self) -> list[Timing]:
        return [Timing(i.id, i.label, i.latency) for i in self.world.interactions.values()]

    @property
    def clock(self) -> VirtualClock:
        return self.world.clock

    def advance(self, seconds: float) -> None:
        """Moves the emulator's clock forward (deadlines, token lifetime, message age, idle threads)."""
        self.world.clock.advance(seconds)
        self.world.archive_idle_threads()

    async def settle(self, idle: float = 0.1, timeout: float = WAIT) -> None:
        """Waits until the bots are done with everything they were told: no request in flight, no
        interaction unanswered, every gateway event received and its listeners done by the bots run
        here (`run_bot`) or asked in other processes (`remote_bots`), and none of the `busy`
        callbacks says a bot is still at work on its own.

        A bot in another process that cannot be asked cannot be seen into: while one of its sessions
        is connected (or a local bot's session is not yet READY), ``idle`` s of quiet are waited for as
        well, and for every dry rate-limit bucket to refill (discord.py holds requests back until
        then)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        server = self.server
        while True:
            self.check_bots()
            remote = [state for state in await asyncio.gather(*(ask() for ask in self.remote_bots)) if state]
            unseen, unread = self._gateway_backlog(remote)
            # A bot run here that holds a request back until a dry bucket refills is busy (the request
            # waits in its task); one elsewhere may be holding one (its wait ends a little later).
            quiet = not unseen or (
                loop.time() - server.last_activity >= idle
                and server.limiter.waiting_until() + max(idle, 0.02) <= self.world.now()
            )
            busy = server.in_flight or self.invoker.pending or unread or discord_door.handling_events()
            busy = busy or any(state.busy for state in remote)
            if not busy and quiet and not any(working() for working in self.busy):
                return
            if loop.time() > deadline:
                raise TimeoutError(f"the bot did not settle within {timeout:g} s")
            await asyncio.sleep(0.01 if remote else 0.002)  # asking another process is a round trip

    def _gateway_backlog(self, remote: list[RemoteState]) -> tuple[bool, bool]:
        """Whether a connected session belongs to no bot run here or asked (or is not READY yet), and
        whether an event sent is still on its way to one of those (queued, or not yet read)."""
        received: dict[str, int] = {}
        for bot, _ in self.bots:
            received.update(discord_door.events_received(bot))
        for state in remote:
            received.update(state.received)
        unseen = unread = False
        for session in self.server.gateway.sessions.values():
            connection = session.connection
            if connection is None or connection not in self.server.gateway.connections:
                continue
            if session.id not in received:
                unseen = True
            elif session.seq > received[session.id] or not connection.queue.empty():
                unread = True
        return unseen, unread

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = WAIT) -> Any:
        """Waits until ``predicate()`` returns something truthy, and returns it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self.check_bots()
            value = predicate()
            if value:
                return value
            if loop.time() > deadline:
                raise TimeoutError(f"condition not met within {timeout:g} s")
            await asyncio.sleep(0.01)

    # failure injection ------------------------------------------------------------------------------

    def force_429(
        self,
        route: str | None = None,
        *,
        count: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
        scope: str | None = None,
    ) -> None:
        """The next ``count`` bot requests whose "METHOD /path" contains ``route`` get a 429 (of
        ``scope`` user, global or shared; default global if ``is_global``, else user)."""
        scope = scope or ("global" if is_global else "user")
        self.server.force_429(Forced429(route, count, retry_after, scope))

    # Discord's budget -------------------------------------------------------------------------------

    @property
    def requests_counted(self) -> int:
        """The bot's requests bound by its global limit so far (refused ones included)."""
        return self.server.usage.counted[self.token]

    @property
    def requests_exempt(self) -> int:
        """The bot's requests to the routes Discord exempts from the global limit (:mod:`emulator.usage`)."""
        return self.server.usage.exempt[self.token]

    def invalid_requests(self) -> int:
        """Invalid requests (401, 403, 429 but those of scope shared) of the last 10 minutes."""
        return self.server.usage.invalid_in_window(self.world.now())

    @property
    def banned(self) -> bool:
        """Whether the bot's address is banned (over 10,000 invalid requests in 10 minutes)."""
        return self.server.usage.banned("127.0.0.1", self.world.now())

    @property
    def rate_limited(self) -> list[str]:
        """The route ("METHOD /template") of every 429 the emulator answered, in order."""
        return self.server.rate_limited

    @property
    def buckets_run_dry(self) -> list[str]:
        """The route of every request that took the last slot of its bucket: after it discord.py holds
        that route back until the bucket refills (a bot within its limits never gets here)."""
        return self.server.limiter.ran_dry

    async def drop_gateway(self, code: int = 4000, *, abort: bool = False) -> int:
        """Closes the bot's gateway connections (it resumes); returns how many were closed."""
        return await self.server.gateway.drop(code, abort=abort)

    async def request_reconnect(self) -> None:
        await self.server.gateway.request_reconnect()

    def reroute_guild(self, guild_id: int, shard_id: int | None) -> None:
        """From now on the events of `guild_id` reach the sessions of shard `shard_id` instead of its own
        shard's (None: its own again) — as a process that no longer runs a guild may still be handed
        its interactions while shards move between processes."""
        if shard_id is None:
            self.server.gateway.rerouted.pop(guild_id, None)
        else:
            self.server.gateway.rerouted[guild_id] = shard_id

    def invalidate_sessions(self) -> None:
        """Forgets gateway sessions, so the next RESUME is refused and the bot must IDENTIFY again."""
        self.server.gateway.invalidate_sessions()
