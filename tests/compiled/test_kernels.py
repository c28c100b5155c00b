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
from ludoteca.perft import perft

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
