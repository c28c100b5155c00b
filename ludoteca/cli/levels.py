"""``ludoteca levels GAME [--rules R]``: the computer levels of a game and their ratings.

Contract: prints the rule set's title and canonical spec (``Custom mill game (10 men a side):
morris-custom:men=10``), then a line for each level of the rule set: its number, name,
description and agent spec, its measured ladder Elo (level 1 = 1000) or "not measured", and,
where measured (a rule set with a solved table), the share of its moves that keep the
position's value against perfect play, with the number of moves judged.
"""

from __future__ import annotations

import argparse

from ..games import load

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca levels`` to the command line's subcommands ``sub``."""
    p = sub.add_parser("levels", help="the computer levels of a game and their ratings")
    p.add_argument("game")
    p.add_argument("--rules", default=None)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the levels."""
    from ..ai.levels import levels

    game = load(args.game, args.rules)
    rules = game.rules
    print(f"{game.rules_title}: {rules}")
    for level in levels(rules):
        rating = (
            "not measured"
            if level.rating is None
            else f"ladder Elo {level.rating[0]:.0f} ±{level.rating[1]:.0f} (level 1 = 1000, "
            f"{level.rating[2]} games between the levels)"
        )
        kept = (
            ""
            if level.kept is None
            else f" - {level.kept.text()} ({level.kept.moves} moves judged against perfect play)"
        )
        print(
            f"level {level.number}, {level.name}: {level.description} [{level.spec}] - {rating}"
            + kept
        )
    return 0
