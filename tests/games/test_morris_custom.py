"""The custom rule set of the mill family (``morris-custom``, docs/rules.md "Custom rule set"):
its canonical spec, the named rule sets it becomes, the settings it refuses, its title, and its
play against the plain second implementation (checks/morris_reference.py) and against the named
rule set it equals."""

from __future__ import annotations

import random

import pytest

import ludoteca
from checks import morris_reference as ref
from ludoteca.cli import main
from ludoteca.compiled.drivers import perft_counts as kernel_perft_counts
from ludoteca.core import InvalidRulesError, RuleSet, SettingValue, State
from ludoteca.games.morris import Morris
from ludoteca.games.morris.custom import SETTINGS
from ludoteca.games.morris.rules import MorrisState
from ludoteca.perft import perft

#: the named rule sets as docs/rules.md states them, as custom settings
NAMED = {
    "morris": "",
    "morris-6": "board=6,men=6,flying=false",
    "morris-12": "board=12,men=12,full_board=draw",
    "morabaraba": "board=12,men=12,full_board=draw,black_first,three_men_rule=20",
    "morris-lasker": "men=10,lasker",
    "cheng-san-qi": "marking,flying=false",
    "cham-gonu": "board=12,men=12,flying=false,marking,remove_from_mills",
    "one-time-mill": "remove_from_mills,one_time_mills",
    "zhi-qi": "board=12,men=12,flying=false,marking,remove_from_mills,full_board=both-remove",
    "da-san-qi": (
        "board=12,men=12,flying=false,marking,remove_from_mills,multiple_removals,"
        "defender_first,full_board=first-loses"
    ),
    "el-filja": "men=12,flying=false,remove_from_mills,mill_counts",
    "dooz": "board=12,men=12,remove_from_mills,hand_removal,full_board=first-removes",
}


def test_equal_options_give_one_canonical_spec() -> None:
    """The settings sorted by name, defaults left out, whatever the order, case, spelling
    (``=true``, an alias) or defaults written."""
    canonical = "morris-custom:board=12,lasker,men=10"
    for spec in [
        canonical,
        "morris-custom:men=10,lasker=true,board=12",
        "Custom-Morris: MEN=10 , board=12,lasker,flying=true,black_first=false,repetition=3",
    ]:
        assert str(ludoteca.load(spec).rules) == canonical
    assert str(ludoteca.load("morris-custom:one_time_mills,three_men_rule=10").rules) == (
        "morris-custom:one_time_mills,three_men_rule=10"
    )


def test_a_custom_spec_that_plays_as_a_named_rule_set_is_that_rule_set() -> None:
    for name, settings in NAMED.items():
        spec = f"morris-custom:{settings}" if settings else "morris-custom"
        assert str(ludoteca.load(spec).rules) == name, spec
        # a setting of the family changed: the named rule set with it
        flying = str(not ludoteca.load(name).rules["flying"]).lower()
        again = ludoteca.load(f"{spec}{',' if settings else ':'}flying={flying},move_rule=50")
        assert again.rules.name == name and again.rules["move_rule"] == 50, spec
    # the named rule sets have no three-men rule (Morabaraba has it, at 20): a custom one
    assert ludoteca.load("morris-custom:three_men_rule=10").rules.name == "morris-custom"
    without = ludoteca.load(f"morris-custom:{NAMED['morabaraba']},three_men_rule=0")
    assert str(without.rules) == "morabaraba:three_men_rule=0"
    # one rule away from a named rule set: custom (Twelve Men's Morris where a full board loses)
    assert str(ludoteca.load("morris-custom:board=12,men=12").rules) == (
        "morris-custom:board=12,men=12"
    )


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("morris-custom:board=7", "the board is 6, 9 or 12"),
        ("morris-custom:men=2", "2 men a side cannot play on a board of 24 points"),
        ("morris-custom:men=13", "from 3 (fewer have lost already) to 12"),
        ("morris-custom:board=6,men=9", "9 men a side cannot play on a board of 16 points"),
        ("morris-custom:full_board=draw", "a full board's action needs men that fill the board"),
        ("morris-custom:board=6,men=7,full_board=both-remove", "(8 a side on 16 points), not 7"),
        ("morris-custom:full_board=sometimes", "full_board is one of none, draw, first-loses"),
        ("morris-custom:full_board", "full_board is one of none, draw"),
        ("morris-custom:mill_counts,marking", "takes nothing, so marking has nothing to do"),
        ("morris-custom:mill_counts,hand_removal", "so hand_removal has nothing to do"),
        (
            "morris-custom:men=12,mill_counts,full_board=draw",
            "removed by the mills' count first, so the board is never full then",
        ),
        ("morris-custom:men=ten", "setting men takes a whole number"),
        ("morris-custom:diagonals", "unknown setting 'diagonals'"),
    ],
)
def test_settings_that_make_no_game_are_refused_in_a_sentence(spec: str, words: str) -> None:
    with pytest.raises(InvalidRulesError) as refused:
        ludoteca.load(spec)
    assert words in str(refused.value)


