"""The game-agnostic interface every Ludoteca game implements.

A game engine provides a :class:`Game` subclass (its names and rule sets; an instance is the game
bound to one rule set, with its board, declarations and position constructors) and a
:class:`State` subclass (a mutable position with ``push``/``pop``).  Search code, records, the
command line and the adapters only use what is defined here.  What a game declares for drawing
(:mod:`ludoteca.drawing`), computer players (:mod:`ludoteca.ladder`) and solving
(:mod:`ludoteca.tables`) is declared in modules of its own.

Every game keeps its legal moves as small integers ("move codes") internally; the public
:class:`Move` objects are interned values built once per code, so generating and playing moves in
a search loop allocates nothing.
"""

from __future__ import annotations

import copy
import enum
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from .i18n import N_, Text, _
from .ladder import LADDER, Rung

if TYPE_CHECKING:
    from .compiled.registry import Kernel
    from .drawing import BoardDescription
    from .lessons import Lesson
    from .tables import Solver

__all__ = [
    "ENDLESS",
    "QUIET_THEME",
    "TEXTS",
    "Color",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRulesError",
    "LegalMoves",
    "LudotecaError",
    "Move",
    "Outcome",
    "RuleSet",
    "RuleSetDef",
    "SettingWords",
    "State",
    "Termination",
    "UnknownGameError",
]


class Color(enum.IntEnum):
    """A side. ``WHITE`` (also South in Felli) and ``BLACK`` (North in Felli)."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        """The opposing side: ``Color.WHITE.other is Color.BLACK``."""
        return Color(1 - self)

    @property
    def title(self) -> str:
        """``"White"`` or ``"Black"``, as used in records and messages (marked for the
        catalogue: messages translate it)."""
        return _COLOR_TITLES[self]


#: :attr:`Color.title` of each side
_COLOR_TITLES = (N_("White"), N_("Black"))


class Termination(enum.Enum):
    """Why a game ended; the value is a phrase that completes "… by …" / "… because …"."""

    FEWER_THAN_THREE = N_("the loser has fewer than three pieces")
    NO_LEGAL_MOVES = N_("the player to move has no legal move")
    ALL_CAPTURED = N_("every man of the loser has been taken")
    THREEFOLD_REPETITION = N_("threefold repetition")
    MOVE_RULE = N_("the move rule (too many plies without a capture)")
    FULL_BOARD = N_("a full board: every point is taken when placing ends, so nobody can move")
    THREE_MEN_RULE = N_(
        "the three-men rule (a player has three men and no shot for ten moves each)"
    )
    THRONE = N_("no legal move is left and a King holds the Throne")
    VACANT_THRONE = N_("no legal move is left and the Throne is vacant")
    RESIGNATION = N_("resignation")
    DRAW_AGREED = N_("agreement")
    TIME_FORFEIT = N_("time forfeit")
    FORFEIT = N_("forfeit (the engine failed: it hung, crashed or played an illegal move)")

    @property
    def label(self) -> str:
        """The record's ``Termination`` tag value, e.g. ``"threefold repetition"``."""
        return self.name.lower().replace("_", " ")

    @classmethod
    def from_label(cls, label: str) -> Termination:
        """The termination whose :attr:`label` or enum name is ``label``; ``ValueError`` if none."""
        key = label.strip().upper().replace(" ", "_").replace("-", "_")
        try:
            return cls[key]
        except KeyError:
            raise InvalidRecordError(
                Text("unknown termination %(label)s", label=repr(label))
            ) from None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the rule that ended it and the winner (``None`` for a draw)."""

    termination: Termination
    winner: Color | None

    @property
    def result(self) -> str:
        """The record result: ``"1-0"`` (White won), ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is Color.WHITE else "0-1"

    def explain(self, white: str | None = None, black: str | None = None) -> str:
        """A sentence for people in the current language (:mod:`ludoteca.i18n`), e.g. ``"White
        wins: the player to move has no legal move."``; ``white`` and ``black`` name the
        players (default: the colours)."""
        reason = _(self.termination.value)
        if self.winner is None:
            return _("Draw by %(reason)s.", reason=reason)
        name = (white or _("White")) if self.winner is Color.WHITE else (black or _("Black"))
        return _("%(winner)s wins: %(reason)s.", winner=name, reason=reason)


