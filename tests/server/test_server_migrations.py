"""The migration chain on SQLite and PostgreSQL: from the first revision, one step at a time,
an old game stays readable, and the schema at the newest revision is the one the store's
tables declare (Alembic's own comparison finds no difference)."""

from __future__ import annotations

import asyncio
import datetime
import itertools
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text

from ludoteca.server.store import MIGRATIONS, Base, Store

#: when the old game was played
OLD = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _revisions() -> list[str]:
    """Every revision, oldest first, read from the scripts (not listed by hand)."""
    script = ScriptDirectory.from_config(_config())
    return [revision.revision for revision in reversed(list(script.walk_revisions()))]


def test_the_revisions_form_one_chain() -> None:
    script = ScriptDirectory.from_config(_config())
    revisions = _revisions()
    assert len(script.get_heads()) == 1 and script.get_heads()[0] == revisions[-1]
    assert revisions[0] == "0001"
    for older, newer in itertools.pairwise(revisions):
        assert script.get_revision(newer).down_revision == older


def test_every_step_from_the_first_revision_keeps_an_old_game(database_url: str) -> None:
    revisions = _revisions()

    def step(target: str) -> Any:
        def work(connection: Connection) -> None:
            command.upgrade(_config(connection), target)
            if target == revisions[0]:  # a game of the first schema, one move played
                connection.execute(
                    text(
                        "INSERT INTO games (id, game, rules, mode, white, black, status, ply,"
                        " result, created, updated) VALUES ('old', 'morris', 'morris',"
                        " 'hotseat', 'human', 'human', 'live', 1, '*', :at, :at)"
                    ),
                    {"at": OLD},
                )
                connection.execute(
                    text(
                        "INSERT INTO moves (game_id, ply, move, played)"
                        " VALUES ('old', 0, 'd6', :at)"
                    ),
                    {"at": OLD},
                )

        return work

    def differences(connection: Connection) -> list[Any]:
        context = MigrationContext.configure(connection)
        return list(compare_metadata(context, Base.metadata))

    async def run() -> tuple[list[Any], tuple[int, list[str]]]:
        store = Store(database_url)
        for target in revisions:
            async with store.engine.begin() as connection:
                await connection.run_sync(step(target))
        async with store.engine.begin() as connection:
            found_differences = await connection.run_sync(differences)
        await store.open()  # at the newest revision already: nothing to do
        found = await store.game("old")
        await store.close()
        assert found is not None
        return found_differences, (found[0].ply, found[1])

    found_differences, game = asyncio.run(run())
    assert game == (1, ["d6"])
    assert found_differences == []
