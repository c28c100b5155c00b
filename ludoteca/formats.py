"""The record formats Ludoteca reads and writes: its own (:mod:`ludoteca.record`) and other
programs', each turned into a native :class:`~ludoteca.record.GameRecord` and back.

>>> [f.name for f in FORMATS.values()]
['ludoteca', 'sanmill', 'mif', 'boardspace']

A format knows how to recognise its text (:func:`detect` tries each in turn), read it and
write a record.  The readers of one game's records live in that game's package
(:mod:`ludoteca.games.morris.sanmill`, :mod:`ludoteca.games.morris.mif`,
:mod:`ludoteca.games.morelli.boardspace`); this module
only registers them.  Every reader replays every move through our engine, so a record read is
a legal game, and a bad one raises :class:`~ludoteca.core.InvalidRecordError` naming its place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import record
from .core import InvalidRecordError
from .games.morelli import boardspace
from .games.morris import mif, sanmill
from .i18n import N_, Text

__all__ = ["FORMATS", "Format", "detect", "dumps", "format_of", "loads", "loads_all"]


@dataclass(frozen=True)
class Format:
    """A record format: its ``name`` (for ``--to``/``--from``), ``title``, the games it holds,
    a test of a text, a reader (text, rule set or ``None`` → records) and a writer."""

    name: str
    title: str
    games: tuple[str, ...]
    detect: Callable[[str], bool]
    read: Callable[[str, str | None], list[record.GameRecord]]
    write: Callable[[record.GameRecord], str]


def _read_native(text: str, rules: str | None) -> list[record.GameRecord]:
    games = list(record.read_games(text.splitlines(keepends=True)))
    if rules is not None:
        games = [_with_rules(game, rules) for game in games]
    return games


def _with_rules(game: record.GameRecord, rules: str) -> record.GameRecord:
    tags = {**game.tags, "Rules": rules}
    return record.from_json({**record.to_json(game), "tags": tags})


def _detect_native(text: str) -> bool:
    return any(line.strip().startswith("[Game ") for line in text.splitlines()[:50] if line.strip())


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(
            "ludoteca",
            N_("Ludoteca record"),
            ("morris", "felli", "morelli"),
            _detect_native,
            _read_native,
            record.dumps,
        ),
        Format(
            "sanmill",
            N_("Sanmill move list"),
            ("morris",),
            sanmill.detect,
            lambda text, rules: [sanmill.loads(text, rules)],
            sanmill.dumps,
        ),
        Format(
            "mif",
            N_("Mill Interchange Format record (MSTATE)"),
            ("morris",),
            mif.detect,
            lambda text, rules: [mif.loads(text, rules)],
            mif.dumps,
        ),
        Format(
            "boardspace",
            N_("Boardspace Morelli record"),
            ("morelli",),
            boardspace.detect,
            lambda text, rules: [boardspace.loads(text, rules)],
            boardspace.dumps,
        ),
    )
}


def format_of(name: str) -> Format:
    """The format called ``name`` (any case); :class:`InvalidRecordError` naming the known
    ones otherwise."""
    found = FORMATS.get(name.strip().lower())
    if found is None:
        raise InvalidRecordError(
            Text(
                "unknown record format %(name)s (known: %(known)s)",
                name=repr(name),
                known=", ".join(FORMATS),
            )
        )
    return found


def detect(text: str) -> Format:
    """The format of ``text``: the first whose test it passes; :class:`InvalidRecordError`
    with one sentence when none does."""
    for candidate in FORMATS.values():
        if candidate.detect(text):
            return candidate
    raise InvalidRecordError(
        Text(
            "this text is in no record format Ludoteca reads (it reads %(known)s)",
            known=", ".join(str(Text(f.title)) for f in FORMATS.values()),
        )
    )


def loads_all(
    text: str, fmt: str | None = None, rules: str | None = None
) -> tuple[Format, list[record.GameRecord]]:
    """Every game of ``text`` in format ``fmt`` (guessed from the text when ``None``), with the
    rule set ``rules`` when given (a foreign record that does not name its rules has them
    inferred); and the format read."""
    found = format_of(fmt) if fmt else detect(text)
    games = found.read(text, rules)
    if not games:
        raise InvalidRecordError(Text("no game record found"))
    return found, games


def loads(text: str, fmt: str | None = None, rules: str | None = None) -> record.GameRecord:
    """Exactly one game from ``text`` in any format (see :func:`loads_all`)."""
    _, games = loads_all(text, fmt, rules)
    if len(games) != 1:
        raise InvalidRecordError(
            Text("expected one game record, found %(count)s", count=len(games))
        )
    return games[0]


def dumps(game: record.GameRecord, fmt: str) -> str:
    """The text of ``game`` in format ``fmt``; :class:`InvalidRecordError` when the format
    cannot hold it (another game, a rule set or start it does not know), saying why."""
    found = format_of(fmt)
    if game.state.game.name not in found.games:
        raise InvalidRecordError(
            Text(
                "a %(title)s cannot hold a game of %(game)s",
                title=Text(found.title),
                game=game.state.game.name,
            )
        )
    return found.write(game)
