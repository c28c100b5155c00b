"""Challenges (see ``docs/web.md``): sent to a named player, listed on both sides, accepted,
declined with a reason or cancelled; by a signed-in player (session cookie) or by a bot
(``Authorization: Bearer TOKEN``, the Bot API's shape)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from ...i18n import _
from ..community.challenges import ChallengeBody, ChallengeView, Decline, MyChallenges, spec_of
from ..deps import BotsDep, ChallengesDep, csrf_guard, viewer
from ..errors import ActionError
from ..schemas import Accepted, Done

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])


async def _player(request: Request, bots: BotsDep) -> int:
    """The acting account: a bot by its token, else the signed-in player (401 if neither)."""
    if "authorization" in request.headers:
        return (await bots.bot_of(request.headers["authorization"]))[0]
    user = await viewer(request)
    if user is None:
        raise ActionError(401, _("sign in first"))
    return user.id


Player = Annotated[int, Depends(_player)]


@router.get("/challenges")
async def my_challenges(challenges: ChallengesDep, player: Player) -> MyChallenges:
    """Your challenges: received (open) and sent (open, or closed within the hour, with what
    became of them)."""
    return await challenges.mine(player)


@router.post("/challenge/{name}", status_code=201)
async def challenge(
    challenges: ChallengesDep, player: Player, name: str, body: ChallengeBody
) -> ChallengeView:
    """Challenge the player ``name`` to a game."""
    return await challenges.send(player, name, spec_of(body))


@router.post("/challenge/{challenge_id}/accept", status_code=201)
async def accept(
    challenges: ChallengesDep, bots: BotsDep, player: Player, challenge_id: str
) -> Accepted:
    """Accept a challenge to you: the new game (a bot: 429 when it plays its most games)."""
    if await bots.is_bot(player):
        await bots.check_room(player)
    game_id = await challenges.accept(player, challenge_id)
    return Accepted(game=game_id, url=f"/game/{game_id}")


@router.post("/challenge/{challenge_id}/decline")
async def decline(
    challenges: ChallengesDep, player: Player, challenge_id: str, body: Decline | None = None
) -> Done:
    """Decline a challenge to you, with a reason (default ``generic``)."""
    await challenges.decline(player, challenge_id, (body or Decline()).reason)
    return Done()


@router.post("/challenge/{challenge_id}/cancel")
async def cancel(challenges: ChallengesDep, player: Player, challenge_id: str) -> Done:
    """Withdraw a challenge you sent."""
    await challenges.cancel(player, challenge_id)
    return Done()
