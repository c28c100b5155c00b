"""The compiled kernel against the readable engine on custom rule sets of the mill family
(``morris-custom``, docs/rules.md "Custom rule set"): for random settings (every board, men from
three to a full board, every switch, the draw rules), move for move in seeded random games and
perft from random positions (:mod:`checks.kernel_check`, as ``test_kernels.py`` checks the named
rule sets)."""

from __future__ import annotations

import random

import pytest

import ludoteca
from checks import morris_reference as ref
from checks.kernel_check import compare_perft, follow_random_games
from ludoteca.ai.agents import make_agent
from ludoteca.ai.base import Limit
from ludoteca.ai.levels import levels

#: random custom settings, seeded (drawn once: the test names show them)
SPECS = [ref.spec(ref.random_settings(random.Random(f"custom/{seed}"))) for seed in range(8)]


@pytest.mark.parametrize("spec", SPECS)
def test_kernel_follows_the_engine_on_custom_rules(spec: str) -> None:
    assert ludoteca.load(spec).rules.game == "morris"
    assert follow_random_games(spec, 6) > 30


@pytest.mark.parametrize("spec", SPECS[:4])
def test_perft_from_random_positions_on_custom_rules(spec: str) -> None:
    checked = compare_perft(spec, positions=3, budget=2_000)
    assert len(checked) == 3
    assert all(len(counts) >= 2 for _, counts in checked)


def test_the_random_settings_cover_every_option() -> None:
    """Across the specs, each switch is both on and off, and every board is played."""
    games = [ludoteca.load(spec) for spec in SPECS]
    variants = [g.variant for g in games]  # type: ignore[attr-defined]
    assert {v.board.key for v in variants} == {"16", "24", "24d"}
    for name in (
        "lasker",
        "marking",
        "remove_from_mills",
        "one_time_mills",
        "multiple_removals",
        "defender_first",
        "hand_removal",
        "mill_counts",
    ):
        assert {getattr(v, name) for v in variants} == {True, False}, name
    assert {v.first for v in variants} == set(ludoteca.Color)
    assert {bool(g.rules["flying"]) for g in games} == {True, False}


@pytest.mark.parametrize("spec", SPECS[4:6])
def test_the_ladders_levels_play_custom_rules(spec: str) -> None:
    """The family's ladder plays a custom rule set: its first level and its top one (about a
    second a move, from a book and tables it has not: a tenth of a second here) choose legal
    moves through the start of a game."""
    game = ludoteca.load(spec)
    ladder = levels(game.rules)
    assert [level.spec for level in ladder] == [r.spec for r in ludoteca.load("morris").ladder]
    low = make_agent(ladder[0].spec, game.rules, seed=1)
    top = make_agent(ladder[-1].spec, game.rules, seed=1)
    state = game.new()
    for ply in range(16):
        if state.outcome() is not None:
            break
        agent = (low, top)[ply % 2]
        move = agent.choose(state, Limit(seconds=0.1))
        assert move.code in state.legal_codes()
        state.push(move)
    assert state.ply > 4