class LudotecaError(ValueError):
    """Base class of every error Ludoteca raises for bad input."""


class InvalidMoveError(LudotecaError):
    """Move notation that cannot be read at all (``"z9"``, ``"a1--b2"``)."""


class IllegalMoveError(LudotecaError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidPositionError(LudotecaError):
    """A position code or setup that is malformed or describes an impossible position."""


class InvalidRecordError(LudotecaError):
    """A game record that is malformed or does not replay."""


class InvalidRulesError(LudotecaError):
    """An unknown rule set or a bad rule-set setting."""


class UnknownGameError(LudotecaError):
    """No registered game has this name."""


class Move:
    """A move: a frozen, hashable value whose ``str`` is its notation.

    Each game subclasses this and interns one instance per (board, move code): ``board`` names
    the geometry the code is read on (``"24"``, ``"13x13"``), so two moves are equal exactly when
    they are of the same game, on the same board, with the same code.  ``repr`` reads back with
    the subclass's ``parse``.
    """

    __slots__ = ("_board", "_code", "_text")
    _code: int
    _text: str
    _board: str

    def __init__(self, code: int, text: str, board: str = "") -> None:
        object.__setattr__(self, "_code", code)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_board", board)

    @property
    def code(self) -> int:
        """The game's integer code for this move (stable, used by the integer-action adapters)."""
        return self._code

    @property
    def board(self) -> str:
        """The name of the board geometry the code belongs to (empty for a game with one board)."""
        return self._board

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Move)
            and type(other) is type(self)
            and other._code == self._code
            and other._board == self._board
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._board, self._code))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __reduce__(self) -> tuple[object, tuple[int, str]]:
        return (type(self).from_code, (self._code, self._board))

    @classmethod
    def from_code(cls, code: int, board: str = "") -> Move:
        """The interned move for a code on the named board."""
        raise NotImplementedError


M = TypeVar("M", bound=Move)


class LegalMoves(Generic[M]):
    """A view of the legal moves of a state: iterate, ``len``, ``in``, :meth:`count`."""

    __slots__ = ("_moves",)

    def __init__(self, moves: list[M]) -> None:
        self._moves = moves

    def __iter__(self) -> Iterator[M]:
        return iter(self._moves)

    def __len__(self) -> int:
        return len(self._moves)

    def __bool__(self) -> bool:
        return bool(self._moves)

    def __contains__(self, move: object) -> bool:
        return move in self._moves

    def __getitem__(self, index: int) -> M:
        return self._moves[index]

    def count(self) -> int:
        """The number of legal moves."""
        return len(self._moves)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self._moves))})>"


SettingValue = bool | int | str


@dataclass(frozen=True)
class SettingWords:
    """How a rule set's title (:attr:`Game.rules_title`) says a setting that differs from its
    default, and the values a setting of a few takes, each text marked with ``N_``: ``on`` for
    true, ``off`` for false or for a number that is 0 (the rule turned off), ``value`` for
    another value (``%(value)s`` is the number, e.g. ``"move rule %(value)s"``, or the label
    of one of ``values``, e.g. ``"%(value)s setup"``), and ``values`` for a setting that takes
    one of a few values (a number, or a choice: a setting whose default is a text), each with
    its label, in the order a form offers them (``"board of 24 points with diagonals"``,
    ``"Opposing"``); a label is said alone where there is no ``value``."""

    on: str = ""
    off: str = ""
    value: str = ""
    values: Mapping[int, str] | Mapping[str, str] = field(default_factory=dict)

    def say(self, value: SettingValue) -> str:
        """The words for ``value``, in the current language."""
        if value is True:
            return _(self.on)
        for known, label in self.values.items():
            if known == value and not isinstance(value, bool):
                return _(self.value, value=_(label)) if self.value else _(label)
        if not value:
            return _(self.off)
        return _(self.value, value=value)


