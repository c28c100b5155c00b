"""Studies, as lichess has them: an account's collection of chapters, each a start position and
a move tree (the analysis board's: variations, comments, move marks, and the arrows and circled
points drawn on each position), edited by its owner and the contributors the owner names and
followed live by everyone on its page.

A study is ``public`` (listed, open to all), ``unlisted`` (open to whoever has its link) or
``private`` (its owner and contributors only).  A chapter starts from a position code, a
text record (its moves, variations, comments and shapes come with it) or a finished game of the
server.  A chapter's tree changes by small operations (:data:`~.study_schemas.Change`: a move,
a deletion, a promotion, a comment, a mark, the shapes of a position), each checked (a move by
the engine, a shape's points against the rule set's board), stored with the chapter's version
one higher (a change made meanwhile by another is read again and applied on top), and told to
the watchers of the study in this process at once; a page served by another process sees the
study's version move within :data:`POLL_SECONDS` and reads it again.

The limits (:data:`MAX_STUDIES` an account, :data:`MAX_CHAPTERS` a study, :data:`MAX_NODES` a
chapter, :data:`MAX_CONTRIBUTORS`, a comment's length, :data:`CHANGES_PER_MINUTE`) refuse what
passes them with a sentence saying so, and change nothing, as every refusal here does.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, delete, func, insert, or_, select, update

from ...core import LudotecaError, Termination
from ...gametree import GameTree, Node, Shape
from ...i18n import _, ngettext
from ...record import GameRecord, dumps, from_state, read_games
from ..community.people import User, UserRow
from ..errors import ActionError
from ..limits import RateLimit
from ..play.catalogue import default_game, replay, rule_set, rules_title
from ..store import Store, now
from .analysis import state_of
from .board_records import MAX_COMMENT, MAX_SHAPES
from .study_rows import ChapterRow, StudyMemberRow, StudyRow
from .study_schemas import (
    Change,
    ChangeDone,
    ChapterBody,
    ChapterBrief,
    ChapterView,
    CommentChange,
    DeleteChange,
    MarkChange,
    MoveChange,
    PromoteChange,
    ShapesChange,
    StudyBody,
    StudyBrief,
    StudyEdit,
    StudyList,
    StudyView,
)

__all__ = [
    "CHANGES_PER_MINUTE",
    "MAX_CHAPTERS",
    "MAX_CONTRIBUTORS",
    "MAX_NODES",
    "MAX_STUDIES",
    "POLL_SECONDS",
    "Studies",
    "chapter_record",
]

#: the most studies an account owns
MAX_STUDIES = 100
#: the most chapters a study holds
MAX_CHAPTERS = 64
#: the most moves a chapter's tree holds (its variations' included)
MAX_NODES = 3000
#: the most contributors a study names
MAX_CONTRIBUTORS = 20
#: changes of chapters one account may make in a minute
CHANGES_PER_MINUTE = 600
#: how often a study's page served by this process looks for changes made by another
POLL_SECONDS = 3.0
#: the most studies a list shows
LISTED = 100
#: how often a change is tried again when the chapter changed under it
RETRIES = 8
#: the record's tags a chapter keeps (those that say where its start is are its own)
_OWN_TAGS = frozenset({"Game", "Rules", "Setup", "Position", "Study", "Chapter"})

#: told of each change of a study: ``("study", None)`` its settings or chapters' list,
#: ``("change", message)`` a chapter's tree, ``("position", message)`` a contributor's place
Listener = Callable[[str, Any], None]


class Studies:
    """The studies kept in ``store``, and who listens to them in this process."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.changes = RateLimit(CHANGES_PER_MINUTE, 60.0)
        #: who listens to each study in this process (its pages' websockets)
        self.listeners: dict[str, set[Listener]] = {}

    # --- listening ----------------------------------------------------------------------------
    def listen(self, study_id: str, listener: Listener) -> None:
        """Tell ``listener`` of every change of the study made in this process."""
        self.listeners.setdefault(study_id, set()).add(listener)

    def unlisten(self, study_id: str, listener: Listener) -> None:
        found = self.listeners.get(study_id)
        if found is not None:
            found.discard(listener)
            if not found:
                del self.listeners[study_id]

    def tell(self, study_id: str, kind: str, message: Any = None) -> None:
        """Tell the study's listeners of a change (``kind`` and ``message`` as
        :data:`Listener` says)."""
        for listener in list(self.listeners.get(study_id, ())):
            listener(kind, message)

    # --- reading ------------------------------------------------------------------------------
    async def _study(self, study_id: str) -> tuple[StudyRow, str, list[int], list[str]]:
        """A study, its owner's name and its contributors (ids and names); 404 if none."""
        async with self.store.session() as session:
            row = await session.get(StudyRow, study_id[:16])
            if row is None:
                raise ActionError(404, _("no study %(id)s", id=repr(study_id[:16])))
            owner = await session.get(UserRow, row.owner_id)
            members = (
                await session.execute(
                    select(UserRow.id, UserRow.name)
                    .join(StudyMemberRow, StudyMemberRow.user_id == UserRow.id)
                    .where(StudyMemberRow.study_id == row.id)
                    .order_by(UserRow.name_key)
                )
            ).all()
        return row, owner.name if owner else "?", [m[0] for m in members], [m[1] for m in members]

    async def _readable(
        self, study_id: str, user: User | None
    ) -> tuple[StudyRow, str, list[str], bool]:
        """A study the reader may see, its owner's and contributors' names and whether the
        reader edits it; 403 for a private study of others."""
        row, owner, member_ids, names = await self._study(study_id)
        editor = user is not None and (user.id == row.owner_id or user.id in member_ids)
        if row.visibility == "private" and not editor:
            raise ActionError(
                403, _("this study is private: only its owner and contributors may see it")
            )
        return row, owner, names, editor

    async def _editable(self, study_id: str, user: User) -> StudyRow:
        """A study the user edits (owner or contributor); 403 otherwise."""
        row, _owner, _names, editor = await self._readable(study_id, user)
        if not editor:
            raise ActionError(403, _("only the study's owner and contributors may change it"))
        return row

    async def _owned(self, study_id: str, user: User) -> StudyRow:
        """A study the user owns; 403 otherwise."""
        row = await self._editable(study_id, user)
        if row.owner_id != user.id:
            raise ActionError(403, _("only the study's owner may do this"))
        return row

    async def _chapters(self, study_id: str) -> list[ChapterRow]:
        async with self.store.session() as session:
            rows = await session.scalars(
                select(ChapterRow).where(ChapterRow.study_id == study_id).order_by(ChapterRow.rank)
            )
            return list(rows)

    async def _chapter(self, study: StudyRow, chapter_id: str) -> ChapterRow:
        async with self.store.session() as session:
            row = await session.get(ChapterRow, chapter_id[:16])
        if row is None or row.study_id != study.id:
            raise ActionError(404, _("no chapter %(id)s in this study", id=repr(chapter_id[:16])))
        return row

    async def view(self, study_id: str, user: User | None) -> StudyView:
        """A study as ``user`` (``None``: a guest) sees it; 404 if unknown, 403 if private and
        not theirs."""
        row, owner, names, editor = await self._readable(study_id, user)
        return StudyView(
            id=row.id,
            title=row.title,
            visibility=row.visibility,  # type: ignore[arg-type]
            owner=owner,
            contributors=names,
            chapters=[_brief(c) for c in await self._chapters(row.id)],
            version=row.version,
            editor=editor,
            owned=user is not None and user.id == row.owner_id,
        )

    async def version(self, study_id: str) -> int | None:
        """The study's version (``None``: it is gone)."""
        async with self.store.session() as session:
            found = await session.scalars(select(StudyRow.version).where(StudyRow.id == study_id))
            return found.first()

    async def chapter(self, study_id: str, chapter_id: str, user: User | None) -> ChapterView:
        """A chapter whole, for a reader of its study."""
        row, *_rest = await self._readable(study_id, user)
        return _chapter_view(await self._chapter(row, chapter_id))

    async def listing(self, user: User | None) -> StudyList:
        """The reader's studies (owned or contributed to) and the latest public ones, the
        latest changed first."""
        mine: list[StudyBrief] = []
        if user is not None:
            contributed = select(StudyMemberRow.study_id).where(StudyMemberRow.user_id == user.id)
            mine = await self._briefs(
                or_(StudyRow.owner_id == user.id, StudyRow.id.in_(contributed))
            )
        return StudyList(mine=mine, public=await self._briefs(StudyRow.visibility == "public"))

    async def _briefs(self, where: Any) -> list[StudyBrief]:
        chapters = (
            select(ChapterRow.study_id, func.count().label("count"))
            .group_by(ChapterRow.study_id)
            .subquery()
        )
        async with self.store.session() as session:
            rows = (
                await session.execute(
                    select(StudyRow, UserRow.name, chapters.c.count)
                    .join(UserRow, UserRow.id == StudyRow.owner_id)
                    .outerjoin(chapters, chapters.c.study_id == StudyRow.id)
                    .where(where)
                    .order_by(StudyRow.updated.desc())
                    .limit(LISTED)
                )
            ).all()
        return [
            StudyBrief(
                id=row.id,
                title=row.title,
                visibility=row.visibility,
                owner=owner,
                chapters=count or 0,
                updated=row.updated.isoformat(),
            )
            for row, owner, count in rows
        ]

    # --- a study's settings ---------------------------------------------------------------------
    async def create(self, user: User, body: StudyBody) -> str:
        """A new study of ``user``'s with its first chapter; its id.  429 past
        :data:`MAX_STUDIES`; 400 for a first chapter that cannot be."""
        async with self.store.session() as session:
            owned = (
                await session.scalars(
                    select(func.count()).select_from(StudyRow).where(StudyRow.owner_id == user.id)
                )
            ).one()
        if owned >= MAX_STUDIES:
            raise ActionError(
                429,
                _(
                    "you have %(num)s studies, the most an account may have: delete one first",
                    num=MAX_STUDIES,
                ),
            )
        title = _title(body.title)
        first = _new_chapter(await self._start(body.chapter or ChapterBody()), 0, _("Chapter 1"))
        study_id = secrets.token_urlsafe(8)
        at = now()

        def work(connection: Connection) -> None:
            connection.execute(
                insert(StudyRow).values(
                    id=study_id,
                    owner_id=user.id,
                    title=title,
                    visibility=body.visibility,
                    version=0,
                    created=at,
                    updated=at,
                )
            )
            connection.execute(insert(ChapterRow).values(study_id=study_id, **first))

        await self.store.write(work)
        return study_id

    async def edit(self, study_id: str, user: User, body: StudyEdit) -> StudyView:
        """Change a study's title or visibility (its owner)."""
        row = await self._owned(study_id, user)
        changes: dict[str, object] = {}
        if body.title is not None:
            changes["title"] = _title(body.title)
        if body.visibility is not None:
            changes["visibility"] = body.visibility
        await self._bump(row.id, **changes)
        return await self.view(row.id, user)

    async def contributors(self, study_id: str, user: User, names: list[str]) -> StudyView:
        """Set a study's contributors by name (its owner); 404 naming an unknown player, 400
        past :data:`MAX_CONTRIBUTORS`."""
        row = await self._owned(study_id, user)
        keys = list(dict.fromkeys(name.strip().lower() for name in names if name.strip()))
        if len(keys) > MAX_CONTRIBUTORS:
            raise ActionError(
                400,
                _(
                    "a study has at most %(num)s contributors besides its owner",
                    num=MAX_CONTRIBUTORS,
                ),
            )
        async with self.store.session() as session:
            found = dict(
                (
                    await session.execute(
                        select(UserRow.name_key, UserRow.id).where(UserRow.name_key.in_(keys))
                    )
                ).all()
            )
        for key in keys:
            if key not in found:
                raise ActionError(404, _("no player %(name)s", name=repr(key)))
        ids = [found[key] for key in keys if found[key] != row.owner_id]

        def work(connection: Connection) -> None:
            connection.execute(delete(StudyMemberRow).where(StudyMemberRow.study_id == row.id))
            if ids:
                connection.execute(
                    insert(StudyMemberRow), [{"study_id": row.id, "user_id": i} for i in ids]
                )
            _bumped(connection, row.id)

        await self.store.write(work)
        self.tell(row.id, "study")
        return await self.view(row.id, user)

    async def delete(self, study_id: str, user: User) -> None:
        """Delete a study and its chapters (its owner)."""
        row = await self._owned(study_id, user)

        def work(connection: Connection) -> None:
            connection.execute(delete(ChapterRow).where(ChapterRow.study_id == row.id))
            connection.execute(delete(StudyMemberRow).where(StudyMemberRow.study_id == row.id))
            connection.execute(delete(StudyRow).where(StudyRow.id == row.id))

        await self.store.write(work)
        self.tell(row.id, "study")

    async def _bump(self, study_id: str, **changes: object) -> None:
        await self.store.write(lambda connection: _bumped(connection, study_id, **changes))
        self.tell(study_id, "study")

    # --- chapters -------------------------------------------------------------------------------
    async def _start(self, body: ChapterBody) -> _Start:
        """What a new chapter starts from, checked; 400 (or 404 for an unknown game) with the
        reason it cannot be."""
        given = [k for k in ("position", "record", "game_id") if getattr(body, k) is not None]
        if len(given) > 1:
            raise ActionError(
                400, _("a chapter starts from a position, a record or a game: give one")
            )
        if body.record is not None:
            records = _records(body.record)
            if len(records) != 1:
                raise ActionError(
                    400,
                    _("expected one game record, found %(count)s", count=len(records)),
                )
            return _of_record(records[0], body.name)
        if body.game_id is not None:
            return await self._of_game(body.game_id, body.name)
        state = state_of(body.game or default_game(), body.rules, body.position, [])
        return _Start(body.name, state.game.name, str(state.rules), state.position_code())

    async def _of_game(self, game_id: str, name: str) -> _Start:
        found = await self.store.game(game_id[:64])
        if found is None:
            raise ActionError(404, _("no game %(id)s", id=repr(game_id[:64])))
        row, moves = found
        if row.status != "over":
            raise ActionError(400, _("only a finished game can be studied; this one goes on"))
        end = replay(row, moves)
        start = end.game.from_position_code(end.start)
        tags = {
            "White": row.white_name or "?",
            "Black": row.black_name or "?",
            "Date": row.created.strftime("%Y.%m.%d"),
            "Result": row.result,
        }
        if row.termination and _termination(row.termination) is not None:
            tags["Termination"] = row.termination
        tree = GameTree.of_line([str(m) for m in end.moves])
        return _Start(
            name or f"{tags['White']} - {tags['Black']}",
            start.game.name,
            str(start.rules),
            start.position_code(),
            tags,
            tree,
        )

    async def add_chapter(self, study_id: str, user: User, body: ChapterBody) -> ChapterView:
        """A new chapter at the end of a study (an editor); 400 for a start that cannot be or
        past :data:`MAX_CHAPTERS`."""
        row = await self._editable(study_id, user)
        start = await self._start(body)
        views = await self._add(row, [start])
        return views[0]

    async def import_records(self, study_id: str, user: User, text: str) -> list[ChapterView]:
        """A chapter for each record of ``text`` (an editor), all or none: 400 naming the
        first bad record's fault."""
        row = await self._editable(study_id, user)
        records = _records(text)
        if not records:
            raise ActionError(400, _("no game record found"))
        return await self._add(row, [_of_record(r, "") for r in records])

    async def _add(self, study: StudyRow, starts: list[_Start]) -> list[ChapterView]:
        chapters = await self._chapters(study.id)
        if len(chapters) + len(starts) > MAX_CHAPTERS:
            raise ActionError(400, _("a study holds at most %(num)s chapters", num=MAX_CHAPTERS))
        rank = max((c.rank for c in chapters), default=-1) + 1
        values = [
            _new_chapter(start, rank + i, _("Chapter %(num)s", num=len(chapters) + i + 1))
            for i, start in enumerate(starts)
        ]

        def work(connection: Connection) -> None:
            connection.execute(insert(ChapterRow), [{"study_id": study.id, **v} for v in values])
            _bumped(connection, study.id)

        await self.store.write(work)
        self.tell(study.id, "study")
        added = {c.id: c for c in await self._chapters(study.id)}
        return [_chapter_view(added[v["id"]]) for v in values]

    async def rename_chapter(
        self, study_id: str, chapter_id: str, user: User, name: str
    ) -> ChapterView:
        """Rename a chapter (an editor)."""
        row = await self._editable(study_id, user)
        chapter = await self._chapter(row, chapter_id)
        clean = _title(name)

        def work(connection: Connection) -> None:
            connection.execute(
                update(ChapterRow)
                .where(ChapterRow.id == chapter.id)
                .values(name=clean, version=ChapterRow.version + 1, updated=now())
            )
            _bumped(connection, row.id)

        await self.store.write(work)
        self.tell(row.id, "study")
        return await self.chapter(row.id, chapter.id, user)

    async def delete_chapter(self, study_id: str, chapter_id: str, user: User) -> StudyView:
        """Delete a chapter (an editor); 400 for a study's last one."""
        row = await self._editable(study_id, user)
        chapter = await self._chapter(row, chapter_id)
        if len(await self._chapters(row.id)) == 1:
            raise ActionError(400, _("a study keeps at least one chapter"))

        def work(connection: Connection) -> None:
            connection.execute(delete(ChapterRow).where(ChapterRow.id == chapter.id))
            _bumped(connection, row.id)

        await self.store.write(work)
        self.tell(row.id, "study")
        return await self.view(row.id, user)

    # --- a chapter's tree -----------------------------------------------------------------------
    async def change(
        self, study_id: str, chapter_id: str, user: User, change: Change
    ) -> ChangeDone:
        """Apply ``change`` to a chapter's tree (an editor), store it with the chapter's next
        version and tell the study's listeners; 400 saying why it cannot be (a move the engine
        refuses, a path to no move, a shape on no point of the board, a limit), 429 past
        :data:`CHANGES_PER_MINUTE`."""
        study = await self._editable(study_id, user)
        if not self.changes.allow(str(user.id)):
            raise ActionError(
                429,
                _(
                    "too many changes: at most %(num)s a minute; wait a little",
                    num=CHANGES_PER_MINUTE,
                ),
            )
        for _attempt in range(RETRIES):
            chapter = await self._chapter(study, chapter_id)
            tree = GameTree.from_json(json.loads(chapter.tree))
            stored, path = _apply(chapter, tree, change)
            nodes = sum(1 for _node in tree.nodes())
            if nodes > MAX_NODES:
                raise ActionError(400, _("a chapter holds at most %(num)s moves", num=MAX_NODES))
            text = json.dumps(tree.as_json(), ensure_ascii=False)
            saved = await self.store.write(
                functools.partial(_save, chapter=chapter, tree=text, nodes=nodes)
            )
            if saved:
                break
        else:
            raise ActionError(409, _("the chapter changed too often meanwhile; try again"))
        done = ChangeDone(chapter=chapter.id, version=chapter.version + 1, change=stored, path=path)
        self.tell(study.id, "change", (done, user.name))
        return done

    # --- records ----------------------------------------------------------------------------------
    async def export(self, study_id: str, user: User | None, chapter_id: str | None) -> str:
        """The records of a study's chapters (or of one), one after another, with their
        variations, comments, marks and shapes."""
        row, *_rest = await self._readable(study_id, user)
        chapters = (
            [await self._chapter(row, chapter_id)]
            if chapter_id is not None
            else await self._chapters(row.id)
        )
        return "\n".join(chapter_record(row.title, chapter) for chapter in chapters)


