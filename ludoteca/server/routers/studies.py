"""Studies (see docs/web.md): the list (``/studies``), a study's page (``/study/ID``), their JSON
API, and a websocket per study (``/ws/studies/ID``) that sends the study, its chapters on
request and every change as it is stored, and takes the contributors' changes and
positions."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, PlainTextResponse

from ...i18n import _
from ..community.people import User
from ..deps import Client, GuardsDep, SignedIn, StudiesDep, Viewer, csrf_guard, viewer
from ..errors import ActionError
from ..play.catalogue import default_game
from ..play.views import encode
from ..schemas import Done, read_message
from ..study.studies import POLL_SECONDS, Studies
from ..study.study_schemas import (
    Change,
    ChangeDone,
    ChangeMessage,
    ChapterBody,
    ChapterChange,
    ChapterEdit,
    ChapterMessage,
    ChapterOpen,
    ChapterView,
    ContributorAt,
    ContributorPosition,
    Contributors,
    RecordsBody,
    StudyBody,
    StudyCreated,
    StudyEdit,
    StudyErrorMessage,
    StudyList,
    StudyMessage,
    StudyMessageAdapter,
    StudyView,
)
from .pages import not_found, page

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])
pages = APIRouter(default_response_class=HTMLResponse)
#: the largest message a study's websocket reads (a comment, a long path)
MAX_STUDY_MESSAGE = 32_768


@pages.get("/studies", include_in_schema=False)
async def studies_page() -> HTMLResponse:
    return page("studies", default_game=default_game())


@pages.get("/study/{study_id}", include_in_schema=False)
async def study_page(found: StudiesDep, user: Viewer, study_id: str) -> HTMLResponse:
    """A study's page; the "not found" page for no study, a sentence for a private one."""
    try:
        await found.view(study_id, user)
    except ActionError as error:
        if error.status == 404:
            return not_found()
        return page("missing", error.status, message=error.message)
    return page("study", default_game=default_game())


@router.get("/studies")
async def listing(found: StudiesDep, user: Viewer) -> StudyList:
    """The reader's studies and the latest public ones."""
    return await found.listing(user)


@router.post("/studies", status_code=201)
async def create(found: StudiesDep, user: SignedIn, body: StudyBody) -> StudyCreated:
    """A new study with its first chapter (signed in); 400 naming what is wrong, 429 past the
    most studies an account has."""
    study_id = await found.create(user, body)
    return StudyCreated(id=study_id, url=f"/study/{study_id}")


@router.get("/studies/{study_id}")
async def view(found: StudiesDep, user: Viewer, study_id: str) -> StudyView:
    """A study: settings, contributors, chapters; 403 if private and not yours."""
    return await found.view(study_id, user)


@router.post("/studies/{study_id}")
async def edit(found: StudiesDep, user: SignedIn, study_id: str, body: StudyEdit) -> StudyView:
    """Change a study's title or visibility (its owner)."""
    return await found.edit(study_id, user, body)


@router.delete("/studies/{study_id}")
async def remove(found: StudiesDep, user: SignedIn, study_id: str) -> Done:
    """Delete a study (its owner)."""
    await found.delete(study_id, user)
    return Done()


@router.post("/studies/{study_id}/contributors")
async def contributors(
    found: StudiesDep, user: SignedIn, study_id: str, body: Contributors
) -> StudyView:
    """Set the accounts that edit the study beside its owner (its owner); 404 naming an
    unknown player."""
    return await found.contributors(study_id, user, body.names)


@router.post("/studies/{study_id}/chapters", status_code=201)
async def add_chapter(
    found: StudiesDep, user: SignedIn, study_id: str, body: ChapterBody
) -> ChapterView:
    """A new chapter (an editor): from a position, a record or a finished game; 400 saying
    why it cannot be."""
    return await found.add_chapter(study_id, user, body)


@router.post("/studies/{study_id}/import", status_code=201)
async def import_records(
    found: StudiesDep, user: SignedIn, study_id: str, body: RecordsBody
) -> list[ChapterView]:
    """A chapter for each record (an editor), all or none; 400 naming the first bad one."""
    return await found.import_records(study_id, user, body.records)


@router.get("/studies/{study_id}/chapters/{chapter_id}")
async def chapter(found: StudiesDep, user: Viewer, study_id: str, chapter_id: str) -> ChapterView:
    """A chapter whole: its start and its tree."""
    return await found.chapter(study_id, chapter_id, user)


@router.post("/studies/{study_id}/chapters/{chapter_id}")
async def rename_chapter(
    found: StudiesDep, user: SignedIn, study_id: str, chapter_id: str, body: ChapterEdit
) -> ChapterView:
    """Rename a chapter (an editor)."""
    return await found.rename_chapter(study_id, chapter_id, user, body.name)