@dataclass(frozen=True)
class RuleSetDef:
    """A named rule set a game offers: its name, aliases and the default value of every setting."""

    name: str
    description: str
    defaults: Mapping[str, SettingValue]
    aliases: tuple[str, ...] = ()
    #: the name people know the rule set's game by, where it is a game of its own
    title: str = ""
    #: what sets the rule set apart among its game's, after the game's title ("with Mullahs",
    #: "11x11"), where it is no game of its own
    label: str = ""


@dataclass(frozen=True)
class RuleSet:
    """A rule set with concrete settings, e.g. ``felli:forced_capture,multi_capture``.

    ``str(rules)`` is the canonical spec: the rule-set name, then ``:`` and the settings that differ
    from that rule set's defaults, sorted, separated by commas (``key`` for true, ``key=false``,
    ``key=100``).  :meth:`Game.parse_rules` parses any spec back.
    """

    game: str
    name: str
    settings: Mapping[str, SettingValue] = field(hash=False)
    defaults: Mapping[str, SettingValue] = field(hash=False, repr=False, compare=False)

    def __getitem__(self, key: str) -> SettingValue:
        return self.settings[key]

    def __hash__(self) -> int:
        return hash((self.game, self.name, tuple(sorted(self.settings.items()))))

    def __str__(self) -> str:
        changed = []
        for key in sorted(self.settings):
            value = self.settings[key]
            if value == self.defaults.get(key):
                continue
            if value is True:
                changed.append(key)
            elif value is False:
                changed.append(f"{key}=false")
            else:
                changed.append(f"{key}={value}")
        return self.name + (":" + ",".join(changed) if changed else "")


#: what a status line tells the player to do next; a game overrides any of them in ``texts``
TEXTS: Mapping[str, str] = {
    "place": N_("choose a point to place a piece"),
    "move": N_("choose a piece to move"),
    "place_or_move": N_("place a piece or choose one to move"),
    "to": N_("choose where it goes (dotted)"),
    "take": N_("choose an enemy piece to remove (ringed red)"),
    "continue": N_("choose the next point of the move"),
    "example": "",  # how a move is typed, e.g. "d6 or a1-a4xg7"
}


#: the longest game declared where the rules themselves do not end games (draw rules off)
ENDLESS = 100_000
#: a puzzle's theme where no tactic its game names applies (:meth:`Game.puzzle_theme`)
QUIET_THEME = N_("quiet move")

S = TypeVar("S", bound="State")


