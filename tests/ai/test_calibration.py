"""The levels measured against perfect play (ludoteca.ai.calibration): which moves keep a
position's value, checked on Felli positions worked out by hand and against a plain reading of
the table; the tally of a level's moves against a hand count; the careless player; the interval;
the shares as the ladder keeps and shows them (ludoteca.ai.levels, ``ludoteca levels``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import ludoteca
from ludoteca.ai import levels as ladder
from ludoteca.ai.base import parse_spec
from ludoteca.ai.calibration import Judged, against, against_perfect, openings, wilson
from ludoteca.ai.careless import CarelessAgent, material
from ludoteca.ai.levels import Kept, levels, value_shares
from ludoteca.ai.perfect import PerfectAgent
from ludoteca.cli import main
from ludoteca.core import Color, State
from ludoteca.games.felli.rules import Felli

#: White a1, Black b2, White to move: a1xc3 takes Black's last man and wins at once; a1-c1 (the
#: only other move) leaves one man each, a draw (neither man can be made to stand between the
#: other and an empty point)
CAPTURE = ".../..././b../w.. w 0 20"
#: Black c2, White e1, Black to move, one man each (a draw): c2-c1 and c2-d2 put Black's man
#: between White's and an empty point on a line (e1-c1-a1, e1-d2-c3), so White takes it and
#: wins; c2-c3 and c2-b2 do not
HANGING = ".../..././.b./..w b 0 20"
#: White a5, Black e5 and c3, White to move: a5-c5 is taken by e5 (e5-c5-a5), a5-b4 by c3
#: (c3-b4-a5): lost whatever White plays
LOST = "w.b/.../b/.../... w 0 20"


def position(code: str) -> State:
    return Felli.of().from_position_code(code)


def words(state: State, codes: list[int]) -> set[str]:
    return {str(state.move_of(code)) for code in codes}


@pytest.fixture(scope="module")
def perfect() -> PerfectAgent:
    return PerfectAgent(Felli.parse_rules(), 1)


def test_the_moves_that_keep_the_value_in_positions_worked_out_by_hand(
    perfect: PerfectAgent,
) -> None:
    state = position(CAPTURE)
    assert words(state, state.legal_codes()) == {"a1xc3", "a1-c1"}
    assert words(state, perfect.keeping_codes(state)) == {"a1xc3"}  # the win kept
    state = position(HANGING)
    assert words(state, state.legal_codes()) == {"c2-c3", "c2-c1", "c2-d2", "c2-b2"}
    assert words(state, perfect.keeping_codes(state)) == {"c2-c3", "c2-b2"}  # the draw kept
    state = position(LOST)
    assert words(state, state.legal_codes()) == {"a5-b4", "a5-c5"}
    assert perfect.keeping_codes(state) == state.legal_codes()  # lost: nothing to lose


def test_a_level_tally_against_a_hand_count(perfect: PerfectAgent) -> None:
    # five moves of a level: the winning capture, the drawing step that lets the win go, a man
    # hung, a man kept safe, and a move in a lost position
    played = [
        (CAPTURE, "a1xc3"),
        (CAPTURE, "a1-c1"),
        (HANGING, "c2-c1"),
        (HANGING, "c2-b2"),
        (LOST, "a5-b4"),
    ]
    judged = Judged("level")
    for code, move in played:
        state = position(code)
        judged.judge(perfect, state, state.parse_move(move).code)
        assert state.position_code() == code  # the position is left as it was
    # by hand: kept a1xc3, c2-b2 and the lost position's move; the choices that mattered are
    # the first four (the lost position has none), two of them kept
    assert (judged.moves, judged.kept, judged.choices, judged.kept_choices) == (5, 3, 4, 2)


def test_the_moves_kept_match_a_plain_reading_of_the_table(perfect: PerfectAgent) -> None:
    # on positions of seeded random games: a move keeps the value when the table's value of
    # the position after it, seen from the other side (or a game over: won by the mover,
    # drawn by rule), is at least the table's value of the position
    rng = random.Random(5)
    table = perfect.table
    checked = 0
    while checked < 40:
        state = ludoteca.new_game("felli")
        for _ in range(rng.randrange(0, 30)):
            if state.outcome() is not None:
                break
            state.push_code(rng.choice(state.legal_codes()))
        if state.outcome() is not None:
            continue
        value = table.lookup(state)[0]
        plain = []
        for code in state.legal_codes():
            state.push_code(code)
            outcome = state.outcome()
            if outcome is None:
                after = -table.lookup(state)[0]
            else:
                after = (
                    0 if outcome.winner is None else 1 if outcome.winner is not state.turn else -1
                )
            state.pop_code()
            if after >= value:
                plain.append(code)
        assert perfect.keeping_codes(state) == plain, state.position_code()
        checked += 1


def test_games_against_perfect_play_are_judged_move_by_move() -> None:
    rules = Felli.parse_rules()
    best = against_perfect(rules, "perfect", 4, seed=3, plies=2)
    # the perfect player keeps every value and draws the drawn start against itself
    assert best.moves > 0 and best.kept == best.moves and best.kept_choices == best.choices
    assert (best.games.games, best.games.draws) == (4, 4)
    blind = against_perfect(rules, "random", 4, seed=3, plies=2)
    assert blind.kept_choices < blind.choices  # a random player lets values go
    # a move where no move could lose the value (lost, forced) is always kept
    assert blind.moves - blind.choices <= blind.kept <= blind.moves
    assert blind.games.games == 4 and blind.games.wins == 0


def test_openings_are_seeded_and_keep_the_start_value(perfect: PerfectAgent) -> None:
    rules = Felli.parse_rules()
    first = openings(rules, perfect, 6, seed=9, plies=3)
    again = openings(rules, perfect, 6, seed=9, plies=3)
    assert [s.position_code() for s in first] == [s.position_code() for s in again]
    start = perfect.evaluate(ludoteca.new_game("felli"))[0]
    for state in first:
        assert state.ply == 3 and state.outcome() is None
        assert perfect.evaluate(state)[0] == (start if state.turn is Color.WHITE else -start)


def test_the_careless_player_wins_at_once_and_hangs_nothing_it_can_keep() -> None:
    for seed in range(8):
        agent = CarelessAgent(seed)
        assert str(agent.choose(position(CAPTURE))) == "a1xc3"
        assert str(agent.choose(position(HANGING))) in {"c2-c3", "c2-b2"}
        # lost either way: it plays one of the two
        assert str(agent.choose(position(LOST))) in {"a5-b4", "a5-c5"}
    state = position(LOST)
    assert (material(state, Color.WHITE), material(state, Color.BLACK)) == (1, 2)
    morris = ludoteca.new_game("morris")
    assert material(morris, Color.WHITE) == 9  # in hand, before placing
    morris.push("d6")
    assert (material(morris, Color.WHITE), material(morris, Color.BLACK)) == (9, 9)


def test_level_one_loses_to_the_careless_player_most_of_the_time() -> None:
    # a small slice of bench/level_values.py's measure (100 games there): the careless player
    # takes the Felli beginner's hung men
    rules = Felli.parse_rules()
    results = against(rules, levels(rules)[0].spec, "careless", 12, seed=2)
    assert results.games == 12 and results.losses > 6


def test_the_wilson_interval_against_known_values() -> None:
    # the textbook figures: 5 of 10 gives 23.7%-76.3%; none of 10, 0%-27.8%
    low, high = wilson(5, 10)
    assert (round(low, 3), round(high, 3)) == (0.237, 0.763)
    low, high = wilson(0, 10)
    assert (round(low, 3), round(high, 3)) == (0.0, 0.278)
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_shipped_shares_parse_and_add_up() -> None:
    shipped = value_shares()
    assert shipped, "ludoteca/games/level_values.json holds the measured shares"
    for rules, stored in shipped.items():
        ladder_now = [level.spec for level in levels(ludoteca.load(rules).rules)]
        assert stored["command"].startswith("python -m bench.level_values "), rules
        assert isinstance(stored["endgame"], bool), rules
        for number, entry in stored["levels"].items():
            parse_spec(entry["spec"])
            assert 1 <= int(number) <= len(ladder_now) or entry["spec"] == "perfect", rules
            figures = [entry[k] for k in ("moves", "kept", "choices", "kept_choices", "games")]
            assert all(isinstance(f, int) and f >= 0 for f in figures), (rules, number)
            assert entry["moves"] - entry["choices"] <= entry["kept"] <= entry["moves"]
            assert entry["kept_choices"] <= entry["choices"] <= entry["moves"]
            assert entry["wins"] + entry["draws"] + entry["losses"] == entry["games"] > 0
    # what the Felli ladder shows is what was stored for its levels' specs
    felli = levels(Felli.parse_rules())
    stored = shipped["felli"]["levels"]
    for level in felli:
        entry = stored.get(str(level.number))
        if entry is not None and entry["spec"] == level.spec:
            assert level.kept == Kept(entry["kept"], entry["moves"], False)
            assert level.kept.percent == 100 * entry["kept"] // entry["moves"]
    assert felli[0].kept is not None


def test_stored_shares_are_shown_for_the_spec_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ladder, "VALUES_FILE", tmp_path / "level_values.json")
    ladder.value_shares.cache_clear()
    rules = Felli.parse_rules()
    try:
        assert all(level.kept is None for level in levels(rules))
        first, second = (level.spec for level in levels(rules)[:2])
        figures = {"choices": 4, "kept_choices": 2, "games": 2, "wins": 0, "draws": 1}
        ladder.store_value_shares(
            rules,
            {
                1: {"spec": first, "moves": 7, "kept": 6, **figures, "losses": 1},
                2: {"spec": "search:depth=9", "moves": 5, "kept": 5, **figures, "losses": 1},
            },
            "python -m bench.level_values felli",
            endgame=False,
        )
        shown = levels(rules)
        assert shown[0].kept == Kept(6, 7) and shown[0].kept.percent == 85  # 85.7, rounded down
        assert shown[1].spec == second and shown[1].kept is None  # measured another agent
        assert shown[0].kept.text() == "keeps the value in 85% of moves"
        assert Kept(1, 3, endgame=True).text() == "keeps the value in 33% of endgame moves"
        stored = json.loads((tmp_path / "level_values.json").read_text())
        assert stored["felli"]["levels"]["1"]["moves"] == 7
    finally:
        ladder.value_shares.cache_clear()


def test_the_levels_command_shows_the_share_where_measured(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["levels", "felli"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]  # (the first: the rule set's title, spec)
    for line, level in zip(lines, levels(Felli.parse_rules()), strict=True):
        if level.kept is None:
            assert "keeps the value" not in line
        else:
            assert line.endswith(
                f" - keeps the value in {level.kept.percent}% of moves ({level.kept.moves} "
                "moves judged against perfect play)"
            )
    assert "keeps the value" in lines[0]
    assert main(["levels", "morelli"]) == 0  # no table: nothing measured, nothing shown
    assert "keeps the value" not in capsys.readouterr().out


def test_a_percentage_as_each_language_writes_it() -> None:
    from ludoteca.i18n import percent, use

    shown = {}
    for language in ("en", "fr", "tr"):
        with use(language):
            shown[language] = percent(85)
    assert shown == {"en": "85%", "fr": "85\u00a0%", "tr": "%85"}
