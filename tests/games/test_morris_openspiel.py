"""Differential test against OpenSpiel's ``nine_mens_morris`` (an independent C++ engine).

OpenSpiel splits a mill move into the move and a capture action by the same player; our move with
its removal must equal that pair.  OpenSpiel has no repetition or move-count draw but stops games
at a turn cap, so we switch our draw rules off and stop comparing well before the cap.
"""

from __future__ import annotations

import random

import pytest

import ludoteca
from ludoteca.games.morris.board import NINE

from ..support.need import need

POINTS = NINE.points

pyspiel = need("pyspiel")

from checks.openspiel_morris import nine_mens_morris_points  # noqa: E402

RULES = "morris:repetition=0,move_rule=0"
TURN_CAP = 180  # OpenSpiel ends games after 200 turns


NAMES = nine_mens_morris_points()


def openspiel_moves(state: object) -> set[str]:
    """Every OpenSpiel move, completed by its capture action, written in our notation."""
    player = state.current_player()  # type: ignore[attr-defined]
    moves = set()
    for action in state.legal_actions():  # type: ignore[attr-defined]
        text = (
            NAMES[action]
            if action < 24
            else (f"{NAMES[(action - 24) // 24]}-{NAMES[(action - 24) % 24]}")
        )
        child = state.child(action)  # type: ignore[attr-defined]
        if not child.is_terminal() and child.current_player() == player:
            moves.update(f"{text}x{NAMES[c]}" for c in child.legal_actions())
        else:
            moves.add(text)
    return moves


def apply(state: object, move: ludoteca.Move) -> list[int]:
    """Play ``move`` in OpenSpiel's ``state``; the actions it took."""
    src, dst, rem = move.src, move.dst, move.remove  # type: ignore[attr-defined]
    to_os = {name: i for i, name in enumerate(NAMES)}
    actions = [
        to_os[POINTS[dst]] if src is None else 24 + to_os[POINTS[src]] * 24 + to_os[POINTS[dst]]
    ]
    if rem is not None:
        actions.append(to_os[POINTS[rem]])
    for action in actions:
        state.apply_action(action)  # type: ignore[attr-defined]
    return actions


def test_point_order_is_understood() -> None:
    assert sorted(NAMES) == sorted(POINTS)
    assert NAMES[:3] == ["a7", "d7", "g7"] and NAMES[-3:] == ["a1", "d1", "g1"]


@pytest.mark.parametrize("chunk", range(4))
def test_legal_moves_agree_with_openspiel(chunk: int) -> None:
    game = pyspiel.load_game("nine_mens_morris")
    compared = endings = 0
    for seed in range(chunk * 75, chunk * 75 + 75):
        rng = random.Random(seed)
        ours = ludoteca.new_game("morris", rules=RULES)
        theirs = game.new_initial_state()
        while ours.ply < TURN_CAP:
            legal = {str(m) for m in ours.legal_moves}
            assert legal == openspiel_moves(theirs), f"seed {seed}, position {ours.position_code()}"
            compared += 1
            outcome = ours.outcome()
            if outcome is not None:
                assert theirs.is_terminal()
                winner = theirs.returns().index(1.0)
                assert winner == int(outcome.winner)  # type: ignore[arg-type]
                endings += 1
                break
            assert not theirs.is_terminal()
            move = rng.choice(list(ours.legal_moves))
            ours.push(move)
            apply(theirs, move)
    assert compared > 5000 and endings > 10


def test_action_paths_are_openspiels_actions_in_our_point_order() -> None:
    ours_to_os = [NAMES.index(p) for p in POINTS]

    def openspiel_action(action: int) -> int:
        if action < 24:  # a placement or a removal: a point
            return ours_to_os[action]
        src, dst = divmod(action - 24, 24)
        return 24 + ours_to_os[src] * 24 + ours_to_os[dst]

    game = pyspiel.load_game("nine_mens_morris")
    removals = 0
    for seed in range(20):
        rng = random.Random(seed)
        ours = ludoteca.new_game("morris", rules=RULES)
        theirs = game.new_initial_state()
        while ours.ply < TURN_CAP and ours.outcome() is None:
            move = rng.choice(list(ours.legal_moves))
            path = ours.action_path(move.code)
            assert [openspiel_action(a) for a in path] == apply(theirs, move)
            removals += len(path) - 1
            ours.push(move)
    assert removals > 100