class Game(ABC):
    """A game bound to one of its rule sets: what the rest of the house needs to know about it
    (title, board, ladder, kernel, solver, options, status texts, action-space size, longest
    game) and its positions (:meth:`new`, :meth:`from_position_code`).

    Each game family (Morris, Felli, Morelli) subclasses this, declares its names and rule sets
    as class attributes and is registered in :mod:`ludoteca.games`; ``ludoteca.games.load``
    gives the one instance for a rule set::

        >>> from ludoteca.games import load
        >>> game = load("morris-12")
        >>> game.title, game.rules.name
        ("Twelve Men's Morris", 'morris-12')
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    rule_sets: ClassVar[tuple[RuleSetDef, ...]]
    #: the rules in a few sentences, for people choosing a game
    summary: ClassVar[str] = ""
    #: the status texts that differ from :data:`TEXTS` ("choose a point to place a man")
    texts: ClassVar[Mapping[str, str]] = {}
    #: the settings a player may change when starting a game, each explained in words (a
    #: setting not named here is fixed by its rule set: another rule set is chosen instead)
    options: ClassVar[Mapping[str, str]] = {}
    #: how the title says each setting of the game's rule sets that differs from its default
    #: (every setting has its words), and the values of a setting of a few (every choice, a
    #: setting whose default is a text, has them)
    setting_words: ClassVar[Mapping[str, SettingWords]] = {}
    #: the name people know the game by: the family's, or its rule set's own title
    title: str
    rules: RuleSet
    #: the rule set's definition (a family may declare more in its own definitions)
    definition: RuleSetDef

    def __init__(self, rules: RuleSet) -> None:
        """The game under ``rules`` (use :meth:`of`, which makes one instance per rule set)."""
        if rules.game != self.name:
            raise InvalidRulesError(
                Text("rule set %(rules)s is not a %(game)s rule set", rules=rules, game=self.name)
            )
        self.rules = rules
        self.definition = next(d for d in self.rule_sets if d.name == rules.name)
        self.title = self.definition.title or type(self).title

    @classmethod
    def of(cls: type[G], rules: str | RuleSet | None = None) -> G:
        """The game under a rule set or rule-set spec (``None``: the default rule set), made
        once per rule set and process."""
        ruleset = cls.parse_rules(rules)
        key = (cls, ruleset)
        game = _BOUND.get(key)
        if game is None:
            game = _BOUND[key] = cls(ruleset)
        assert isinstance(game, cls)
        return game

    def __reduce__(self) -> tuple[object, tuple[RuleSet]]:
        return (type(self).of, (self.rules,))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.rules}>"

    @classmethod
    def rule_set_names(cls) -> list[str]:
        """Every name (and alias) a rule set of this game answers to."""
        return [n for d in cls.rule_sets for n in (d.name, *d.aliases)]

    @classmethod
    def parse_rules(cls, spec: str | RuleSet | None = None) -> RuleSet:
        """Parse a rule-set spec ``name[:setting[=value],...]``; ``None`` means the default set.

        >>> from ludoteca.games.felli import Felli
        >>> Felli.parse_rules("felli:forced_capture").settings["forced_capture"]
        True
        """
        if isinstance(spec, RuleSet):
            if spec.game != cls.name:
                raise InvalidRulesError(
                    Text("rule set %(rules)s is not a %(game)s rule set", rules=spec, game=cls.name)
                )
            return spec
        spec = (spec or cls.rule_sets[0].name).strip()
        name, _, options = spec.partition(":")
        name = name.strip().lower()
        for definition in cls.rule_sets:
            if name == definition.name or name in definition.aliases:
                break
        else:
            known = ", ".join(cls.rule_set_names())
            raise InvalidRulesError(
                Text(
                    "unknown %(game)s rule set %(name)s (known: %(known)s)",
                    game=cls.name,
                    name=repr(name),
                    known=known,
                )
            )
        settings = dict(definition.defaults)
        for item in filter(None, (o.strip() for o in options.split(","))):
            key, has_value, raw = item.partition("=")
            key = key.strip().lower().replace("-", "_")
            if key not in settings:
                names: str | Text = ", ".join(sorted(settings)) or Text("none")
                raise InvalidRulesError(
                    Text(
                        "unknown setting %(key)s for rule set %(rules)s (settings: %(known)s)",
                        key=repr(key),
                        rules=definition.name,
                        known=names,
                    )
                )
            settings[key] = _parse_setting(
                key,
                raw.strip() if has_value else None,
                settings[key],
                cls.setting_words[key].values,
            )
        return RuleSet(cls.name, definition.name, settings, definition.defaults)

    @property
    def rules_title(self) -> str:
        """The rule set as people call it, with the settings that differ from its defaults
        in words: ``"Six Men's Morris"``, ``"Felli with Mullahs"``, ``"Felli (multi capture)"``,
        ``"Nine Men's Morris (no flying, move rule 50)"`` (each setting in the words of
        :attr:`setting_words`); in the current language."""
        if self.definition.title:
            name = _(self.definition.title)
        elif self.definition.label:
            name = _("%(game)s %(label)s", game=_(self.title), label=_(self.definition.label))
        else:
            name = _(self.title)
        changed = [
            self.setting_words[key].say(value)
            for key, value in sorted(self.rules.settings.items())
            if value != self.definition.defaults.get(key)
        ]
        if not changed:
            return name
        # TRANSLATORS: what separates two settings in a rule set's title
        settings = _(", ").join(changed)
        # TRANSLATORS: a rule set's title with the settings that differ from its defaults
        return _("%(name)s (%(settings)s)", name=name, settings=settings)

    @property
    def status_texts(self) -> dict[str, str]:
        """What the status line says for each step of a move (keys of :data:`TEXTS`)."""
        return {**TEXTS, **self.texts}

    @property
    def ladder(self) -> tuple[Rung, ...]:
        """The computer levels, weakest first (measured ratings are stored by rule set in
        ``ludoteca/games/ratings.json``)."""
        return LADDER

    def solver(self, men: int | None = None) -> Solver | None:
        """How the rule set is solved (outright, or its endgames by tables), or ``None``.
        ``men``: the tables' size, the most men (pieces) a side, where the game has a choice
        (``None``: the game's default)."""
        return None

    def puzzle_theme(self, state: State, line: Sequence[int]) -> str:
        """What a puzzle is about, in a word or two ("mill", "capture chain"), from its start
        ``state`` (left unchanged) and its solution ``line`` (move codes, the player's first
        move, then the opponent's reply, ...); :data:`QUIET_THEME` where no tactic the game
        names applies (each game names its own, marked with ``N_``: pages show it translated)."""
        return QUIET_THEME

    def lessons(self) -> tuple[Lesson, ...]:
        """The interactive lessons that teach the game's rules, in the order to take them (the
        family's, whichever of its rule sets this is; each lesson names the rule set its
        positions are of): see :mod:`ludoteca.lessons`.  ``()`` for a game without any."""
        return ()

    @cached_property
    def kernel(self) -> Kernel | None:
        """The compiled kernel for the compiled search (:mod:`ludoteca.compiled`), built when
        first asked for, or ``None``: the readable search then plays the game."""
        return None

    @property
    def longest_game(self) -> int:
        """An upper bound on the plies of a game (with the draw rules off, where games could
        go on for ever, a large cap: :data:`ENDLESS`)."""
        return ENDLESS

    @property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The permutations of the board's points (``board.points`` order) under which the
        rules do not change: ``perm[p]`` is where point ``p`` goes.  A position and its image
        (each point's piece moved to its image, the same side to move and men in hand) have
        the same value, and a move's image (its :meth:`State.gesture` with every point mapped)
        is legal there.  A game that declares any also writes position codes of set-up
        positions (:meth:`position_code_of`), and its moves have gestures.  Empty (the
        default): none is used, not even the identity."""
        return ()

    @property
    def book_path(self) -> Path | None:
        """The file of the rule set's opening book (``ludoteca book build`` writes it, the
        ``book`` option of the search players and hints read it; the format is
        :mod:`ludoteca.ai.book`'s), or ``None`` where the game declares none.  The file need
        not exist: a rule set whose book was not built has none."""
        return None

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """The size of the integer action space (see :meth:`State.action_path`)."""

    @property
    @abstractmethod
    def board(self) -> BoardDescription:
        """The board, as data."""

    @abstractmethod
    def new(self, setup: str | None = None, seed: int | None = None) -> State:
        """The start position. ``setup`` and ``seed`` matter only for games with random setups."""

    @abstractmethod
    def from_position_code(self, code: str) -> State:
        """The position a position code describes; :class:`InvalidPositionError` if impossible.

        The inverse of :meth:`State.position_code`."""

    def position_code_of(
        self, pieces: Sequence[str], turn: Color, hand: tuple[int, int] | None = None
    ) -> str:
        """The position code of a position set up by hand (the analysis board's editor):
        ``pieces`` a token per point as :meth:`State.pieces` gives them ("" for empty), the side
        to move and, where the game has them, the men in hand (White's, Black's); the code's
        other counters (ply, quiet plies) as small as the position allows.  The position need
        not be possible: :meth:`from_position_code` then says why.  ``NotImplementedError`` for
        a game without an editor."""
        raise NotImplementedError(Text("%(game)s has no position editor", game=Text(self.title)))


G = TypeVar("G", bound=Game)
_BOUND: dict[tuple[type[Game], RuleSet], Game] = {}


def _parse_setting(
    key: str, raw: str | None, default: SettingValue, choices: Mapping[int, str] | Mapping[str, str]
) -> SettingValue:
    if isinstance(default, str):
        return _parse_choice(key, raw, [c for c in choices if isinstance(c, str)])
    if isinstance(default, bool):
        if raw is None or raw.lower() in ("true", "on", "yes", "1"):
            return True
        if raw.lower() in ("false", "off", "no", "0"):
            return False
        raise InvalidRulesError(
            Text("setting %(key)s takes true or false, not %(raw)s", key=key, raw=repr(raw))
        )
    if raw is None:
        raise InvalidRulesError(
            Text(
                "setting %(key)s needs a value, e.g. %(example)s",
                key=key,
                example=f"{key}={default}",
            )
        )
    try:
        value = int(raw)
    except ValueError:
        raise InvalidRulesError(
            Text("setting %(key)s takes a whole number, not %(raw)s", key=key, raw=repr(raw))
        ) from None
    if value < 0:
        raise InvalidRulesError(Text("setting %(key)s cannot be negative", key=key))
    return value


def _parse_choice(key: str, raw: str | None, choices: list[str]) -> str:
    """The choice ``raw`` names, read without regard to case, ``-`` or ``_`` (``RandomOpposite``
    names ``random_opposite``)."""

    def plain(text: str) -> str:
        return text.lower().replace("-", "").replace("_", "")

    for choice in choices:
        if raw is not None and plain(raw) == plain(choice):
            return choice
    raise InvalidRulesError(
        Text(
            "setting %(key)s is one of %(choices)s, not %(raw)s",
            key=key,
            choices=", ".join(choices),
            raw=repr(raw or ""),
        )
    )


class State(ABC):
    """A mutable game position with its move history.

    A game must provide the rules core (the abstract methods: legal move codes, ``push_code``,
    ``pop_code``, ``move_of``, ``read_move``, ``outcome``, ``position_key``, ``position_code``);
    then it is playable everywhere.  The rest is optional, with defaults: drawing (``pieces``,
    ``gesture``, ``in_hand``), knowledge for computer players (``evaluate``, ``is_tactical``,
    ``tactical_moves``) and research features (``planes``, ``action_path``).  ``push`` checks
    legality and leaves the state unchanged on error; ``push_code`` and ``pop_code`` are the
    unchecked fast path for search.
    """

    #: the game (bound to its rule set) this is a position of
    game: Game
    rules: RuleSet
    turn: Color
    ply: int
    move_stack: list[int]
    #: the position code of the position the history starts from
    start: str
    #: the setup string of games with a random setup (Morelli), else ``None``
    setup: str | None = None
    #: tokens a record may write after a move to annotate it (checked by :meth:`annotate`)
    annotation_tokens: ClassVar[tuple[str, ...]] = ()

    # --- primitives each game provides -------------------------------------------------
    @abstractmethod
    def legal_codes(self) -> list[int]:
        """Codes of the legal moves, in a fixed order (empty when the game is over)."""

    @abstractmethod
    def push_code(self, code: int) -> None:
        """Play a legal move given by code, without checking it."""

    @abstractmethod
    def pop_code(self) -> int:
        """Take back the last move; return its code."""

    @abstractmethod
    def move_of(self, code: int) -> Move:
        """The interned :class:`Move` for a code."""

    def parse_move(self, text: str) -> Move:
        """Read a move in this game's notation and return it if legal here.

        Raises :class:`InvalidMoveError` for unreadable text and :class:`IllegalMoveError` for a
        readable move that is not legal in this position, with the reason.
        """
        move = self.read_move(text)
        legal = self.legal_codes()
        if move.code in legal:
            return move
        if not legal:
            raise self._illegal(text)
        raise self._illegal(text, self.why_illegal(move, legal))

    @abstractmethod
    def read_move(self, text: str) -> Move:
        """The move written ``text``, legal here or not; :class:`InvalidMoveError` if unreadable."""

    def why_illegal(self, move: Move, legal: list[int]) -> str:
        """Why a readable move is not among the ``legal`` codes, for the error message (in the
        current language)."""
        return _("not a legal move here")

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def position_key(self) -> Hashable:
        """A hashable key equal for equal positions (board, side to move, what the rules track)."""

    @abstractmethod
    def position_code(self) -> str:
        """The one-line position code, readable back with :meth:`Game.from_position_code`."""

    def copy(self: S) -> S:
        """An independent copy, history included.

        States hold immutable values and lists or dicts of immutable values, so copying those
        containers one level deep makes the copy independent.
        """
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list | dict):
                setattr(other, name, value.copy())
        return other

    def __deepcopy__(self: S, memo: dict[int, object]) -> S:
        """``copy.deepcopy`` is :meth:`copy` (the shared rule tables are never duplicated)."""
        return self.copy()

    # --- shared behaviour ---------------------------------------------------------------
    @property
    def legal_moves(self) -> LegalMoves[Move]:
        """The legal moves as interned :class:`Move` objects."""
        move_of = self.move_of
        return LegalMoves([move_of(c) for c in self.legal_codes()])

    def push(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` or notation); return the move played.

        Raises :class:`IllegalMoveError` (or :class:`InvalidMoveError`) and changes nothing when
        the move is not legal here.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move) or self.move_of(move.code) != move:
            raise IllegalMoveError(
                Text(
                    "%(move)s is not a move of %(game)s (%(rules)s)",
                    move=repr(move),
                    game=Text(self.game.title),
                    rules=str(self.rules),
                )
            )
        elif move.code not in self.legal_codes():
            over = self.outcome()
            reason = (
                Text("the game is over (%(result)s)", result=over.result)
                if over
                else Text("not a legal move here")
            )
            raise IllegalMoveError(Text("%(move)s: %(reason)s", move=str(move), reason=reason))
        self.push_code(move.code)
        return move

    def annotate(self, move: Move, token: str) -> None:
        """Check an annotation token written after ``move`` (the last move played).

        Raises :class:`IllegalMoveError` when the annotation does not match the move.
        """
        raise IllegalMoveError(
            Text(
                "%(move)s %(token)s: %(game)s records have no annotations",
                move=str(move),
                token=token,
                game=Text(self.game.title),
            )
        )

    def pop(self) -> Move:
        """Take back the last move and return it; ``IndexError`` if there is none."""
        if not self.move_stack:
            raise IndexError("no move to take back")
        return self.move_of(self.pop_code())

    def child(self: S, move: Move | str) -> S:
        """A copy of this state with ``move`` played."""
        other = self.copy()
        other.push(move)
        return other

    # --- game knowledge for computer players (optional) ------------------------------------
    def evaluate(self) -> float:
        """A heuristic value of the position for the side to move, from -1 (lost) to 1 (won).

        Computer players use it where they cannot search to the end; the default knows nothing.
        """
        return 0.0

    def is_tactical(self, code: int) -> bool:
        """Whether a legal move changes material (a capture, removal or conversion).

        Search tries such moves first and extends them; playouts prefer them.
        """
        return False

    # --- drawing (user interfaces; optional) ----------------------------------------------------
    def pieces(self) -> list[str]:
        """What stands on each point of the game's :class:`BoardDescription`, in point order:
        ``""`` for an empty point, else a token of the board's ``styles`` (``"w"``/``"b"`` a man
        of White/Black by default).  A game that does not say draws an empty board."""
        return [""] * len(self.game.board.points)

    def marked_points(self) -> list[int]:
        """The points of the game's :class:`BoardDescription` that are empty but barred for now
        (no piece may be put there: a Da San Qi point whose man a mill took while men are
        placed), in increasing order, for a user interface to draw as barred.  :meth:`pieces`
        gives ``""`` for them.  A game that does not say has none."""
        return []

    def move_label(self, code: int) -> str:
        """The legal move ``code`` as a move list shows it: its notation, plus what the game
        annotates (Morelli: conversions and a King seated, ``A5-E5x3 K``).  Default: the
        notation."""
        return str(self.move_of(code))

    def move_note(self, code: int) -> str:
        """What the legal move ``code`` does beyond moving, in words for a status line ("converts
        2 stones and seats a King on the Throne"), or ``""`` (the default) when nothing needs
        saying."""
        return ""

    def gesture(self, code: int) -> tuple[tuple[str, int], ...]:
        """The points a person touches, in order, to make the move ``code``, each with its role:
        ``"from"`` (the piece to lift), ``"to"`` (where it goes, or where a man is placed) or
        ``"take"`` (an enemy piece to remove).  No legal move's gesture is a proper prefix of
        another's, so a user interface can complete a move touch by touch.  The gesture depends
        on the code and the rule set alone, not on the position.  A game that does not say
        returns ``()``: its moves are typed or chosen from a list.
        """
        return ()

    def notice(self) -> str | None:
        """A sentence about the position that a status line should add (``"White has three
        men left and may fly to any empty point."``), or ``None``."""
        return None

    def in_hand(self) -> tuple[int, int] | None:
        """Men still to be placed (White, Black), or None in a game without placing."""
        return None

    def describe(self) -> str:
        """The position in words for a person who cannot see the board (the pages' blind mode
        reads it out), in the current language: each side's pieces by point, what else the
        game counts (the men in hand, the Throne), whose turn it is and the :meth:`notice`.
        Each game says its own (:mod:`ludoteca.games.words` holds the common parts); the
        default says only whose turn it is and the notice."""
        turn = _("White to move.") if self.turn is Color.WHITE else _("Black to move.")
        notice = self.notice()
        return f"{turn} {notice}" if notice else turn

    # --- integer actions and observations (research adapters) ------------------------------
    def action_path(self, code: int) -> tuple[int, ...]:
        """The integer actions, each below :attr:`Game.num_distinct_actions`, that spell a move.

        Most moves are one action; a Felli capture chain is one action per leap, and a Morris
        mill's removal is an action after its move's.  No legal move's path is a proper prefix
        of another's, so the actions decode one by one.
        """
        return (code,)

    def planes(self) -> list[list[float]]:
        """Feature planes over the board's points (``Game.board.points`` order): one
        0/1 plane per kind of piece (the board's ``styles``, in order), then any per-game
        counters as constant planes.  The default is the piece planes of :meth:`pieces`."""
        tokens = self.pieces()
        return [[float(t == kind) for t in tokens] for kind in self.game.board.styles]

    def occurrences(self) -> int:
        """How many times the current position has occurred in this game (at least 1)."""
        return 1

    def tactical_codes(self, codes: list[int]) -> list[int]:
        """The tactical moves among ``codes`` (legal moves of this state), in their order."""
        return [c for c in codes if self.is_tactical(c)]

    def tactical_moves(self) -> list[int] | None:
        """The legal tactical moves found directly (cheaper than all legal moves), or ``None``
        when the game has no such shortcut.  Only games whose positions are never terminal
        while a tactical move exists may offer it (the search skips the end check then)."""
        return None

    @property
    def moves(self) -> list[Move]:
        """The moves played so far, as :class:`Move` objects."""
        return [self.move_of(c) for c in self.move_stack]

    def _illegal(self, text: str, reason: str | Text | None = None) -> IllegalMoveError:
        over = self.outcome()
        if over is not None:
            reason = Text("the game is over (%(result)s)", result=over.result)
        return IllegalMoveError(
            Text("%(move)s: %(reason)s", move=text, reason=reason or Text("not a legal move here"))
        )
