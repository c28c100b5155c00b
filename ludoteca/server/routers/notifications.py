"""Notifications: the server's VAPID public key, a browser's push subscription, an account's
preferences (see :mod:`..notify` and ``docs/web.md``).  State-changing routes pass the CSRF
check of every account route."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from ..deps import NotifierDep, SignedIn, csrf_guard
from ..notify.schemas import Preferences, PushSubscription, Unsubscription, VapidKey
from ..schemas import Done

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])


@router.get("/push/key")
async def push_key(notifier: NotifierDep) -> VapidKey:
    """The key pages subscribe with (``applicationServerKey``)."""
    return VapidKey(key=notifier.push.public_key)


@router.post("/push/subscriptions", status_code=201)
async def subscribe(notifier: NotifierDep, user: SignedIn, body: PushSubscription) -> Done:
    """Push the signed-in account's notifications to this browser (at most ten browsers an
    account: the oldest is replaced)."""
    await notifier.subscribe(user.id, body)
    return Done()


@router.post("/push/unsubscribe")
async def unsubscribe(notifier: NotifierDep, user: SignedIn, body: Unsubscription) -> Done:
    """Stop pushing to this browser (404 if it was not subscribed for the account)."""
    await notifier.unsubscribe(user.id, body.endpoint)
    return Done()


@router.get("/notifications")
async def preferences(notifier: NotifierDep, user: SignedIn) -> Preferences:
    """What the signed-in account is told, and where."""
    return await notifier.preferences(user.id)


@router.put("/notifications")
async def choose(notifier: NotifierDep, user: SignedIn, body: Preferences) -> Preferences:
    """Choose what the signed-in account is told, and where (the page's language becomes the
    one its notifications are written in)."""
    return await notifier.choose(user.id, body)