def test_the_command_line_names_a_custom_rule_set_by_its_spec(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["levels", "morris", "--rules", "morris-custom:men=10,board=12"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        "Custom mill game (board of 24 points with diagonals, 10 men a side): "
        "morris-custom:board=12,men=10"
    )
    assert main(["perft", "morris", "1", "--rules", "morris-custom:men=13"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: 13 men a side cannot play") and err.count("\n") == 1


def test_the_title_says_every_setting_that_differs() -> None:
    game = ludoteca.load(
        "morris-custom:board=6,men=8,black_first,lasker,marking,remove_from_mills,"
        "one_time_mills,full_board=draw,flying=false,three_men_rule=10,move_rule=0,repetition=0"
    )
    assert game.title == "Custom mill game"
    assert game.rules_title == (
        "Custom mill game (Black first, board of 16 points, no flying, a full board: a draw, "
        "moving while placing, marking while placing, 8 men a side, no move rule, one-time "
        "mills, removal from mills, no repetition draw, three men rule 10)"
    )
    game = ludoteca.load(
        "morris-custom:board=12,men=12,multiple_removals,defender_first,hand_removal,"
        "full_board=first-removes"
    )
    assert game.rules_title == (
        "Custom mill game (board of 24 points with diagonals, the second player moves first, "
        "a full board: the first player removes a man, removal from the hand, 12 men a side, "
        "a man for each mill)"
    )
    counts = ludoteca.load("morris-custom:mill_counts,men=11")
    assert counts.rules_title == "Custom mill game (11 men a side, removals by mill counts)"


def test_the_settings_are_the_rules_played() -> None:
    game = ludoteca.load("morris-custom:board=6,men=7,black_first,lasker,one_time_mills")
    assert isinstance(game, Morris)
    variant = game.variant
    assert (variant.board.size, variant.men, variant.first, variant.lasker) == (
        16,
        7,
        ludoteca.Color.BLACK,
        True,
    )
    assert variant.one_time_mills and not (variant.marking or variant.remove_from_mills)
    state = game.new()
    # 16 points in rows of 3, 3, 4, 3 and 3; Black to move, seven men in each hand
    assert state.position_code() == ".../.../..../.../... b 7 7 0 0"
    # no tables and no book but a named rule set's, the family's ladder
    assert game.solver() is None and game.book_path is None
    assert [r.spec for r in game.ladder] == [r.spec for r in ludoteca.load("morris").ladder]


def _settings(spec: str) -> dict[str, SettingValue]:
    """The settings ``spec`` (``board=12,lasker,full_board=draw``) writes, as written."""
    settings: dict[str, SettingValue] = {}
    for item in spec.split(","):
        key, _, value = item.partition("=")
        words = {"": True, "true": True, "false": False}
        settings[key] = int(value) if value.isdigit() else words.get(value, value)
    return settings


def _unnamed(spec: str) -> Morris:
    """The custom rule set of ``spec``'s settings as it is, not the named rule set it equals."""
    settings = {**SETTINGS, **_settings(spec)}
    return Morris(RuleSet("morris", "morris-custom", settings, SETTINGS))


def _positions(state: State, count: int, seed: int) -> list[State]:
    """``count`` positions of a seeded random game from ``state`` (one every few plies)."""
    rng = random.Random(seed)
    out = [state.copy()]
    state = state.copy()
    while len(out) < count and state.outcome() is None:
        state.push(rng.choice(list(state.legal_moves)))
        if state.ply % 5 == 0:
            out.append(state.copy())
    return out


def test_a_custom_rule_set_equal_to_twelve_mens_morris_counts_as_it() -> None:
    """Built from its settings (not turned into ``morris-12``): the same perft counts as
    Twelve Men's Morris, readable and compiled, from the start and from positions of a game."""
    custom = _unnamed("board=12,men=12,full_board=draw")
    assert custom.rules.name == "morris-custom" and custom.variant.play == (
        ludoteca.load("morris-12").variant.play  # type: ignore[attr-defined]
    )
    twelve = ludoteca.new_game("morris-12")
    for position in _positions(twelve, 4, seed=12):
        mine = custom.from_position_code(position.position_code())
        depth = 3 if position.ply else 2
        counts = [perft(position, d) for d in range(1, depth + 1)]
        assert [perft(mine, d) for d in range(1, depth + 1)] == counts
        assert kernel_perft_counts(mine, depth) == counts


def _reference(spec: str, state: State) -> ref.Position:
    """The reference's position of the engine's ``state`` under custom settings ``spec``."""
    pos = ref.start(ref.custom(_settings(spec)), repetition=0, move_rule=0)
    assert isinstance(state, MorrisState)
    names = state.board.points
    size = state.board.size
    pos.occupant = {names[p]: "WB"[c] for c in (0, 1) for p in range(size) if state.men[c] >> p & 1}
    pos.occupant |= {names[p]: ref.MARK for p in range(size) if state.marked >> p & 1}
    pos.hand = {"W": state.hand[0], "B": state.hand[1]}
    pos.turn = "WB"[state.turn]
    pos.used = {
        s: frozenset(names[p] for p in range(size) if state.used[c] >> p & 1)
        for c, s in enumerate("WB")
    }
    pos.seen.clear()
    pos.seen[pos.key()] += 1
    return pos


def test_lasker_on_the_twelve_board_against_the_plain_brute_force() -> None:
    """Ten men a side moving while placing on the diagonal board: perft to three plies from
    positions of a game (placing, moving while placing, moving), by the engine, its kernel and
    the plain second implementation."""
    spec = "board=12,men=10,lasker"
    game = ludoteca.load(f"morris-custom:{spec},repetition=0,move_rule=0")
    assert game.rules.name == "morris-custom"
    for position in _positions(game.new(), 6, seed=3):
        pos = _reference(spec, position)
        counts = [ref.perft(pos, d) for d in (1, 2, 3)]
        assert [perft(position, d) for d in (1, 2, 3)] == counts, position.position_code()
        assert kernel_perft_counts(position, 3) == counts


@pytest.mark.parametrize("seed", range(12))
def test_random_custom_games_against_the_plain_implementation(seed: int) -> None:
    """Random settings, a seeded random game: at every position the same legal moves as the
    plain second implementation, and the same ending."""
    rng = random.Random(seed)
    _play_against_the_reference(ref.random_settings(rng), rng)


@pytest.mark.parametrize("action", ["draw", "first-loses", "first-removes", "both-remove"])
@pytest.mark.parametrize("board", [6, 9])
def test_each_full_board_action_against_the_plain_implementation(action: str, board: int) -> None:
    """Men that fill the board (8 a side on 16 points, 12 on 24), with each full-board action,
    the defender moving first or not, one removal or one for each mill: random games move for
    move as the plain second implementation, to the same ending; games that take no man while
    placing where they can help it, so that some of them fill the board."""
    filled = 0
    for seed in range(12):
        settings: dict[str, SettingValue] = {
            "board": board,
            "men": 8 if board == 6 else 12,
            "full_board": action,
            "defender_first": seed % 2 == 1,
            "multiple_removals": seed % 3 == 2,
            "move_rule": 40,
        }
        filled += _play_against_the_reference(settings, random.Random(seed), quiet=True)
    assert filled


def _play_against_the_reference(
    settings: dict[str, SettingValue], rng: random.Random, *, quiet: bool = False
) -> bool:
    """A random game under the custom ``settings`` (``quiet``: among the moves that take no
    man, where there are some): at every position the same legal moves as the plain second
    implementation, and the same ending; whether the board was full when placing ended."""
    filled = False
    name = ref.custom(settings)
    state = ludoteca.new_game(ref.spec(settings) + ",repetition=0")
    pos = ref.start(name, repetition=0, move_rule=int(settings["move_rule"]))
    reasons = {
        "fewer than three": "fewer than three",
        "no legal moves": "no legal moves",
        "move rule": "move rule",
        "full board": "full board",
        "three men rule": "three men rule",
    }
    while True:
        assert sorted(str(m) for m in state.legal_moves) == sorted(ref.legal(pos)), (
            ref.spec(settings),
            state.position_code(),
        )
        ending, expected = state.outcome(), ref.outcome(pos)
        if ending is not None or expected is not None:
            assert ending is not None and expected is not None, state.position_code()
            winner = None if ending.winner is None else "WB"[ending.winner]
            assert (winner, ending.termination.label) == (expected[0], reasons[expected[1]])
            return filled
        moves = list(state.legal_moves)
        calm = [m for m in moves if quiet and "x" not in str(m)]
        move = rng.choice(calm or moves)
        state.push(move)
        assert isinstance(state, MorrisState)
        full = state.men[0] | state.men[1] == state.board.full
        filled |= full and not (state.hand[0] or state.hand[1])
        pos = ref.play(pos, str(move))