class _Start:
    """A new chapter's name (``""``: numbered), rule set, start (a position code), record's
    tags and tree."""

    def __init__(
        self,
        name: str,
        game: str,
        rules: str,
        start: str,
        tags: dict[str, str] | None = None,
        tree: GameTree | None = None,
    ) -> None:
        self.name = name
        self.game = game
        self.rules = rules
        self.start = start
        self.tags = tags or {}
        self.tree = tree or GameTree()


def _title(text: str) -> str:
    clean = " ".join(text.split())
    if not clean:
        raise ActionError(400, _("a title or a name cannot be empty"))
    return clean


def _termination(label: str) -> Termination | None:
    try:
        return Termination.from_label(label)
    except ValueError:
        return None


def _records(text: str) -> list[GameRecord]:
    try:
        return list(read_games(text.splitlines(keepends=True)))
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None


def _of_record(found: GameRecord, name: str) -> _Start:
    start = found.start()
    tags = {k: v for k, v in found.tags.items() if k not in _OWN_TAGS}
    if not name:
        name = found.tags.get("Chapter", "")
    if not name and found.tags.get("White", "?") != "?":
        name = f"{found.tags['White']} - {found.tags.get('Black', '?')}"
    _check_tree(found.tree)
    return _Start(name, start.game.name, str(start.rules), start.position_code(), tags, found.tree)


