"""The emulated Gateway: HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE, RESUME, dispatches."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from emulator.model import World

_log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION = (
    0,
    1,
    2,
    3,
    4,
    6,
    7,
    8,
    9,
)
HELLO, HEARTBEAT_ACK = 10, 11
ACK_ROUND_TRIP = 0.1
"""Seconds between a heartbeat and its ACK: Discord answers over the network (gateway docs, "Sending
Heartbeats": the ACK follows the heartbeat), never within the same instant. discord.py notes when it
sent a heartbeat only once the send is done, on its heartbeat thread; an ACK that comes back first is
timed from the heartbeat before, an interval ago ("websocket is 41.3s behind")."""

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
MESSAGE_CONTENT = 1 << 15
_EVENT_INTENTS = {
    "MESSAGE_CREATE": GUILD_MESSAGES,
    "MESSAGE_UPDATE": GUILD_MESSAGES,
    "MESSAGE_DELETE": GUILD_MESSAGES,
    "THREAD_CREATE": GUILDS,
    "GUILD_MEMBER_ADD": GUILD_MEMBERS,
    "THREAD_UPDATE": GUILDS,
}
_BUFFER = 5000  # events kept per session for RESUME
_GUILD_EVENTS = {"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"}  # events whose "id" is the guild's
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
SESSION_LIMIT_TOTAL = 1000
SESSION_LIMIT_RESET_MS = 24 * 3600 * 1000


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; direct messages go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event is about, or None (a direct message)."""
    raw = data.get("id") if event in _GUILD_EVENTS else data.get("guild_id")
    return None if raw is None else int(raw)


@dataclass
class Connection:
    ws: web.WebSocketResponse
    request: web.Request
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    session: Session | None = None


@dataclass
class Session:
    id: str
    intents: int
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=_BUFFER))
    connection: Connection | None = None
    identifies: int = 0
    resumes: int = 0
    shard: tuple[int, int] = (0, 1)

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of `guild_id` (None: a direct message)."""
        shard_id, shard_count = self.shard
        return shard_of(guild_id, shard_count) == shard_id


class Gateway:
    """Sessions of the bot's gateway connections, and the dispatch of events to them."""

    def __init__(
        self,
        world: World,
        *,
        token: str,
        heartbeat_interval: float = 41.25,
        max_guilds_per_session: int = 2500,
        guilds_per_shard: int = 1000,
        max_concurrency: int = 1,
        identify_window: float | None = None,
    ) -> None:
        """`max_guilds_per_session`: more guilds on one session closes it with 4011 (sharding required);
        `guilds_per_shard`: the guilds per shard `GET /gateway/bot` recommends; `max_concurrency`: the
        identify buckets it announces; `identify_window`: when set, two IDENTIFYs of one bucket
        (shard id % max_concurrency) closer than this many seconds are recorded as a broken rule
        (Discord's window is 5 s; tests use a shorter one)."""
        self.world = world
        self.token = token
        self.heartbeat_interval = heartbeat_interval
        self.max_guilds_per_session = max_guilds_per_session
        self.guilds_per_shard = guilds_per_shard
        self.max_concurrency = max_concurrency
        self.identify_window = identify_window
        self._identified_at: dict[int, float] = {}  # identify bucket -> loop time of its last IDENTIFY
        self.rerouted: dict[int, int] = {}  # guild id -> the shard id its events go to instead of its own
        self.url = ""  # set by the server once it knows its port
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.resumes = 0
        self.ready = asyncio.Event()
        self.connections: list[Connection] = []
        self._writers: set[asyncio.Task[None]] = set()

    # dispatch ---------------------------------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Sends an event to every session of its guild's shard (buffered for RESUME while a session is
        disconnected)."""
        guild_id = event_guild(event, data)
        rerouted = self.rerouted.get(guild_id) if guild_id is not None else None
        for session in self.sessions.values():
            if rerouted is not None and session.shard[0] != rerouted:
                continue
            if rerouted is None and not session.receives(guild_id):
                continue
            needed = _EVENT_INTENTS.get(event, 0)
            if needed and not session.intents & needed:
                continue
            payload = data
            if event.startswith("MESSAGE_") and not session.intents & MESSAGE_CONTENT:
                author = (data.get("author") or {}).get("id")
                if author != str(self.world.bot.id) and "content" in data:
                    payload = {**data, "content": ""}
            self._send_event(session, event, payload)

    def _send_event(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
        session.buffer.append((session.seq, text))
        if session.connection is not None:
            session.connection.queue.put_nowait(text)

    @property
    def connected(self) -> list[Connection]:
        """Live connections that have identified or resumed."""
        return [c for c in self.connections if c.session is not None]

    # control ----------------------------------------------------------------------------------------

    async def drop(self, code: int = 4000, *, abort: bool = False) -> int:
        """Closes every live connection (sessions stay resumable); returns how many were closed."""
        closed = 0
        for connection in list(self.connections):
            if connection not in self.connections:  # its handler ended while an earlier one closed
                continue
            self.connections.remove(connection)
            if connection.session is not None and connection.session.connection is connection:
                connection.session.connection = None
            connection.queue.put_nowait(None)
            if abort and connection.request.transport is not None:
                connection.request.transport.abort()
            else:
                await connection.ws.close(code=code, message=b"emulator dropped the connection")
            closed += 1
        return closed

    async def request_reconnect(self) -> None:
        """Sends op 7 RECONNECT to every live connection (the client resumes)."""
        for connection in self.connected:
            connection.queue.put_nowait(json.dumps({"op": RECONNECT, "d": None}))

    def invalidate_sessions(self) -> None:
        """Forgets every session: the next RESUME gets INVALID_SESSION and the client re-IDENTIFYs."""
        self.sessions.clear()

    async def close(self) -> None:
        await self.drop(code=1001)
        for task in list(self._writers):
            task.cancel()

    # the websocket ----------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        connection = Connection(ws, request)
        self.connections.append(connection)
        writer = asyncio.create_task(self._writer(connection))
        self._writers.add(writer)
        writer.add_done_callback(self._writers.discard)
        session: Session | None = None
        hello = {"op": HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}}
        connection.queue.put_nowait(json.dumps(hello))
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op, data = payload.get("op"), payload.get("d")
                if op == HEARTBEAT:
                    ack = json.dumps({"op": HEARTBEAT_ACK})
                    asyncio.get_running_loop().call_later(ACK_ROUND_TRIP, connection.queue.put_nowait, ack)
                elif op == IDENTIFY:
                    if data.get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    refusal = self._shard_refusal(data.get("shard"))
                    if refusal is not None:
                        await ws.close(code=refusal[0], message=refusal[1].encode())
                        break
                    session = connection.session = self._identify(connection, data)
                elif op == RESUME:
                    session = connection.session = self._resume(connection, data)
                elif op == REQUEST_MEMBERS:
                    self._send_members(connection, session, data)
        finally:
            if session is not None and session.connection is connection:
                session.connection = None
                if ws.close_code in (1000, 1001):  # a clean close ends the session (no RESUME)
                    self.sessions.pop(session.id, None)
            if connection in self.connections:
                self.connections.remove(connection)
            connection.queue.put_nowait(None)
        return ws

    async def _writer(self, connection: Connection) -> None:
        while True:
            text = await connection.queue.get()
            if text is None or connection.ws.closed:
                return
            try:
                await connection.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    # sharding ---------------------------------------------------------------------------------------

    def bot_gateway(self) -> dict[str, Any]:
        """`GET /gateway/bot`: the URL, the recommended shard count and the session start limit."""
        shards = max(1, math.ceil(len(self.world.guilds) / self.guilds_per_shard))
        used = min(self.identifies, SESSION_LIMIT_TOTAL)
        limit = {
            "total": SESSION_LIMIT_TOTAL,
            "remaining": SESSION_LIMIT_TOTAL - used,
            "reset_after": SESSION_LIMIT_RESET_MS if used else 0,
            "max_concurrency": self.max_concurrency,
        }
        return {"url": self.url, "shards": shards, "session_start_limit": limit}

    def _shard_refusal(self, shard: Any) -> tuple[int, str] | None:
        """The close code and reason for an IDENTIFY's `shard` Discord would refuse, or None."""
        if shard is None:
            shard = [0, 1]
        valid = (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
            and 0 <= shard[0] < shard[1]
        )
        if not valid:
            return INVALID_SHARD, "Invalid shard."
        guilds = sum(1 for guild_id in self.world.guilds if shard_of(guild_id, shard[1]) == shard[0])
        if guilds > self.max_guilds_per_session:
            return SHARDING_REQUIRED, "Sharding required."
        return None

    def _check_identify_rate(self, shard_id: int) -> None:
        if self.identify_window is None:
            return
        bucket = shard_id % self.max_concurrency
        now = asyncio.get_running_loop().time()
        last = self._identified_at.get(bucket)
        self._identified_at[bucket] = now
        if last is not None and now - last < self.identify_window:
            self.world.violate(
                "gateway.identify_concurrency",
                f"shard {shard_id} identified {now - last:.3f} s after another shard of its bucket "
                f"{bucket} (max_concurrency {self.max_concurrency}: one IDENTIFY per bucket every "
                f"{self.identify_window:g} s)",
                "IDENTIFY",
            )

    def _identify(self, connection: Connection, data: dict[str, Any]) -> Session:
        session = Session(secrets.token_hex(16), int(data.get("intents", 0) or 0))
        if "shard" in data:
            session.shard = (data["shard"][0], data["shard"][1])
        self._check_identify_rate(session.shard[0])
        session.connection = connection
        self.sessions[session.id] = session
        self.identifies += 1
        world = self.world
        mine = [guild_id for guild_id in world.guilds if session.receives(guild_id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**world.bot.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"},
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in mine],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(world.bot.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        self._send_event(session, "READY", ready)
        for guild_id in mine:
            guild = world.guild_payload(guild_id, all_members=bool(session.intents & GUILD_MEMBERS))
            self._send_event(session, "GUILD_CREATE", guild)
        self.ready.set()
        return session

    def _resume(self, connection: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        after = int(data.get("seq") or 0)
        if session is not None and session.buffer and session.buffer[0][0] > after + 1:
            session = None  # the events it missed are no longer buffered
        if session is None or data.get("token") != self.token:
            connection.queue.put_nowait(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        if session.connection is not None:
            session.connection.queue.put_nowait(None)
        session.connection = connection
        self.resumes += 1
        for seq, text in session.buffer:
            if seq > after:
                connection.queue.put_nowait(text)
        self._send_event(session, "RESUMED", {})
        return session

    def _send_members(self, connection: Connection, session: Session | None, data: dict[str, Any]) -> None:
        if session is None:
            return
        world = self.world
        guild = world.guilds.get(int(data.get("guild_id") or world.guild_id)) or world.guilds[world.guild_id]
        members = [world.members[i] for i in guild.member_ids]
        wanted = data.get("user_ids")
        if wanted:
            ids = {int(u) for u in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m.id in ids]
        elif data.get("query"):
            members = [m for m in members if m.name.lower().startswith(str(data["query"]).lower())]
        chunk = {
            "guild_id": str(guild.id),
            "members": [world.member_payload(m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        self._send_event(session, "GUILD_MEMBERS_CHUNK", chunk)
