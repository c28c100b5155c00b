"""Creating and listing tournaments: what needs only the store (the server's service and the
command line, ``ludoteca tournaments``, both use it)."""

from __future__ import annotations

import logging
import secrets

from sqlalchemy import func, insert, select

from ...core import LudotecaError
from ...i18n import _
from ..errors import ActionError
from ..play.catalogue import playable, rules_title
from ..play.clock import parse_control
from ..store import Store
from .rows import EntryRow, TournamentRow
from .schemas import TournamentBody, TournamentBrief, epoch_ms

__all__ = ["FINISHED", "RUNNING", "UPCOMING", "brief", "create", "listing"]

log = logging.getLogger("ludoteca.server")

UPCOMING, RUNNING, FINISHED = "upcoming", "running", "finished"


async def create(store: Store, body: TournamentBody, creator: int | None, now: int) -> str:
    """A new upcoming tournament created at ``now`` (epoch ms) by the account ``creator``:
    its id; :class:`ActionError` (400) naming what is wrong
    (an unknown game or rule set, a bad clock, a Swiss without rounds, an arena without
    minutes, a start in the past), and then nothing is stored."""
    name = " ".join(body.name.split())
    if not name or not name.isprintable():
        raise ActionError(400, _("a tournament needs a name"))
    try:
        bound = playable(body.game, body.rules or None)
        clock = str(parse_control(body.clock))
    except (LudotecaError, ValueError) as error:
        raise ActionError(400, str(error)) from None
    if body.system == "swiss" and not body.rounds:
        raise ActionError(400, _("a Swiss tournament has at least one round"))
    if body.system == "arena" and not body.minutes:
        raise ActionError(400, _("an arena lasts at least one minute"))
    starts = epoch_ms(body.starts)
    if starts < now - 60_000:
        raise ActionError(400, _("the start time is in the past"))
    tournament_id = secrets.token_urlsafe(6)
    minutes = body.minutes if body.system == "arena" else None
    values = {
        "id": tournament_id,
        "name": name,
        "game": bound.name,
        "rules": str(bound.rules),
        "clock": clock,
        "system": body.system,
        "rounds": body.rounds if body.system == "swiss" else None,
        "minutes": minutes,
        "starts": starts,
        "ends": starts + minutes * 60_000 if minutes else None,
        "rated": body.rated,
        "max_players": body.max_players,
        "state": UPCOMING,
        "round": 0,
        "creator": creator,
        "created": now,
    }
    await store.write(lambda c: c.execute(insert(TournamentRow).values(**values)))
    log.info("tournament %s created: %s (%s)", tournament_id, name, body.system)
    return tournament_id


async def listing(store: Store) -> list[TournamentBrief]:
    """The running and upcoming tournaments (soonest first), then the last finished."""
    async with store.session() as session:
        open_ = list(
            await session.scalars(
                select(TournamentRow)
                .where(TournamentRow.state != FINISHED)
                .order_by(TournamentRow.starts)
                .limit(100)
            )
        )
        done = list(
            await session.scalars(
                select(TournamentRow)
                .where(TournamentRow.state == FINISHED)
                .order_by(TournamentRow.starts.desc())
                .limit(30)
            )
        )
        counts = dict(
            (
                await session.execute(
                    select(EntryRow.tournament_id, func.count())
                    .where(EntryRow.withdrawn.is_(False))
                    .group_by(EntryRow.tournament_id)
                )
            ).all()
        )
    return [brief(row, counts.get(row.id, 0)) for row in open_ + done]


def brief(row: TournamentRow, players: int) -> TournamentBrief:
    """A tournament as a list shows it, with its count of ``players``."""
    return TournamentBrief(
        id=row.id,
        url=f"/tournaments/{row.id}",
        name=row.name,
        game=row.game,
        rules=row.rules,
        rules_title=rules_title(row.game, row.rules),
        clock=row.clock,
        system=row.system,  # type: ignore[arg-type]
        rounds=row.rounds,
        minutes=row.minutes,
        starts=row.starts,
        ends=row.ends,
        rated=row.rated,
        max_players=row.max_players,
        state=row.state,
        round=row.round,
        players=players,
    )
