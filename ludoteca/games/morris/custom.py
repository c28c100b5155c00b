"""The custom rule set of the mill family (``morris-custom``, after Sanmill's "Custom"): every
rule a named rule set fixes is a setting of it, so that a player sets up a variant of their own
from the rules the engine plays.

>>> Play.of_settings({**SETTINGS, "board": 12, "men": 10, "lasker": True}).board.key
'24d'

Its settings (:data:`SETTINGS`, with their defaults: Nine Men's Morris) are the board
(``board``: 6, 9 or 12, the board of Six, Nine or Twelve Men's Morris, :data:`BOARDS`), the men
a side (``men``), who starts (``black_first``), what a board full when placing ends does
(``full_board``, a choice: :data:`FULL_BOARD`), the switches of :class:`~.rules.MorrisRules`
(``lasker``, ``marking``, ``remove_from_mills``, ``one_time_mills``, ``multiple_removals``,
``defender_first``, ``hand_removal``, ``mill_counts``) and the settings every rule set of the
family has (``flying``, ``repetition``, ``move_rule``, ``three_men_rule``).
:meth:`Play.of_settings` checks that the settings make a game (men that fit the board, a full
board that can happen, no switch that another makes idle) and gives what they fix of the play;
a spec whose play and settings are a named rule set's is that rule set (:func:`named`), so one
game has one canonical spec.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ...core import Color, InvalidRulesError, RuleSet, RuleSetDef, SettingValue
from ...i18n import N_, Text
from ..draws import DRAW_DEFAULTS
from .board import NINE, SIX, TWELVE, MorrisBoard

__all__ = ["BOARDS", "CUSTOM", "FULL_BOARD", "PLAY_SETTINGS", "SETTINGS", "Play", "named"]

#: the custom rule set's name
CUSTOM = "morris-custom"
#: the values of the ``board`` setting: the board of Six, Nine or Twelve Men's Morris
BOARDS: dict[int, MorrisBoard] = {6: SIX, 9: NINE, 12: TWELVE}
#: the values of the ``full_board`` setting, each with its label, in the order to offer them:
#: what a board full when placing ends does (``none``: nothing, the player to move cannot move
#: and loses; the others are :data:`~.rules.FULL_BOARD_ACTIONS` of the same name)
FULL_BOARD: dict[str, str] = {
    "none": N_("nothing (the player who cannot move loses)"),
    "draw": N_("a draw"),
    "first-loses": N_("the first player loses"),
    "first-removes": N_("the first player removes a man"),
    "both-remove": N_("each player removes a man"),
}
#: the fewest men a side: with fewer, a side has lost before the game starts
FEWEST = 3
#: the custom rule set's settings that a named rule set fixes (its :class:`Play`)
PLAY_SETTINGS = (
    "black_first",
    "board",
    "defender_first",
    "full_board",
    "hand_removal",
    "lasker",
    "marking",
    "men",
    "mill_counts",
    "multiple_removals",
    "one_time_mills",
    "remove_from_mills",
)
#: the switches among them, each a field of :class:`Play` of the same name
SWITCHES = (
    "lasker",
    "remove_from_mills",
    "marking",
    "one_time_mills",
    "multiple_removals",
    "defender_first",
    "hand_removal",
    "mill_counts",
)
#: the custom rule set's settings and their defaults (Nine Men's Morris)
SETTINGS: dict[str, SettingValue] = {
    "black_first": False,
    "board": 9,
    "defender_first": False,
    "flying": True,
    "full_board": "none",
    "hand_removal": False,
    "lasker": False,
    "marking": False,
    "men": 9,
    "mill_counts": False,
    "multiple_removals": False,
    "one_time_mills": False,
    "remove_from_mills": False,
    **DRAW_DEFAULTS,
    "three_men_rule": 0,
}


@dataclass(frozen=True)
class Play:
    """What a Morris rule set fixes of the play, beside its settings: the board, the men a side,
    who starts, what a full board does and the switches (the fields of
    :class:`~.rules.MorrisRules` of the same names)."""

    board: MorrisBoard
    men: int
    first: Color
    full_board: str
    lasker: bool
    remove_from_mills: bool
    marking: bool
    one_time_mills: bool
    multiple_removals: bool
    defender_first: bool
    hand_removal: bool
    mill_counts: bool

    @classmethod
    def of_settings(cls, settings: Mapping[str, SettingValue]) -> Play:
        """The play of the custom rule set's ``settings`` (every one of :data:`SETTINGS`);
        :class:`InvalidRulesError` in a sentence for settings that make no game: a board that
        is none of :data:`BOARDS`, fewer than three men a side or more than fit on half the
        board's points, a full board's action where the men cannot fill the board, a switch
        that another leaves nothing to do (marking or removal from the hand under removals by
        mill counts, whose mills take nothing while placing; a full board's action under them,
        whose removals come first)."""
        choice = int(settings["board"])
        board = BOARDS.get(choice)
        if board is None:
            raise InvalidRulesError(
                Text(
                    "the board is 6, 9 or 12 (the board of Six, Nine or Twelve Men's Morris), "
                    "not %(board)s",
                    board=choice,
                )
            )
        men, most = int(settings["men"]), board.size // 2
        if not FEWEST <= men <= most:
            raise InvalidRulesError(
                Text(
                    "%(men)s men a side cannot play on a board of %(points)s points: from "
                    "%(fewest)s (fewer have lost already) to %(most)s (all of them fill it)",
                    men=men,
                    points=board.size,
                    fewest=FEWEST,
                    most=most,
                )
            )
        full = str(settings["full_board"])
        if full != "none" and men != most:
            raise InvalidRulesError(
                Text(
                    "a full board's action needs men that fill the board when placing ends "
                    "(%(most)s a side on %(points)s points), not %(men)s: with fewer the board "
                    "is never full, so leave full_board at none",
                    most=most,
                    points=board.size,
                    men=men,
                )
            )
        switches = {key: bool(settings[key]) for key in SWITCHES}
        if switches["mill_counts"]:
            idle = [k for k in ("marking", "hand_removal") if switches[k]]
            if idle:
                raise InvalidRulesError(
                    Text(
                        "under removals by mill counts a mill closed while placing takes "
                        "nothing, so %(setting)s has nothing to do: leave one of them off",
                        setting=idle[0],
                    )
                )
            if full != "none":
                raise InvalidRulesError(
                    Text(
                        "under removals by mill counts the men a full board holds when placing "
                        "ends are removed by the mills' count first, so the board is never full "
                        "then: leave full_board at none"
                    )
                )
        return cls(
            board,
            men,
            Color.BLACK if settings["black_first"] else Color.WHITE,
            "" if full == "none" else full,
            **switches,
        )


def named(
    rules: RuleSet, play: Play, rule_sets: Iterable[tuple[RuleSetDef, Play]]
) -> RuleSet | None:
    """The named rule set that plays exactly as the custom ``rules`` (whose play is ``play``),
    with its settings, or ``None``: among ``rule_sets`` (each definition with its play), the
    first other than the custom one whose play is the same and whose settings hold every
    custom setting that differs from its default (a named rule set without
    ``three_men_rule`` plays without it)."""
    rest = {k: v for k, v in rules.settings.items() if k not in PLAY_SETTINGS}
    for definition, theirs in rule_sets:
        if definition.name == CUSTOM or theirs != play:
            continue
        if any(k not in definition.defaults and v != SETTINGS[k] for k, v in rest.items()):
            continue
        kept = {k: v for k, v in rest.items() if k in definition.defaults}
        return RuleSet(
            rules.game, definition.name, {**definition.defaults, **kept}, definition.defaults
        )
    return None