def _check_tree(tree: GameTree) -> None:
    """400 for a tree past a chapter's limits: its moves, a comment's length, the shapes of a
    position."""
    count = 0
    every: list[GameTree | Node] = [tree, *tree.nodes()]
    for node in every:
        count += isinstance(node, Node)
        if len(node.comment) > MAX_COMMENT or (
            isinstance(node, Node) and len(node.before) > MAX_COMMENT
        ):
            raise ActionError(400, _too_long())
        if len(node.shapes) > MAX_SHAPES:
            raise ActionError(400, _too_many_shapes())
    if count > MAX_NODES:
        raise ActionError(400, _("a chapter holds at most %(num)s moves", num=MAX_NODES))


def _too_long() -> str:
    return ngettext(
        "a comment has at most %(num)s character",
        "a comment has at most %(num)s characters",
        MAX_COMMENT,
    )


def _too_many_shapes() -> str:
    return _("a position has at most %(num)s shapes drawn on it", num=MAX_SHAPES)


def _new_chapter(start: _Start, rank: int, default_name: str) -> dict[str, Any]:
    at = now()
    return {
        "id": secrets.token_urlsafe(8),
        "rank": rank,
        "name": _title(start.name) if start.name.strip() else default_name,
        "game": start.game,
        "rules": start.rules,
        "start": start.start,
        "tags": json.dumps(start.tags, ensure_ascii=False),
        "tree": json.dumps(start.tree.as_json(), ensure_ascii=False),
        "nodes": sum(1 for _node in start.tree.nodes()),
        "version": 0,
        "created": at,
        "updated": at,
    }


