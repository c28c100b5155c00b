"""The server's computer in tournaments: its levels enter as their bot accounts (see
:mod:`..community.bots`), at the request of the tournament's creator, and a level's seat in a
tournament game is the computer's (played by the hub's duties, as in a challenge a level
accepted)."""

from __future__ import annotations

from sqlalchemy import select

from ...ai.levels import levels
from ...i18n import _
from ..community.bots import LEVEL_NAME, Bots, level_name
from ..community.people import User, UserRow
from ..errors import ActionError
from ..play.catalogue import game_title, rule_set
from ..schemas import HUMAN
from ..store import Store
from .rows import TournamentRow

__all__ = ["level_entrant", "seat_kind"]


async def level_entrant(
    store: Store, bots: Bots, row: TournamentRow, user: User, level: int
) -> User:
    """The account of the computer's ``level`` for the tournament ``row`` (made if missing),
    which ``user`` asks to enter: 403 unless ``user`` created the tournament, 400 for a level
    the ladder of its rule set has not."""
    if row.creator != user.id:
        raise ActionError(403, _("only the tournament's creator can enter the computer"))
    top = len(levels(rule_set(row.game, row.rules).rules))
    if not 1 <= level <= top:
        raise ActionError(
            400,
            _(
                "%(game)s has levels 1 to %(top)s, not %(number)s",
                game=game_title(row.game),
                top=top,
                number=level,
            ),
        )
    await bots.ensure_levels(row.game, row.rules)
    name = level_name(row.game, level)
    async with store.session() as session:
        found = (await session.scalars(select(UserRow.id).where(UserRow.name_key == name))).one()
    return User(id=found, name=name, csrf="")


def seat_kind(name: str, bot: bool, game: str) -> str:
    """Who plays the seat of the account ``name`` (``bot``: a bot account) in a game of
    ``game``: the computer at its level for a level bot of that game, else the account
    itself (a person, or an engine through the Bot API)."""
    level = LEVEL_NAME.fullmatch(name)
    if bot and level is not None and level[1] == game:
        return f"level:{level[2]}"
    return HUMAN
