"""`check_database_url`: before the bot connects to Discord, make sure its PostgreSQL database can be used.

Like preflight.py for the SQLite file: a URL that does not parse, a server that cannot be reached,
a refused login or a database written by a newer Catnip each become one line naming DATABASE_URL
and what to do, never showing the password.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import asyncpg

from bot.storage.factory import without_password
from bot.storage.postgres_schema import newest_known, schema_version
from bot.storage.preflight import DatabaseUnusable

CONNECT_SECONDS = 5.0


def check_database_url(url: str, *, timeout: float = CONNECT_SECONDS) -> None:
    """Raise `DatabaseUnusable` (one line, naming DATABASE_URL) unless the store could open `url`."""
    shown = without_password(url)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (parsing the port is what may fail)
    except ValueError as error:
        raise DatabaseUnusable(f"DATABASE_URL is not a valid URL ({error}): {shown}") from None
    asyncio.run(_check(url, shown, timeout))


async def _check(url: str, shown: str, timeout: float) -> None:
    password = urlsplit(url).password or ""
    try:
        db = await asyncpg.connect(url, timeout=timeout)
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError):
        raise DatabaseUnusable(
            f"DATABASE_URL: the PostgreSQL server refused the user or password of {shown}: fix them."
        ) from None
    except asyncpg.InvalidCatalogNameError:
        raise DatabaseUnusable(
            f"DATABASE_URL: the database of {shown} does not exist: create it (createdb), or fix the URL."
        ) from None
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        text = str(error).replace(password, "***") if password else str(error)
        reason = " ".join(text.split()) or type(error).__name__
        raise DatabaseUnusable(
            f"DATABASE_URL: cannot connect to the PostgreSQL server of {shown} ({reason}): "
            "start the server or fix the URL."
        ) from None
    try:
        newest = await schema_version(db)
    finally:
        await db.close()
    if newest is not None and newest > newest_known():
        raise DatabaseUnusable(
            f"DATABASE_URL: the database {shown} was written by a newer Catnip (schema {newest}, "
            f"this one knows {newest_known()}): upgrade Catnip."
        )