def _bumped(connection: Connection, study_id: str, **changes: object) -> None:
    """The study's version one higher (and ``changes``), in the caller's transaction."""
    connection.execute(
        update(StudyRow)
        .where(StudyRow.id == study_id)
        .values(version=StudyRow.version + 1, updated=now(), **changes)
    )


def _save(connection: Connection, chapter: ChapterRow, tree: str, nodes: int) -> bool:
    """Store a chapter's new tree if it is still at the version read; whether it was."""
    done = connection.execute(
        update(ChapterRow)
        .where(ChapterRow.id == chapter.id, ChapterRow.version == chapter.version)
        .values(tree=tree, nodes=nodes, version=chapter.version + 1, updated=now())
    )
    if done.rowcount != 1:
        return False
    _bumped(connection, chapter.study_id)
    return True


def _brief(row: ChapterRow) -> ChapterBrief:
    return ChapterBrief(
        id=row.id,
        name=row.name,
        game=row.game,
        rules=row.rules,
        rules_title=rules_title(row.game, row.rules),
        version=row.version,
    )


def _chapter_view(row: ChapterRow) -> ChapterView:
    return ChapterView(
        **dict(_brief(row)),
        study=row.study_id,
        start=row.start,
        tags=json.loads(row.tags),
        tree=json.loads(row.tree),
    )


