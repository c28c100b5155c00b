"""Accounts: sign up, sign in and out, change the password, who am I (``/api/me``).

The session is an HttpOnly, SameSite=Lax cookie (Secure when the page came over HTTPS); the
answers to sign-up, sign-in and ``/api/me`` carry the CSRF token that the page repeats in the
``X-CSRF-Token`` header of every state-changing request."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response

from ..community.people import SESSION_DAYS, User
from ..deps import (
    COOKIE,
    AccountsDep,
    Client,
    HubDep,
    ModerationDep,
    SignedIn,
    Viewer,
    csrf_guard,
)
from ..schemas import Credentials, Done, Me, NewPassword, Session

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])


def _secure(request: Request) -> bool:
    return request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https"


def _signed_in(
    request: Request, response: Response, user: User, token: str, claimed: int = 0
) -> Session:
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        httponly=True,
        samesite="lax",
        secure=_secure(request),
        path="/",
    )
    return Session(name=user.name, csrf=user.csrf, claimed=claimed)


@router.post("/signup", status_code=201)
async def sign_up(
    request: Request,
    response: Response,
    accounts: AccountsDep,
    hub: HubDep,
    client: Client,
    body: Credentials,
) -> Session:
    """Make an account and sign in; the guest seats listed in ``claims`` become its own
    (accounts made are capped per address)."""
    user, token = await accounts.sign_up(body.name, body.password, client)
    claimed = await hub.claim(user.id, [(c.game, c.token) for c in body.claims])
    return _signed_in(request, response, user, token, claimed)


@router.post("/login")
async def sign_in(
    request: Request,
    response: Response,
    accounts: AccountsDep,
    hub: HubDep,
    client: Client,
    body: Credentials,
    moderation: ModerationDep,
) -> Session:
    """Sign in (failed attempts are throttled per address and per username; a closed account
    is refused)."""
    user, token = await accounts.sign_in(body.name, body.password, client)
    await moderation.admit(user)
    claimed = await hub.claim(user.id, [(c.game, c.token) for c in body.claims])
    return _signed_in(request, response, user, token, claimed)


@router.post("/logout")
async def sign_out(
    request: Request, response: Response, accounts: AccountsDep, user: SignedIn
) -> Done:
    """Sign out (the session ends)."""
    await accounts.sign_out(request.cookies.get(COOKIE, ""))
    response.delete_cookie(COOKIE, path="/")
    return Done()


@router.post("/password")
async def change_password(
    request: Request, accounts: AccountsDep, user: SignedIn, body: NewPassword
) -> Done:
    """Change the password (the current one is asked for); other sessions end."""
    await accounts.change_password(user, body.old, body.new, request.cookies.get(COOKIE, ""))
    return Done()


@router.get("/me")
async def me(user: Viewer) -> Me:
    """The signed-in user's name and CSRF token, or ``{"name": null, "csrf": null}``."""
    return Me(name=user.name, csrf=user.csrf) if user else Me(name=None, csrf=None)
