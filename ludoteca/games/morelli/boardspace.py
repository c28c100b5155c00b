"""Boardspace's Morelli game records (``.sgf``), read into native records and written from
them.

Boardspace (boardspace.net) keeps a game as SGF-like text: a root node with ``GM[Morelli]``,
``SU[VARIATION KEY REVISION SETUP]`` (``morelli-13``, ``morelli-11`` or ``morelli-9``; the game's
random key; the revision of its rules code; the setup's name), ``P0[id "NAME"]`` and
``P1[id "NAME"]``, perhaps ``RE``, ``DT``, ``GN`` …; then one node a history step, each a
property of the player who made it, ``P0[12 Move A 4 E 4]`` (a step number, then the move
spec): ``Start P0``, ``Move C R C R`` (from column and row to column and row), or ``Pickb C R``
and ``Dropb C R`` (the same move by hand), ``Done`` (the move confirmed), ``Choose SETUP``,
``Resign``, ``Edit``; a ``C[...]`` property is a comment.

P0 owns the first stones (Boardspace's dark ones) and moves first, unless (rules revision 101)
P0 passes its first turn and P1 takes the first move: the player who moves first is our Black.
The setup is dealt as Boardspace deals it (:mod:`.setups`; its rules code read to learn them,
never copied): Adjacent, Opposing, Blocks and Free are fixed; Random and RandomOpposite
(Boardspace's default since revision 102) come from Java's documented ``java.util.Random``
seeded with the game's random key.  A record read is a game of the rule set with that setup
(``morelli-9:setup=opposing``); the ``Setup`` tag holds the setup itself.

Writing keeps the record's own ``SU`` (its ``BoardspaceSetup`` tag, when it came from
Boardspace) where it deals the setup; else it gives ``SU[… KEY 102 RandomOpposite]`` with a key
found that deals it, or the fixed setup's name; then a ``Move`` and a ``Done`` for each move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core import InvalidRecordError, LudotecaError, RuleSet, Termination
from ...i18n import Text
from ...record import GameRecord, build
from .. import load
from . import setups
from .board import LETTERS, geometry
from .rules import Morelli

__all__ = [
    "SETUPS",
    "JavaRandom",
    "detect",
    "dumps",
    "find_key",
    "first_mover",
    "loads",
    "move_spec",
    "read_move_spec",
    "setup_board",
]

#: Boardspace's variations → our rule sets
VARIATIONS = {"morelli-13": "morelli", "morelli-11": "morelli-11", "morelli-9": "morelli-9"}
#: Boardspace's setups, in its order (``Choose`` and old records number them so)
SETUPS = tuple(setups.NAMES[kind] for kind in setups.KINDS)
#: Boardspace's setups' names (in lower case) → our setup kinds
_KINDS = {name.lower(): kind for kind, name in setups.NAMES.items()}
#: the tag that keeps a Boardspace record's ``SU`` value, for writing it back
SETUP_TAG = "BoardspaceSetup"
_MULTIPLIER = 0x5DEECE66D
_MASK = (1 << 48) - 1
_PROPERTY_RE = re.compile(r"\s*([A-Za-z][A-Za-z0-9]*)\s*((?:\[(?:[^\]\\]|\\.)*\]\s*)+)", re.S)
_VALUE_RE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)
_ROOT = {"GM", "VV", "SU", "P0", "P1", "RE", "C"}
_MOVE_SPEC_RE = re.compile(r"(?:\d+\s+)?move\s+([a-m])\s+(\d{1,2})\s+([a-m])\s+(\d{1,2})", re.I)


class JavaRandom:
    """Java's ``java.util.Random`` as its documentation specifies it (the 48-bit linear
    congruential generator, ``next``, ``nextInt(bound)``), and Boardspace's ``shuffle`` of an
    int array (four passes, each position swapped with one drawn by ``nextInt``)."""

    def __init__(self, seed: int) -> None:
        self.seed = (seed ^ _MULTIPLIER) & _MASK

    def next(self, bits: int) -> int:
        self.seed = (self.seed * _MULTIPLIER + 0xB) & _MASK
        value = self.seed >> (48 - bits)
        return value - (1 << 32) if value >= 1 << 31 else value

    def next_int(self, bound: int) -> int:
        r = self.next(31)
        m = bound - 1
        if bound & m == 0:
            return (bound * r) >> 31
        u = r
        while True:
            r = u % bound
            if u - r + m < 1 << 31:  # Java's int overflow check
                return r
            u = self.next(31)

    def shuffle(self, values: list[int]) -> None:
        size = len(values)
        for _ in range(4):
            for i in range(size):
                j = self.next_int(size)
                values[i], values[j] = values[j], values[i]


def setup_board(n: int, key: int, revision: int, setup: str | None) -> tuple[str, str]:
    """The setup's Boardspace name and its setup string as Boardspace deals it for a board of
    side ``n``, a random key and a rules revision (``B``: P0's stones), ``setup`` the name the
    record gives (``None`` before revision 100: drawn from the key)."""
    rng = JavaRandom(key)
    first = 0 if revision >= 101 else rng.next_int(3)
    if setup is None:
        first = rng.next_int(4) if revision >= 101 else first
        setup = "RandomOpposite" if revision >= 102 else SETUPS[first]
    kind = _KINDS.get(setup.lower())
    if kind is None:
        raise InvalidRecordError(
            Text(
                "unknown Boardspace setup %(setup)s (known: %(known)s)",
                setup=repr(setup),
                known=", ".join(SETUPS),
            )
        )
    return setups.NAMES[kind], setups.deal(kind, n, rng)


def find_key(n: int, setup: str) -> int:
    """A random key for which Boardspace deals our ``setup`` string (B/W, the red squares
    clockwise from A1) as its RandomOpposite setup (revision 102): the key whose generator's
    first draws are the setup's colours, found by a vectorised search over the generator's
    states."""
    import numpy as np

    geo = geometry(n)
    names = geo.names
    colour = {names[s]: ch for s, ch in zip(geo.perimeter, setup, strict=True)}
    # the draws RandomOpposite makes, in order: A1..An, then B1..(n-2)1; 0 = P0's stone (B)
    wanted = [int(colour[f"A{i + 1}"] == "W") for i in range(n)]
    wanted += [int(colour[f"{LETTERS[i]}1"] == "W") for i in range(1, n - 1)]
    mult, mask = np.uint64(_MULTIPLIER), np.uint64(_MASK)
    chunk = 1 << 22
    for start in range(0, 1 << 48, chunk):
        states = np.arange(start, start + chunk, dtype=np.uint64)
        seeds = states
        for bit in wanted:
            states = (states * mult + np.uint64(0xB)) & mask
            keep = (states >> np.uint64(47)) == np.uint64(bit)
            states, seeds = states[keep], seeds[keep]
            if not len(seeds):
                break
        if len(seeds):
            return int(seeds[0]) ^ _MULTIPLIER
    raise AssertionError("no key found")  # pragma: no cover


# --- moves ----------------------------------------------------------------------------------------
def move_spec(move: str) -> str:
    """Boardspace's move spec of our move: ``A5-L5`` → ``Move A 5 L 5`` (a capture count
    ``x3`` and a ``K`` on our move are dropped: Boardspace's spec names the squares only)."""
    src, _, dst = move.strip().upper().rstrip("K").partition("-")
    dst = re.sub(r"X\d+$", "", dst)
    return f"Move {src[0]} {src[1:]} {dst[0]} {dst[1:]}"


def read_move_spec(spec: str) -> str:
    """Our move of Boardspace's move spec: ``Move A 5 L 5`` (a step number before it allowed)
    → ``A5-L5``; :class:`InvalidRecordError` for any other spec (``Done``, ``Resign``, a
    square off every board)."""
    m = _MOVE_SPEC_RE.fullmatch(spec.strip())
    if not m:
        raise InvalidRecordError(Text("unreadable Boardspace move spec %(spec)s", spec=repr(spec)))
    a, i, b, j = m.groups()
    return f"{_square(a, i)}-{_square(b, j)}"


# --- reading ------------------------------------------------------------------------------------
@dataclass
class _Node:
    properties: list[tuple[str, str, int]]  # (name, value, line)


def detect(text: str) -> bool:
    """Whether ``text`` looks like a Boardspace Morelli record: SGF whose root says
    ``GM[Morelli]`` or whose ``SU`` names a Morelli variation."""
    head = text.lstrip("\ufeff \t\r\n")
    return head.startswith("(") and bool(
        re.search(r"GM\s*\[\s*Morelli\s*\]|SU\s*\[\s*morelli-\d+", head[:4000], re.I)
    )


def loads(text: str, rules: str | None = None) -> GameRecord:
    """The native record of a Boardspace Morelli record, every move replayed by our engine;
    :class:`InvalidRecordError` names what is wrong (a variation or setup Ludoteca does not
    play, a move spec it cannot read, a move out of turn or not legal, with its line)."""
    nodes = _nodes(text)
    if not nodes:
        raise InvalidRecordError(Text("no SGF node in the Boardspace record"))
    root: dict[str, list[tuple[str, int]]] = {}
    for name, value, line in nodes[0].properties:
        root.setdefault(name, []).append((value, line))
    su = root.get("SU")
    if not su:
        raise InvalidRecordError(Text("the Boardspace record has no SU[...] naming its variation"))
    fields = su[0][0].split()
    variation = fields[0].lower() if fields else ""
    if variation not in VARIATIONS:
        raise InvalidRecordError(
            Text(
                "unknown Boardspace variation %(name)s (Ludoteca plays %(known)s)",
                name=repr(fields[0] if fields else ""),
                known=", ".join(VARIATIONS),
            )
        )
    try:
        key = int(fields[1]) if len(fields) > 1 else 0
        revision = int(fields[2]) if len(fields) > 2 else 102
    except ValueError:
        raise InvalidRecordError(
            Text("line %(line)s: malformed SU[%(value)s]", line=su[0][1], value=su[0][0])
        ) from None
    named = fields[3] if revision >= 100 and len(fields) > 3 else None
    n = int(variation.partition("-")[2])
    game = load(rules or VARIATIONS[variation])
    if not isinstance(game, Morelli) or game.size != n:
        raise InvalidRecordError(
            Text(
                "%(rules)s is not a rule set for Boardspace's %(variation)s",
                rules=repr(rules),
                variation=variation,
            )
        )
    setup, dealt = setup_board(n, key, revision, named)
    names = {0: _player(root, "P0"), 1: _player(root, "P1")}
    tags: dict[str, str] = {}
    for name, values in root.items():
        if name not in _ROOT:
            tags[f"SGF_{name}"] = values[0][0]
    tags[SETUP_TAG] = su[0][0]
    comment0 = " ".join(v for v, _ in root.get("C", []))

    moves: list[tuple[int, int, str, str]] = []  # (line, player, notation, comment)
    pending_src: str | None = None
    pending_dst: str | None = None
    pending_line = mover = 0
    ending: tuple[int, Termination] | None = None  # (winner player, how)
    pending_comment = ""  # the comments of a move not yet confirmed by its Done
    for node in nodes[1:]:
        said = " ".join(value for name, value, _ in node.properties if name == "C")
        for name, value, line in node.properties:
            if name not in ("P0", "P1"):
                continue
            player = int(name[1])
            words = value.split()
            if words and words[0].isdigit():
                words = words[1:]
            if not words:
                continue
            op = words[0].lower()
            args = words[1:]
            if op in ("start", "done", "edit", "gameover"):
                if op == "edit" and moves:
                    raise InvalidRecordError(
                        Text("line %(line)s: the record edits the board mid-game", line=line)
                    )
                if op == "done" and pending_src and pending_dst:
                    move = f"{pending_src}-{pending_dst}"
                    moves.append((pending_line, mover, move, pending_comment))
                    pending_src = pending_dst = None
                    pending_comment = ""
                continue
            if op == "move":
                if len(args) < 4:
                    raise _bad_spec(line, value)
                pending_src, pending_dst = _square(args[0], args[1]), _square(args[2], args[3])
                pending_line, mover = line, player
            elif op == "pickb":
                if len(args) < 2:
                    raise _bad_spec(line, value)
                square = _square(args[0], args[1])
                if square == pending_dst:
                    pending_dst = None
                else:
                    pending_src, pending_line, mover = square, line, player
            elif op == "dropb":
                if len(args) < 2:
                    raise _bad_spec(line, value)
                square = _square(args[0], args[1])
                if square == pending_src:
                    pending_src = None
                else:
                    pending_dst, pending_line = square, line
            elif op == "choose":
                if moves or not args:
                    raise _bad_spec(line, value)
                setup, dealt = setup_board(n, key, revision, args[0])
            elif op == "resign":
                ending = (1 - player, Termination.RESIGNATION)
            elif op == "gameoverontime":
                ending = (player, Termination.TIME_FORFEIT)
            else:
                raise InvalidRecordError(
                    Text(
                        "line %(line)s: unknown Boardspace move spec %(spec)s",
                        line=line,
                        spec=repr(value),
                    )
                )
        # a node's comment is on the move it makes (or is making), else on the last move
        if said and (pending_src or pending_dst):
            pending_comment = (pending_comment + " " + said).strip()
        elif said and moves:
            last = moves[-1]
            moves[-1] = (*last[:3], (last[3] + " " + said).strip())
        elif said:
            comment0 = (comment0 + " " + said).strip()
    if pending_src and pending_dst:
        moves.append((pending_line, mover, f"{pending_src}-{pending_dst}", pending_comment))

    # the first player to move is our Black (Boardspace's P1 may take the first move)
    black = moves[0][1] if moves else 0
    string = dealt if black == 0 else setups.swap(dealt)
    kind = _KINDS[setup.lower()]
    settings = {**game.rules.settings, "setup": kind}
    game = load(RuleSet(game.rules.game, game.rules.name, settings, game.rules.defaults))
    try:
        game.new(setup=string)
    except LudotecaError as error:
        raise InvalidRecordError(
            Text(
                "Boardspace's setup %(setup)s cannot be played here: %(error)s",
                setup=setup,
                error=error,
            )
        ) from None
    tags = {
        "Game": "morelli",
        "Rules": str(game.rules),
        "Black": names[black],
        "White": names[1 - black],
        "Setup": string,
        **tags,
    }
    for ply, (line, player, _, _) in enumerate(moves, start=1):
        due = black if ply % 2 else 1 - black
        if player != due:
            raise InvalidRecordError(
                Text(
                    "line %(line)s: ply %(ply)s is played by P%(player)s, but it is "
                    "P%(due)s's turn",
                    line=line,
                    ply=ply,
                    player=player,
                    due=due,
                )
            )
    if ending is not None:
        winner, how = ending
        tags["Result"] = "0-1" if winner == black else "1-0"
        tags["Termination"] = how.label
    else:
        result = _result(root, names, black)
        if result:
            tags["Result"] = result
    body = [
        (line, f"{move} {{{_brace(comment)}}}" if comment else move)
        for line, _, move, comment in moves
    ]
    if comment0:
        body.insert(0, (nodes[0].properties[0][2], "{" + _brace(comment0) + "}"))
    first = nodes[0].properties[0][2] if nodes[0].properties else 1
    return build(tags, body, first, open_result=True)


def _nodes(text: str) -> list[_Node]:
    """The SGF nodes of the record's main line, in order, each property value with its line."""
    nodes: list[_Node] = []
    pos = 0
    depth = 0
    trees = 0
    text = text.lstrip("\ufeff")
    while pos < len(text):
        ch = text[pos]
        if ch.isspace():
            pos += 1
        elif ch == "(":
            depth += 1
            trees += 1
            if trees > 1:
                raise InvalidRecordError(
                    Text(
                        "line %(line)s: the record holds variations or several games; "
                        "Ludoteca reads one Boardspace game a file",
                        line=text.count("\n", 0, pos) + 1,
                    )
                )
            pos += 1
        elif ch == ")":
            depth -= 1
            pos += 1
            if depth == 0:
                break
        elif ch == ";":
            nodes.append(_Node([]))
            pos += 1
        else:
            m = _PROPERTY_RE.match(text, pos)
            if not m or not nodes:
                raise InvalidRecordError(
                    Text(
                        "line %(line)s: unreadable SGF at %(text)s",
                        line=text.count("\n", 0, pos) + 1,
                        text=repr(text[pos : pos + 20]),
                    )
                )
            name = m.group(1).upper()
            base = m.start(2)
            for v in _VALUE_RE.finditer(m.group(2)):
                line = text.count("\n", 0, base + v.start()) + 1
                value = re.sub(r"\\(.)", r"\1", v.group(1), flags=re.S)
                nodes[-1].properties.append((name, value.strip(), line))
            pos = m.end()
    return nodes


def _square(col: str, row: str) -> str:
    return f"{col.upper()}{row}"


def _bad_spec(line: int, value: str) -> InvalidRecordError:
    return InvalidRecordError(
        Text("line %(line)s: unreadable Boardspace move spec %(spec)s", line=line, spec=repr(value))
    )


def _player(root: dict[str, list[tuple[str, int]]], name: str) -> str:
    for value, _ in root.get(name, []):
        m = re.match(r'\s*id\s+"([^"]*)"', value)
        if m:
            return m.group(1)
    return "?"


def _result(root: dict[str, list[tuple[str, int]]], names: dict[int, str], black: int) -> str:
    """The result an ``RE`` property gives (``Game won by NAME``, a draw), or ``""``."""
    for value, _ in root.get("RE", []):
        text = value.lower()
        if "draw" in text:
            return "1/2-1/2"
        m = re.search(r"won by\s+(.+)", value, re.I)
        if m:
            winner = m.group(1).strip()
            for player, name in names.items():
                if name == winner:
                    return "1-0" if player != black else "0-1"
    return ""


def _brace(comment: str) -> str:
    return comment.replace("{", "(").replace("}", ")")


# --- writing ------------------------------------------------------------------------------------
def dumps(record: GameRecord) -> str:
    """A Morelli record as Boardspace's SGF: the variation, a random key and the setup's name
    that deal its setup, the players, a ``Move`` and ``Done`` for each main-line move with its
    comment, and ``Resign`` for a resignation.  The record's own ``SU`` (its
    ``BoardspaceSetup`` tag) is kept when it deals the setup; else a RandomOpposite setup gets
    a key found for it (:func:`find_key`), a fixed one (Adjacent, Opposing, Blocks, Free) key
    0 and, with its colours exchanged, rules revision 101, where P0 passes the first move to
    P1.  :class:`InvalidRecordError` for another game or a start Boardspace cannot deal: a
    set-up position, or a Random setup that came from no Boardspace key."""
    state = record.state
    if state.rules.game != "morelli":
        raise InvalidRecordError(
            Text(
                "Boardspace's Morelli records hold Morelli games, not %(game)s",
                game=repr(state.rules.game),
            )
        )
    start = record.start()
    setup = getattr(start, "setup", None)
    if not setup or start.ply:
        raise InvalidRecordError(
            Text("a Morelli game from a set-up position cannot be written for Boardspace")
        )
    assert isinstance(start.game, Morelli)
    n, kind = start.game.size, start.game.setup_kind
    su = record.tags.get(SETUP_TAG, "")
    first = first_mover(su, n, setup)
    if first is None:
        su, first = _su_for(n, kind, setup)
    players = (record.tags.get("Black", "?"), record.tags.get("White", "?"))
    lines = ["(;", "GM[Morelli]VV[1]", f"SU[{_sgf(su)}]"]
    lines.append(f'P0[id "{_sgf(players[first])}"]')
    lines.append(f'P1[id "{_sgf(players[1 - first])}"]')
    for name, value in record.tags.items():
        if name.startswith("SGF_"):
            lines.append(f"{name[4:]}[{_sgf(value)}]")
    if record.tree.comment:
        lines.append(f"C[{_sgf(record.tree.comment)}]")
    lines.append("; P0[0 Start P0]")
    step = 1
    if first:  # P0 passes the first move (the setup chosen, P1 moves first)
        lines.append("; P0[1 Done]")
        step = 2
    for ply, node in enumerate(record.tree.main_line()):
        player = f"P{(ply + first) % 2}"
        comment = f"C[{_sgf(node.comment)}]" if node.comment else ""
        lines.append(f"; {player}[{step} {move_spec(node.move)}]{comment}")
        lines.append(f"; {player}[{step + 1} Done]")
        step += 2
    if record.termination is Termination.RESIGNATION and record.result in ("1-0", "0-1"):
        black_resigned = record.result == "1-0"
        loser = f"P{first if black_resigned else 1 - first}"
        lines.append(f"; {loser}[{step} Resign]")
        lines.append(f"; {loser}[{step + 1} Done]")
    lines.append(")")
    return "\n".join(lines) + "\n"


def _su_for(n: int, kind: str, setup: str) -> tuple[str, int]:
    """An ``SU`` value that deals ``setup`` (a setup of ``kind``), and the Boardspace player who
    moves first with it (our Black)."""
    name = setups.NAMES[kind]
    if kind == setups.DEFAULT:
        return f"morelli-{n} {find_key(n, setup)} 102 {name}", 0
    if kind == "random":
        raise InvalidRecordError(
            Text(
                "Boardspace deals a Random setup from its game's key, and this setup came from "
                "no Boardspace key: it cannot be written for Boardspace"
            )
        )
    dealt = setups.deal(kind, n, JavaRandom(0))
    return (f"morelli-{n} 0 102 {name}", 0) if dealt == setup else (f"morelli-{n} 0 101 {name}", 1)


def first_mover(su: str, n: int, setup: str) -> int | None:
    """The Boardspace player (0 or 1) who moves first, our Black, when the ``SU`` value deals
    ``setup`` on the board of side n, or ``None`` when it does not deal it: P0 (whose stones
    are ``B``), or P1 with the colours exchanged, which rules revision 101 allows (P0 passes)."""
    fields = su.split()
    if len(fields) < 3 or fields[0].lower() != f"morelli-{n}":
        return None
    try:
        revision = int(fields[2])
        _, dealt = setup_board(n, int(fields[1]), revision, fields[3] if len(fields) > 3 else None)
    except (ValueError, LudotecaError):
        return None
    if dealt == setup:
        return 0
    if revision == 101 and setups.swap(dealt) == setup:
        return 1
    return None


def _sgf(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")