# --- the changes of a tree ------------------------------------------------------------------------
def _apply(chapter: ChapterRow, tree: GameTree, change: Change) -> tuple[Change, list[str]]:
    """Apply ``change`` to ``tree`` (a chapter's); the change as stored and the path the
    reader is left at; 400 saying why it cannot be."""
    path = list(change.path)
    node = tree.find(path)
    if path and node is None:
        raise ActionError(
            400, _("this chapter has no move %(path)s (changed meanwhile?)", path=" ".join(path))
        )
    if isinstance(change, MoveChange):
        state = state_of(chapter.game, chapter.rules, chapter.start, path)
        try:
            notation = str(state.push(change.move))
        except LudotecaError as error:
            raise ActionError(400, str(error)) from None
        children = node.children if node is not None else tree.children
        if not any(child.move == notation for child in children):
            children.append(Node(notation))
        return change.model_copy(update={"move": notation}), [*path, notation]
    if isinstance(change, CommentChange):
        if node is None:
            tree.comment = change.comment
        else:
            node.comment = change.comment
        return change, path
    if isinstance(change, ShapesChange):
        points = set(rule_set(chapter.game, chapter.rules).board.points)
        shapes: list[Shape] = []
        for given in change.shapes:
            for point in filter(None, (given.orig, given.dest)):
                if point not in points:
                    raise ActionError(
                        400,
                        _(
                            "%(point)s is not a point of this board: no shape there",
                            point=repr(point),
                        ),
                    )
            shape = Shape(given.brush, given.orig, given.dest or "")
            if shape not in shapes:
                shapes.append(shape)
        (tree if node is None else node).shapes = shapes
        return change, path
    if node is None:  # (the start has no mark, cannot be deleted or promoted)
        raise ActionError(400, _("choose a move first"))
    if isinstance(change, MarkChange):
        node.mark = change.mark
        return change, path
    if isinstance(change, DeleteChange):
        parent = tree.find(path[:-1])
        siblings = parent.children if parent is not None else tree.children
        siblings.remove(node)
        return change, path[:-1]
    assert isinstance(change, PromoteChange)
    _promote(tree, path)
    return change, path


