"""A slash command as a member types it: the command found by its path, and each option's value
converted and checked as Discord does before the bot is sent the interaction."""

from __future__ import annotations

from typing import Any

from emulator.model import Channel, User, World


class InvalidInvocation(Exception):
    """Raised when a member tries something Discord's client would not let them do."""


def _find_command(world: World, path: str) -> tuple[Any, list[str]]:
    name, *subpath = path.strip().lstrip("/").split()
    for guild_id in (world.guild_id, None):
        for command in world.commands.values():
            if command.name == name and command.type == 1 and command.guild_id == guild_id:
                return command, subpath
    known = sorted({c.name for c in world.commands.values()})
    raise InvalidInvocation(f"no slash command /{name} is registered (known: {known})")


def _convert(world: World, option: dict[str, Any], value: Any, resolved: dict[str, Any]) -> Any:
    kind, name = option["type"], option["name"]
    choices = option.get("choices")
    if choices:
        by_name = {c["name"]: c["value"] for c in choices}
        values = [c["value"] for c in choices]
        value = by_name.get(value, value) if value not in values else value
        if value not in values:
            raise InvalidInvocation(f"option {name}: {value!r} is not one of the choices {values}")
    if kind == 3:
        value = str(value)
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise InvalidInvocation(f"option {name}: length must be {low}-{high}")
        return value
    if kind in (4, 10):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (kind == 4 and not isinstance(value, int))
        ):
            raise InvalidInvocation(
                f"option {name}: {value!r} is not a {'whole ' if kind == 4 else ''}number"
            )
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise InvalidInvocation(f"option {name}: {value} is outside {low}..{high}")
        return value
    if kind == 5:
        if not isinstance(value, bool):
            raise InvalidInvocation(f"option {name}: {value!r} is not true/false")
        return value
    if kind in (6, 9) and not (kind == 9 and _role(world, value)):
        user = _user(world, value)
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        resolved.setdefault("members", {})[str(user.id)] = {
            **world.member_payload(user, with_user=False),
            "permissions": str(world.permissions_of(user)),
        }
        return str(user.id)
    if kind in (8, 9):
        role = _role(world, value)
        if role is None:
            raise InvalidInvocation(f"option {name}: no role {value!r}")
        resolved.setdefault("roles", {})[str(role.id)] = role.payload()
        return str(role.id)
    if kind == 7:
        channel = value if isinstance(value, Channel) else channel_named(world, value)
        allowed = option.get("channel_types")
        if allowed and channel.type not in allowed:
            raise InvalidInvocation(f"option {name}: channel {channel.name} has a type not in {allowed}")
        resolved.setdefault("channels", {})[str(channel.id)] = world.channel_payload(
            channel, permissions_for=world.bot
        )
        return str(channel.id)
    raise InvalidInvocation(f"option {name}: option type {kind} is not supported by the emulator")


def _user(world: World, value: Any) -> User:
    """The user a member option names: a simulated member (its `user`), a user, an id or a name."""
    if isinstance(getattr(value, "user", None), User):
        return value.user
    if isinstance(value, User):
        return value
    if isinstance(value, int) and value in world.members:
        return world.members[value]
    return world.member_named(str(value))


def _role(world: World, value: Any) -> Any:
    for role in world.roles.values():
        if value in (role.id, role.name, str(role.id)):
            return role
    return None


def channel_named(world: World, value: Any) -> Channel:
    if isinstance(value, int) and value in world.channels:
        return world.channels[value]
    return world.channel_named(str(value))


def command_data(world: World, path: str, given: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """The ``data`` of a CHAT_INPUT interaction for ``/path`` with typed, checked options."""
    command, subpath = _find_command(world, path)
    declared = command.options
    top: list[dict[str, Any]] = []
    where = top
    for part in subpath:
        sub = next((o for o in declared if o["name"] == part and o["type"] in (1, 2)), None)
        if sub is None:
            raise InvalidInvocation(f"/{command.name} has no subcommand {part!r}")
        node: dict[str, Any] = {"name": part, "type": sub["type"], "options": []}
        where.append(node)
        where = node["options"]
        declared = sub.get("options", [])
    if any(o["type"] in (1, 2) for o in declared):
        names = [o["name"] for o in declared]
        raise InvalidInvocation(f"/{path} needs a subcommand: one of {names}")
    resolved: dict[str, Any] = {}
    unknown = set(given) - {o["name"] for o in declared}
    if unknown:
        raise InvalidInvocation(f"/{path} has no option(s) {sorted(unknown)}")
    for option in declared:
        if option["name"] in given:
            value = _convert(world, option, given[option["name"]], resolved)
            where.append({"name": option["name"], "type": option["type"], "value": value})
        elif option.get("required"):
            raise InvalidInvocation(f"/{path} needs option {option['name']!r}")
    data: dict[str, Any] = {"id": str(command.id), "name": command.name, "type": 1, "options": top}
    if resolved:
        data["resolved"] = resolved
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    return data, command
