"""The studies' JSON (see :mod:`.studies` and ``docs/web.md``): what the routes and the study's
websocket read (a study's and a chapter's settings, the changes of a chapter's tree) and what
they answer, as pydantic models."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from .analysis import MAX_MOVES
from .board_records import MAX_COMMENT, MAX_SHAPES, TreeShape

__all__ = [
    "Change",
    "ChangeDone",
    "ChangeMessage",
    "ChapterBody",
    "ChapterBrief",
    "ChapterChange",
    "ChapterEdit",
    "ChapterMessage",
    "ChapterOpen",
    "ChapterView",
    "CommentChange",
    "ContributorAt",
    "ContributorPosition",
    "Contributors",
    "DeleteChange",
    "MarkChange",
    "MoveChange",
    "PromoteChange",
    "RecordsBody",
    "ShapesChange",
    "StudyBody",
    "StudyBrief",
    "StudyCreated",
    "StudyEdit",
    "StudyErrorMessage",
    "StudyIncoming",
    "StudyList",
    "StudyMessage",
    "StudyMessageAdapter",
    "StudyOutgoing",
    "StudyView",
    "Visibility",
]

Visibility = Literal["public", "unlisted", "private"]
#: the moves from a chapter's start to one of its positions (``[]``: the start)
Path = list[Annotated[str, Field(max_length=64)]]
PATH: Any = Field(default_factory=list, max_length=MAX_MOVES)
MAX_TITLE = 100


class ChapterBody(BaseModel):
    """A new chapter: its name and rule set, and its start: a ``position`` code, a text
    ``record`` (its moves, variations, comments and shapes come with it) or the ``game_id``
    of a finished game of the server; at most one of them (none: the rule set's usual
    start)."""

    name: str = Field(default="", max_length=MAX_TITLE)
    game: str | None = Field(default=None, max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    position: str | None = Field(default=None, max_length=2000)
    record: str | None = Field(default=None, max_length=200_000)
    game_id: str | None = Field(default=None, max_length=64)


class StudyBody(BaseModel):
    """A new study: its title, who may see it and its first chapter (the default game's usual
    start when absent)."""

    title: str = Field(min_length=1, max_length=MAX_TITLE)
    visibility: Visibility = "public"
    chapter: ChapterBody | None = None


class StudyEdit(BaseModel):
    """A study's new title or visibility (what is absent stays)."""

    title: str | None = Field(default=None, min_length=1, max_length=MAX_TITLE)
    visibility: Visibility | None = None


class Contributors(BaseModel):
    """The accounts, by name, that edit a study beside its owner (the whole list)."""

    names: list[Annotated[str, Field(max_length=40)]] = Field(max_length=100)


class ChapterEdit(BaseModel):
    """A chapter's new name."""

    name: str = Field(min_length=1, max_length=MAX_TITLE)


class RecordsBody(BaseModel):
    """Game records, one after another (``docs/formats.md``): a chapter each."""

    records: str = Field(max_length=200_000)


class MoveChange(BaseModel):
    """Play ``move`` after the position ``path`` leads to: a new move of the tree (a
    variation when that position has a move already), or the one there."""

    op: Literal["move"]
    path: Path = PATH
    move: str = Field(max_length=64)


class DeleteChange(BaseModel):
    """Delete the move ``path`` leads to and everything after it."""

    op: Literal["delete"]
    path: Path = PATH


class PromoteChange(BaseModel):
    """Make the line to ``path`` the main line."""

    op: Literal["promote"]
    path: Path = PATH


class CommentChange(BaseModel):
    """The comment on the move ``path`` leads to (``[]``: before the first move)."""

    op: Literal["comment"]
    path: Path = PATH
    comment: str = Field(max_length=MAX_COMMENT)


class MarkChange(BaseModel):
    """The mark of the move ``path`` leads to (``""``: none)."""

    op: Literal["mark"]
    path: Path = PATH
    mark: Literal["", "!", "?", "!!", "??", "!?", "?!"]


