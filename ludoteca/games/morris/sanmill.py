"""Sanmill's move lists, read into native records and written from them.

Sanmill (github.com/calcitem/Sanmill) exports a game as PGN-like text: PGN tags (``Event``,
``Site``, ``Date``, ``Round``, ``White``, ``Black``, ``Result``, ``Variant`` for some of its
presets, ``PlyCount``; ``FEN`` and ``SetUp`` for a game from a set-up position), then the moves
with move numbers, ``{comments}``, marks (``!``, ``?!``, ``$1`` …), variations in parentheses and
a result.  Its notation names the points as ours (``a1`` … ``g7``): a placement ``d6``, a move or
flight ``a1-a4``, and a removal ``xg7``, which Sanmill's export glues to the action before it (up
to three removals: ``d6xg7``, ``a1-a4xg7``, as ours; ``d6xg7xa1`` for a move that takes two men,
or for a removal alone after a move, such as a full board's) and its other lists write as a
token of its own (``d6 xg7``; ``xg7`` with no move before it).  Reading splits every word into
its actions and joins them into our moves by replaying them (:func:`_joined`: a removal is its
move's when that move closed a mill, else a removal alone, ours ``xg7``); writing glues each
removal alone to the word before it, as Sanmill's export does.

The rule set comes from ``rules`` when given, else from a ``LudotecaRules`` tag (ours, written
when the settings are not a preset's defaults, and for a custom rule set), else from the
``Variant`` tag (Sanmill's preset names, :data:`PRESETS`; its ``Custom`` says no options, so
such a record needs ``rules`` or our tag), else it is inferred: the first of :data:`INFERRED`
under which every move of the record is legal (a move list does not name its rules; a short
game legal under several is read as Nine Men's Morris).  Everything is then replayed by our
engine like a native record.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ...core import Color, InvalidRecordError, LudotecaError, RuleSet
from ...i18n import Text
from ...movetext import write
from ...record import GameRecord, build, escape_tag, wrap_words
from .. import family, load
from .actions import actions, awaits_removal
from .board import TWELVE
from .custom import CUSTOM
from .rules import MorrisRules, MorrisState

__all__ = ["INFERRED", "PRESETS", "detect", "dumps", "loads", "sanmill_options"]

#: Sanmill's preset names (its ``Variant`` tag) → our rule sets, where the rules agree
PRESETS: dict[str, str] = {
    "Nine Men's Morris": "morris",
    "Twelve Men's Morris": "morris-12",
    "Lasker Morris": "morris-lasker",
    "Cheng San Qi": "cheng-san-qi",
    "Cham Gonu": "cham-gonu",
    "Russian Mill": "one-time-mill",
    "One-Time Mill": "one-time-mill",
    "Zhi Qi": "zhi-qi",
    "Da San Qi": "da-san-qi",
    "El Filja": "el-filja",
    "Dooz": "dooz",
}
#: Sanmill's presets that Ludoteca does not play under Sanmill's rules
UNSUPPORTED = ("Morabaraba", "Mul-Mulan", "Nerenchi")
#: the rule sets tried, in order, for a record that does not name its rules
INFERRED = (
    "morris",
    "morris-12",
    "morris-lasker",
    "cheng-san-qi",
    "cham-gonu",
    "one-time-mill",
    "zhi-qi",
    "da-san-qi",
    "el-filja",
    "dooz",
)
#: the tag that carries our rule-set spec when it is not a preset's
RULES_TAG = "LudotecaRules"
#: Sanmill's ``Variant`` of a game under rules of its own (its "Custom" rule settings)
CUSTOM_VARIANT = "Custom"
#: the men a side Sanmill's rule settings offer (``piecesCount``)
SANMILL_MEN = range(9, 13)

_TAG_RE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN_RE = re.compile(r"\{[^}]*\}|[()]|[^\s(){}]+")
_POINT = r"[a-g][1-7]"
_NUMBER_RE = re.compile(r"\d+\.(?:\.\.)?|\d+\.{3}")
_WORD_RE = re.compile(rf"(?:\d+\.+)?(?=[a-gx])(?:{_POINT}(?:-{_POINT})?[!?]*)?(?:x{_POINT}[!?]*)*")
_OTHER = {"1-0", "0-1", "1/2-1/2", "*"}
_OURS = {"Game", "Rules", "Setup", "Position", "Termination"}


def detect(text: str) -> bool:
    """Whether ``text`` looks like a Sanmill move list: no ``Game`` tag (that is a native
    record), and a movetext whose every word is a move number, a move in Sanmill's notation,
    a removal, a mark, a result or a comment (at least one move)."""
    tags, body = _split(text)
    if any(name == "Game" for name, _ in _tags(tags)):
        return False
    moves = 0
    for _, token in _tokens(body):
        if token[0] in "{()" or token in _OTHER or _NUMBER_RE.fullmatch(token):
            continue
        if re.fullmatch(r"\$\d+|[!?]+", token):
            continue
        if not _WORD_RE.fullmatch(token):
            return False
        moves += 1
    return moves > 0


def loads(text: str, rules: str | None = None) -> GameRecord:
    """The native record of a Sanmill move list, every move replayed by our engine.

    ``rules`` (a rule-set spec of the Morris family) wins over what the record says.
    :class:`InvalidRecordError` names what is wrong: a preset Ludoteca does not play, a set-up
    position, or a move or removal that is not legal (its line and ply)."""
    tag_lines, body_lines = _split(text)
    tags: dict[str, str] = {}
    for name, value in _tags(tag_lines):
        tags[name] = value
    if "FEN" in tags:
        raise InvalidRecordError(
            Text("Sanmill records that start from a set-up position (FEN) are not supported")
        )
    variant = tags.pop("Variant", None)
    spec = tags.pop(RULES_TAG, None)
    tags.pop("PlyCount", None)
    tags.pop("SetUp", None)
    for name in _OURS:
        tags.pop(name, None)
    first = (tag_lines or body_lines or [(1, "")])[0][0]
    if rules is None and spec is None and variant is not None:
        spec = _preset(variant)
    candidates = [rules or spec] if rules or spec else _inferred()
    error: LudotecaError | None = None
    for candidate in candidates:
        assert candidate is not None
        game = load(candidate)
        if game.rules.game != "morris":
            raise InvalidRecordError(
                Text("%(rules)s is not a rule set of the mill family", rules=repr(candidate))
            )
        start = game.new()
        assert isinstance(start, MorrisState)
        try:
            return build(
                {"Game": "morris", "Rules": str(game.rules), **tags},
                _joined(body_lines, start),
                first,
                open_result=True,
            )
        except LudotecaError as failed:
            error = error or failed
    assert error is not None
    raise error


def dumps(record: GameRecord) -> str:
    """A record of the mill family as Sanmill's move list (its tags, the moves with a removal
    glued to its move, comments, marks and variations); :class:`InvalidRecordError` for a game
    Sanmill cannot hold (another game, a rule set Sanmill plays differently, a set-up start)."""
    rules = record.state.rules
    if rules.game != "morris":
        raise InvalidRecordError(
            Text(
                "Sanmill's move lists hold games of the mill family, not %(game)s",
                game=repr(rules.game),
            )
        )
    variant = next((name for name, ours in PRESETS.items() if ours == rules.name), None)
    if rules.name == CUSTOM:
        sanmill_options(rules)  # (Sanmill plays it: its Custom rule settings have these rules)
        variant = CUSTOM_VARIANT
    if variant is None:
        raise InvalidRecordError(
            Text(
                "Sanmill plays no preset with the rules of %(rules)s (it has: %(presets)s)",
                rules=repr(str(rules)),
                presets=", ".join(PRESETS),
            )
        )
    start = record.start()
    if start.position_code() != start.game.new().position_code():
        raise InvalidRecordError(
            Text("a game from a set-up position cannot be written as a Sanmill move list")
        )
    tags = {
        "Event": record.tags.get("Event", "?"),
        "Site": record.tags.get("Site", "?"),
        "Date": record.tags.get("Date", "?"),
    }
    if "Round" in record.tags:
        tags["Round"] = record.tags["Round"]
    tags["White"] = record.tags.get("White", "?")
    tags["Black"] = record.tags.get("Black", "?")
    tags["Result"] = record.result
    tags["Variant"] = variant
    if rules.name == CUSTOM or rules.settings != load(rules.name).rules.settings:
        tags[RULES_TAG] = str(rules)
    tags["PlyCount"] = str(sum(len(actions(move)) for move in record.moves))
    for name, value in record.tags.items():
        if name not in tags and name not in _OURS:
            tags[name] = value
    if "Termination" in record.tags:
        tags["Termination"] = record.tags["Termination"]
    head = "\n".join(f'[{name} "{escape_tag(value)}"]' for name, value in tags.items())
    words = [*_glued(write(record.tree, start.ply)), record.result]
    return head + "\n\n" + wrap_words(words) + "\n"


#: the removals Sanmill's export glues to the action before them, at most
GLUED = 3


def _glued(words: list[str]) -> list[str]:
    """Our movetext's words with each removal alone (``xg7``, with its mark) glued to the word
    before it when that is a move of the same line (no comment, number or parenthesis between)
    holding fewer than :data:`GLUED` removals, as Sanmill's export writes them; its number
    (ours, by ply) dropped then."""
    out: list[str] = []
    for word in words:
        alone = re.fullmatch(rf"x{_POINT}[!?]*", word)
        if alone and out and _NUMBER_RE.fullmatch(out[-1]) and len(out) > 1:
            previous = out[-2]
            if _WORD_RE.fullmatch(previous) and previous.count("x") < GLUED:
                out.pop()
        if alone and out and _WORD_RE.fullmatch(out[-1]) and out[-1].count("x") < GLUED:
            out[-1] += word
            continue
        out.append(word)
    return out


def sanmill_options(rules: RuleSet) -> dict[str, str]:
    """The rule options of Sanmill's rule settings (its ``RuleSettings`` names and values, the
    others at Sanmill's defaults) that play a rule set of the mill family as we do;
    :class:`InvalidRecordError` naming the setting of ours Sanmill has no option for: the board
    of 16 points (``board=6``), Black placing first (``black_first``: Sanmill's White always
    does), men outside its 9 to 12 (``men``), a repetition draw other than the third occurrence
    (``repetition``), a three men rule not below the move rule (``three_men_rule``: Sanmill's
    ``endgameNMoveRule`` counts only below its ``nMoveRule``), and the combinations its options
    cannot hold (:func:`unmapped`)."""
    variant = load(rules).variant  # type: ignore[attr-defined]
    settings = rules.settings
    spec = repr(str(rules))
    if variant.board.size != 24:
        raise InvalidRecordError(
            Text("Sanmill has no board of 16 points (%(rules)s: board=6)", rules=spec)
        )
    if variant.first is not Color.WHITE:
        raise InvalidRecordError(
            Text("Sanmill's White always places first (%(rules)s: black_first)", rules=spec)
        )
    if variant.men not in SANMILL_MEN:
        raise InvalidRecordError(
            Text(
                "Sanmill's piecesCount is 9 to 12 men a side (%(rules)s: men=%(men)s)",
                rules=spec,
                men=variant.men,
            )
        )
    repetition = int(settings["repetition"])
    if repetition not in (0, 3):
        raise InvalidRecordError(
            Text(
                "Sanmill draws at the third occurrence of a position or never (%(rules)s: "
                "repetition=%(count)s)",
                rules=spec,
                count=repetition,
            )
        )
    move_rule, three_men = int(settings["move_rule"]), int(settings.get("three_men_rule", 0))
    if three_men and not 0 < three_men < move_rule:
        raise InvalidRecordError(
            Text(
                "Sanmill's endgameNMoveRule counts only below its nMoveRule (%(rules)s: "
                "three_men_rule=%(three)s, move_rule=%(moves)s)",
                rules=spec,
                three=three_men,
                moves=move_rule,
            )
        )
    unwritten = unmapped(variant)
    if unwritten:
        raise InvalidRecordError(
            Text(
                "Sanmill's rule options cannot hold %(rules)s: its %(options)s has no value "
                "for it (a mill while placing that both marks and takes from the hand, or a "
                "full board that the second player loses)",
                rules=spec,
                options=", ".join(unwritten),
            )
        )
    return {
        "piecesCount": str(variant.men),
        "hasDiagonalLines": str(variant.board is TWELVE).lower(),
        "mayFly": str(bool(settings["flying"])).lower(),
        "flyPieceCount": "3",
        "mayMoveInPlacingPhase": str(variant.lasker).lower(),
        "millFormationActionInPlacingPhase": placing_mill(variant),
        "mayRemoveMultiple": str(variant.multiple_removals).lower(),
        "mayRemoveFromMillsAlways": str(variant.remove_from_mills).lower(),
        "oneTimeUseMill": str(variant.one_time_mills).lower(),
        "isDefenderMoveFirst": str(variant.defender_first).lower(),
        "boardFullAction": full_board_action(variant),
        "threefoldRepetitionRule": str(bool(repetition)).lower(),
        "nMoveRule": str(move_rule),
        "endgameNMoveRule": str(three_men or move_rule),
    }


def unmapped(variant: MorrisRules) -> list[str]:
    """Sanmill's rule options (its ``RuleSettings`` names) that have no value for the rules of
    ``variant`` (empty when Sanmill's options hold them all): ``millFormationActionInPlacingPhase``
    when a mill while placing both marks and takes from the hand (one option, one action), and
    ``boardFullAction`` for a board that can be full when the defender moves first and a full
    board does nothing special (the second player, to move, cannot move and loses; Sanmill's
    ``firstPlayerLose`` would have the first player lose).  Every other rule maps one to one
    (:func:`placing_mill`, :func:`full_board_action`)."""
    found = []
    if variant.marking and variant.hand_removal:
        found.append("millFormationActionInPlacingPhase")
    fillable = 2 * variant.men == variant.board.size
    if variant.defender_first and fillable and not variant.full_board:
        found.append("boardFullAction")
    return found


def placing_mill(variant: MorrisRules) -> str:
    """Sanmill's ``millFormationActionInPlacingPhase`` for ``variant``: what a mill closed by
    placing a man does (its enum's names, the same in the app and the engine):
    ``markAndDelayRemovingPieces`` (marking), ``removeOpponentsPieceFromHandThenOpponentsTurn``
    (removal from the hand), ``removalBasedOnMillCounts`` (removals by mill counts), else
    ``removeOpponentsPieceFromBoard``."""
    if variant.mill_counts:
        return "removalBasedOnMillCounts"
    if variant.hand_removal:
        return "removeOpponentsPieceFromHandThenOpponentsTurn"
    if variant.marking:
        return "markAndDelayRemovingPieces"
    return "removeOpponentsPieceFromBoard"


def full_board_action(variant: MorrisRules) -> str:
    """Sanmill's ``boardFullAction`` for ``variant`` (its enum's names), as its engine plays
    them (``put_piece`` and ``remove_piece`` at ``77209bd``) after the last man is placed on a
    full board, the last placer (our second player) to move: ``agreeToDraw`` for ``draw``;
    ``firstPlayerLose`` for ``""`` and ``first-loses`` (White, to move, cannot move: the same
    loser); ``sideToMoveRemovePiece`` for ``first-removes`` (the player who moves first,
    by ``isDefenderMoveFirst``, removes, then the other moves);
    ``firstAndSecondPlayerRemovePiece`` for ``both-remove`` (the player after the last placer
    removes, then the last placer, then the first moves) and
    ``secondAndFirstPlayerRemovePiece`` for it when the defender moves first (the last
    placer, who moves first, removes first)."""
    if variant.full_board == "draw":
        return "agreeToDraw"
    if variant.full_board == "first-removes":
        return "sideToMoveRemovePiece"
    if variant.full_board == "both-remove":
        if variant.defender_first:
            return "secondAndFirstPlayerRemovePiece"
        return "firstAndSecondPlayerRemovePiece"
    return "firstPlayerLose"


# --- helpers -----------------------------------------------------------------------------------
def _split(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The numbered tag lines and movetext lines of the text (a BOM and CRs dropped)."""
    tags: list[tuple[int, str]] = []
    body: list[tuple[int, str]] = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("[") and not body:
            tags.append((number, stripped))
        else:
            body.append((number, stripped))
    return tags, body


def _tags(lines: list[tuple[int, str]]) -> Iterator[tuple[str, str]]:
    for number, text in lines:
        found = list(_TAG_RE.finditer(text))
        if not found:
            raise InvalidRecordError(
                Text("line %(line)s: malformed tag %(tag)s", line=number, tag=repr(text))
            )
        for m in found:
            yield m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))


