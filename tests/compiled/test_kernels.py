"""The compiled kernels against the readable engines, move for move (:mod:`kernel_check`): in
seeded random games of every rule set with a kernel, the same legal moves at every position, the
same ending, make and unmake restoring the position exactly, and the incremental Zobrist key
equal to a fresh one; perft from random positions counted alike.  ``bench/kernel_check.py`` runs
the same checks on thousands of games a rule set."""

from __future__ import annotations

import pytest

import ludoteca
from checks.kernel_check import compare_perft, follow_random_games
from ludoteca.compiled.drivers import perft_counts
from ludoteca.compiled.registry import REQUIRED, functions
from ludoteca.games import family, game_names, load
from ludoteca.games.morelli import setups
from ludoteca.games.morris import Morris
from ludoteca.perft import perft

from ..games.test_morris_removals import (
    BEFORE_FULL,
    DOUBLE,
    FILJA_NO_MILLS,
    LAST_DOUBLE,
)

#: every rule set with a kernel that is a game of its own (the custom one with its defaults is
#: ``morris``; custom rule sets are checked in ``test_morris_custom.py``)
RULE_SETS = [
    d.name
    for g in game_names()
    for d in family(g).rule_sets
    if load(d.name).kernel is not None and load(d.name).rules.name == d.name
]
GAMES = {
    "morris": 24,
    "morris-6": 24,
    "morris-12": 24,
    "morabaraba": 24,
    "morris-lasker": 24,
    "cheng-san-qi": 24,
    "cham-gonu": 24,
    "one-time-mill": 24,
    "zhi-qi": 24,
    "da-san-qi": 24,
    "el-filja": 24,
    "dooz": 24,
    "felli": 40,
    "felli-mullah": 40,
    "morelli": 6,
    "morelli-11": 8,
    "morelli-9": 10,
}


def test_every_game_has_a_kernel() -> None:
    assert set(RULE_SETS) == set(GAMES)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_kernel_follows_the_engine(rules: str) -> None:
    assert follow_random_games(rules, GAMES[rules]) > 100


@pytest.mark.parametrize("kind", [k for k in setups.KINDS if k != setups.DEFAULT])
def test_kernel_follows_the_engine_under_every_morelli_setup(kind: str) -> None:
    # the setups that break the pair rule (Blocks, Random, Opposing...) and the empty Free one
    # (a game over at once: one position a game)
    checked = follow_random_games(f"morelli-9:setup={kind}", 6)
    assert checked == 6 if kind == "free" else checked > 100


@pytest.mark.parametrize("rules", RULE_SETS)
def test_perft_from_random_positions(rules: str) -> None:
    checked = compare_perft(rules, positions=4, budget=2_000)
    assert len(checked) == 4
    assert all(len(counts) >= 2 for _, counts in checked)


def test_perft_from_the_start_matches_published_counts() -> None:
    # Nine Men's Morris opening: 24 * 23 * 22 placements, no mill possible before the fifth man
    assert perft_counts(ludoteca.new_game("morris"), 3) == [24, 24 * 23, 24 * 23 * 22]
    felli = ludoteca.new_game("felli")
    assert perft_counts(felli, 6) == [perft(felli, d) for d in range(1, 7)]


def test_perft_rejects_a_depth_out_of_range() -> None:
    with pytest.raises(ValueError, match="depth"):
        perft_counts(ludoteca.new_game("felli"), 0)


def test_every_registered_games_kernel_has_every_function() -> None:
    for rules in RULE_SETS:
        kernel = load(rules).kernel
        assert kernel is not None
        assert set(REQUIRED) <= set(functions(kernel.name)), rules


#: positions where the rare rules come at once (tests/games/test_morris_removals.py): a full
#: board when placing ends, a double mill while placing, the last man closing two mills
RARE = [
    ("zhi-qi", BEFORE_FULL),
    ("dooz", BEFORE_FULL),
    ("da-san-qi", BEFORE_FULL),
    ("da-san-qi", DOUBLE),
    ("da-san-qi", LAST_DOUBLE),
    ("el-filja", FILJA_NO_MILLS),
]


@pytest.mark.parametrize(("rules", "start"), RARE)
def test_kernel_follows_the_engine_from_rare_positions(rules: str, start: str) -> None:
    assert follow_random_games(rules, 6, start=start) > 6
    state = Morris.of(rules).from_position_code(start)
    assert perft_counts(state, 4) == [perft(state, d) for d in range(1, 5)]


def test_perft_of_the_new_rule_sets_from_the_start() -> None:
    # El Filja's mills take nothing while men are placed, and Dooz's first (White's fifth man)
    # takes a man from Black's hand, no point blocked: six plies of placements on 24 points
    placements = [24, 24 * 23, 24 * 23 * 22, 24 * 23 * 22 * 21, 24 * 23 * 22 * 21 * 20]
    placements.append(placements[-1] * 19)
    assert perft_counts(ludoteca.new_game("el-filja"), 6) == placements
    assert perft_counts(ludoteca.new_game("dooz"), 6) == placements
    # no placement closes two mills before a side's fifth man: Zhi Qi and Da San Qi open as
    # Cham Gonu does (the same board, marking and removal from mills)
    cham_gonu = perft_counts(ludoteca.new_game("cham-gonu"), 6)
    assert cham_gonu[4] > placements[4]  # the ply-5 mill takes one of Black's two men
    assert perft_counts(ludoteca.new_game("zhi-qi"), 6) == cham_gonu
    assert perft_counts(ludoteca.new_game("da-san-qi"), 6) == cham_gonu