class ShapesChange(BaseModel):
    """The shapes drawn on the position ``path`` leads to (the whole list)."""

    op: Literal["shapes"]
    path: Path = PATH
    shapes: list[TreeShape] = Field(max_length=MAX_SHAPES)


#: a change of a chapter's tree
Change = Annotated[
    MoveChange | DeleteChange | PromoteChange | CommentChange | MarkChange | ShapesChange,
    Field(discriminator="op"),
]


class ChapterBrief(BaseModel):
    """A chapter in its study's list: its rule set (and its title) and version."""

    id: str
    name: str
    game: str
    rules: str
    rules_title: str
    version: int


class StudyBrief(BaseModel):
    """A study in a list."""

    id: str
    title: str
    visibility: Visibility
    owner: str
    chapters: int
    updated: str


class StudyList(BaseModel):
    """The studies of the reader (owned or contributed to) and the latest public ones."""

    mine: list[StudyBrief]
    public: list[StudyBrief]


class StudyView(BaseModel):
    """A study as its page shows it to a reader: its settings, contributors (names) and
    chapters, its version, and what the reader may do (``editor``: change its chapters,
    ``owner``: its settings and contributors too)."""

    id: str
    title: str
    visibility: Visibility
    owner: str
    contributors: list[str]
    chapters: list[ChapterBrief]
    version: int
    editor: bool
    owned: bool


class StudyCreated(BaseModel):
    """A new study's id and page."""

    id: str
    url: str


class ChapterView(ChapterBrief):
    """A chapter whole: its start (a position code), its record's tags and its tree
    (``ludoteca.gametree``'s JSON form)."""

    study: str
    start: str
    tags: dict[str, str]
    tree: dict[str, Any]


class ChangeDone(BaseModel):
    """A change stored: the chapter, its new version, the change as stored (a move in the
    engine's notation) and the position it leaves the reader at (a new move's own path, a
    deleted move's parent's)."""

    chapter: str
    version: int
    change: Change
    path: list[str]


# --- the study's websocket ---------------------------------------------------------------


class ChapterOpen(BaseModel):
    """Send me this chapter whole (``""``: the first)."""

    type: Literal["open"]
    chapter: str = Field(default="", max_length=16)


class ChapterChange(BaseModel):
    """Change this chapter (a contributor)."""

    type: Literal["change"]
    chapter: str = Field(max_length=16)
    change: Change


class ContributorAt(BaseModel):
    """I (a contributor) am on this position: those who follow go there too."""

    type: Literal["where"]
    chapter: str = Field(max_length=16)
    path: Path = PATH


#: a message a page sends on a study's websocket
StudyIncoming = Annotated[ChapterOpen | ChapterChange | ContributorAt, Field(discriminator="type")]
StudyMessageAdapter = TypeAdapter[ChapterOpen | ChapterChange | ContributorAt](StudyIncoming)


class StudyMessage(BaseModel):
    """The study (at once, and again whenever its settings, contributors or chapters' list
    change, or another process changed it)."""

    type: Literal["study"] = "study"
    study: StudyView


class ChapterMessage(BaseModel):
    """A chapter whole (the answer to ``open``)."""

    type: Literal["chapter"] = "chapter"
    chapter: ChapterView


class ChangeMessage(ChangeDone):
    """A change of a chapter's tree, stored, told to everyone on the study's page; ``by``: who
    made it."""

    type: Literal["change"] = "change"
    by: str


class ContributorPosition(BaseModel):
    """ContributorAt a contributor is (``by``): a chapter and the path to a position."""

    type: Literal["position"] = "position"
    chapter: str
    path: list[str]
    by: str


class StudyErrorMessage(BaseModel):
    """Why the sender's last message was refused, in a sentence."""

    type: Literal["error"] = "error"
    message: str


#: a message a study's websocket sends
StudyOutgoing = Annotated[
    StudyMessage | ChapterMessage | ChangeMessage | ContributorPosition | StudyErrorMessage,
    Field(discriminator="type"),
]