def _tokens(lines: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """Each token with the index of the line it starts on (a comment may span lines)."""
    text = "\n".join(line for _, line in lines)
    starts = [0]
    for _, line in lines:
        starts.append(starts[-1] + len(line) + 1)
    index = 0
    for m in _TOKEN_RE.finditer(text):
        while starts[index + 1] <= m.start():
            index += 1
        yield index, m.group(0).replace("\n", " ")


_SEGMENT_RE = re.compile(rf"(x?{_POINT}(?:-{_POINT})?)([!?]*)")


@dataclass
class _Play:
    """A line of play being joined: its position (``None`` once a token could not be
    followed: the replay then names it), the position before its last move, and a placement
    or move waiting for its mill's removal (its text, marks, line index, comments held)."""

    state: MorrisState | None
    before: MorrisState | None = None
    pending: tuple[str, str, int, list[str]] | None = None


class _Joiner:
    """Sanmill's actions joined into our moves, line by line of the movetext (:func:`_joined`)."""

    def __init__(self, count: int, start: MorrisState) -> None:
        self.words: list[list[str]] = [[] for _ in range(count)]
        self.plays = [_Play(start.copy())]

    def token(self, index: int, token: str) -> None:
        """Take one token of the movetext, found on line index ``index``."""
        play = self.plays[-1]
        word = re.sub(r"^\d+\.+", "", token)
        segments = _SEGMENT_RE.findall(word) if word and _WORD_RE.fullmatch(token) else []
        if segments:
            for text, marks in segments:
                self.action(play, text, marks, index)
            return
        if token[0] == "{" and play.pending is not None:
            play.pending[3].append(token)  # a comment inside a move: after it
            return
        self.flush(play)
        self.words[index].append(token)
        if token == "(":
            self.plays.append(_Play(play.before.copy() if play.before is not None else None))
        elif token == ")" and len(self.plays) > 1:
            self.plays.pop()

    def action(self, play: _Play, text: str, marks: str, index: int) -> None:
        """One action: a removal joins the placement or move waiting for it, or is a removal
        alone; a placement or move whose every legal form takes a man waits for its removal."""
        if text.startswith("x") and play.pending is not None:
            base, before, at, held = play.pending
            play.pending = None
            self.emit(play, base + text, before + marks, at, held)
            return
        self.flush(play)
        state = play.state
        if text.startswith("x") or state is None:
            self.emit(play, text, marks, index)
            return
        if awaits_removal(state, text):
            play.pending = (text, marks, index, [])
        else:
            self.emit(play, text, marks, index)

    def flush(self, play: _Play) -> None:
        """Write the move still waiting for a removal as it is (the replay names it)."""
        if play.pending is not None:
            text, marks, index, held = play.pending
            play.pending = None
            self.emit(play, text, marks, index, held)

    def emit(
        self, play: _Play, move: str, marks: str, index: int, comments: Sequence[str] = ()
    ) -> None:
        """Write ``move`` (with a mark: the last of ``marks``) and ``comments`` on line index
        ``index``, and play it, if it can be."""
        mark = re.findall(r"[!?]+", marks)
        self.words[index].append(move + (mark[-1] if mark else ""))
        self.words[index].extend(comments)
        if play.state is None:
            return
        before = play.state.copy()
        try:
            play.state.push(move)
        except LudotecaError:
            play.state = None
        else:
            play.before = before


def _joined(lines: list[tuple[int, str]], start: MorrisState) -> list[tuple[int, str]]:
    """The movetext lines in our notation: Sanmill's actions (a placement or move, a removal
    ``xg7``, glued in one word or apart) joined into our moves by replaying them from
    ``start``, each line of play (the main line, each variation) on its own: a removal joins
    the placement or move before it when that one closed a mill and takes a man
    (``d6xg7``), else it is a removal alone (``xg7``: the second of a double mill, a full
    board's, the mill counts', a man of one's own).  A token that cannot be followed is left
    as written (and the rest of its line), for the replay to name with its line and ply."""
    joiner = _Joiner(len(lines), start)
    for index, token in _tokens(lines):
        joiner.token(index, token)
    for play in joiner.plays:
        joiner.flush(play)
    return [(lines[i][0], " ".join(words)) for i, words in enumerate(joiner.words) if words]


def _preset(variant: str) -> str:
    """Our rule set for a Sanmill ``Variant``; :class:`InvalidRecordError` naming it when we
    do not play it, or asking for the rules of a ``Custom`` record."""
    if variant.strip().lower() == CUSTOM_VARIANT.lower():
        raise InvalidRecordError(
            Text(
                "Sanmill's Custom move lists do not say their rule options: give them as a "
                "custom rule set (--rules morris-custom:..., docs/rules.md)"
            )
        )
    for name, ours in PRESETS.items():
        if variant.strip().lower() == name.lower() and ours in _known():
            return ours
    raise InvalidRecordError(
        Text(
            "Sanmill's rule set %(variant)s is not played by Ludoteca (it reads: %(presets)s)",
            variant=repr(variant),
            presets=", ".join(name for name, ours in PRESETS.items() if ours in _known()),
        )
    )


def _known() -> list[str]:
    return family("morris").rule_set_names()


def _inferred() -> list[str]:
    known = _known()
    return [name for name in INFERRED if name in known]