@router.delete("/studies/{study_id}/chapters/{chapter_id}")
async def delete_chapter(
    found: StudiesDep, user: SignedIn, study_id: str, chapter_id: str
) -> StudyView:
    """Delete a chapter (an editor; not a study's last one)."""
    return await found.delete_chapter(study_id, chapter_id, user)


@router.post("/studies/{study_id}/chapters/{chapter_id}/changes")
async def change(
    found: StudiesDep, user: SignedIn, study_id: str, chapter_id: str, body: Change
) -> ChangeDone:
    """Change a chapter's tree (an editor): a move, a deletion, a promotion, a comment, a
    mark or the shapes of a position; stored, then sent to everyone on the study's page."""
    return await found.change(study_id, chapter_id, user, body)


def _download(text: str, name: str) -> PlainTextResponse:
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="ludoteca-{name}.txt"'}
    )


@router.get("/studies/{study_id}/record", response_class=PlainTextResponse)
async def export(found: StudiesDep, user: Viewer, study_id: str) -> PlainTextResponse:
    """Every chapter as a text record, one after another (variations, comments, marks and
    shapes included)."""
    return _download(await found.export(study_id, user, None), f"study-{study_id}")


@router.get("/studies/{study_id}/chapters/{chapter_id}/record", response_class=PlainTextResponse)
async def export_chapter(
    found: StudiesDep, user: Viewer, study_id: str, chapter_id: str
) -> PlainTextResponse:
    """One chapter as a text record."""
    return _download(await found.export(study_id, user, chapter_id), f"chapter-{chapter_id}")


@pages.websocket("/ws/studies/{study_id}")
async def socket(
    websocket: WebSocket, study_id: str, found: StudiesDep, guards: GuardsDep, address: Client
) -> None:
    """Sends ``study`` at once and whenever the study changes, ``chapter`` for each ``open``,
    ``change`` for every change of a chapter's tree stored, ``position`` where a contributor
    goes, ``error`` for a refused message; takes ``open``, ``change`` and ``where`` (see
    docs/web.md).  A study the reader may not see closes it with code 1008 and the reason."""
    if not await guards.admit(websocket, address, "study sockets"):
        return
    try:
        await _serve(websocket, study_id, found, await viewer(websocket))
    finally:
        guards.release(address)


async def _serve(websocket: WebSocket, study_id: str, found: Studies, user: User | None) -> None:
    await websocket.accept()
    try:
        study = await found.view(study_id, user)
    except ActionError as error:
        await websocket.close(code=1008, reason=error.message[:120])
        return
    study_id = study.id
    outbox: asyncio.Queue[str | None] = asyncio.Queue()
    seen = {"version": study.version, "editor": study.editor}

    def heard(kind: str, message: Any) -> None:
        if kind == "change":
            done, by = message
            outbox.put_nowait(encode(ChangeMessage(**dict(done), by=by)))
        elif kind == "position":
            if message.by != (user.name if user else None):
                outbox.put_nowait(encode(message))
        else:
            outbox.put_nowait(None)  # (read the study again)

    async def send() -> None:
        """Send what the listener queued and, when the study changed (here, or in another
        process: its version moved), the study again, as the reader sees it."""
        while True:
            try:
                text = await asyncio.wait_for(outbox.get(), POLL_SECONDS)
            except TimeoutError:
                text = None
                if await found.version(study_id) == seen["version"]:
                    continue
            if text is None:
                try:
                    now = await found.view(study_id, user)
                except ActionError as error:  # deleted, or made private
                    await websocket.close(code=1008, reason=error.message[:120])
                    return
                seen.update(version=now.version, editor=now.editor)
                text = encode(StudyMessage(study=now))
            await websocket.send_text(text)

    found.listen(study_id, heard)
    await websocket.send_text(encode(StudyMessage(study=study)))
    sender = asyncio.create_task(send())
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                intent = read_message(
                    message.get("text"),
                    StudyMessageAdapter,
                    MAX_STUDY_MESSAGE,
                    '{"type": "open", "chapter": "..."}',
                )
                if isinstance(intent, ChapterOpen):
                    chapter = intent.chapter or (await found.view(study_id, user)).chapters[0].id
                    opened = await found.chapter(study_id, chapter, user)
                    outbox.put_nowait(encode(ChapterMessage(chapter=opened)))
                elif isinstance(intent, ChapterChange):
                    if user is None:
                        raise ActionError(401, _("sign in first"))
                    await found.change(study_id, intent.chapter, user, intent.change)
                elif isinstance(intent, ContributorAt) and user is not None and seen["editor"]:
                    found.tell(
                        study_id,
                        "position",
                        ContributorPosition(chapter=intent.chapter, path=intent.path, by=user.name),
                    )
            except ActionError as error:
                outbox.put_nowait(encode(StudyErrorMessage(message=error.message)))
    except WebSocketDisconnect:
        pass
    finally:
        found.unlisten(study_id, heard)
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)