def _promote(tree: GameTree, path: Iterable[str]) -> None:
    """Make each move of ``path`` its parent's main continuation."""
    children = tree.children
    for move in path:
        node = next(child for child in children if child.move == move)
        children.remove(node)
        children.insert(0, node)
        children = node.children


def chapter_record(title: str, chapter: ChapterRow) -> str:
    """A chapter as a text record: the study's title and the chapter's name as tags (``Study``,
    ``Chapter``), its record's tags, its start, its tree whole; the result the main line's end
    says, else the one the chapter came with."""
    tree = GameTree.from_json(json.loads(chapter.tree))
    end = state_of(chapter.game, chapter.rules, chapter.start, [])
    for node in tree.main_line():
        end.push(node.move)
    tags: dict[str, str] = json.loads(chapter.tags)
    extra = {"Study": title, "Chapter": chapter.name}
    extra.update(
        (k, v)
        for k, v in tags.items()
        if k not in ("White", "Black", "Date", "Result", "Termination")
    )
    record = from_state(
        end,
        white=tags.get("White", "?"),
        black=tags.get("Black", "?"),
        date=tags.get("Date"),
        result=tags.get("Result"),
        termination=_termination(tags["Termination"]) if "Termination" in tags else None,
        extra=extra,
    )
    record.tree = tree
    return dumps(record)
