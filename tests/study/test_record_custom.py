"""Records of custom mill games (docs/formats.md; docs/rules.md "Custom rule set"): the native
record names the rules by their canonical spec and replays; Sanmill's move lists hold a custom
game as its "Custom" variant with our spec in a tag, and refuse, naming the setting, one Sanmill
has no rule option for; the Mill Interchange Format holds a custom game in its manifest's
options, and refuses one-time mills."""

from __future__ import annotations

import random

import pytest

from ludoteca import record
from ludoteca.core import InvalidRecordError
from ludoteca.games import load
from ludoteca.games.morris import mif, mrs, sanmill

SPEC = "morris-custom:board=12,lasker,men=10,remove_from_mills"


def _game(rules: str, seed: int = 4, plies: int = 40) -> record.GameRecord:
    rng = random.Random(seed)
    state = load(rules).new()
    for _ in range(plies):
        codes = state.legal_codes()
        if not codes:
            break
        state.push_code(rng.choice(codes))
    return record.from_state(state, white="Ann", black="Bob", date="2026.01.02")


def test_a_custom_record_names_its_canonical_spec_and_replays() -> None:
    game = _game(SPEC)
    text = record.dumps(game)
    assert f'[Rules "{SPEC}"]' in text
    again = record.loads(text)
    assert str(again.state.rules) == SPEC and again.moves == game.moves
    # a spec written otherwise reads as the canonical one; one that plays as a named rule set
    # reads as that rule set
    other = text.replace(SPEC, "custom-morris:remove_from_mills,men=10,lasker=true,board=12")
    assert str(record.loads(other).state.rules) == SPEC
    twelve = record.dumps(_game("morris-12"))
    spelt = twelve.replace(
        '[Rules "morris-12"]', '[Rules "morris-custom:board=12,men=12,full_board=draw"]'
    )
    assert record.loads(spelt).tags["Rules"] == "morris-12"
    with pytest.raises(InvalidRecordError, match="13 men a side cannot play"):
        record.loads(text.replace(SPEC, "morris-custom:board=12,lasker,men=13"))


def test_sanmill_holds_a_custom_game_as_its_custom_variant() -> None:
    game = _game(SPEC)
    text = sanmill.dumps(game)
    assert '[Variant "Custom"]' in text and f'[LudotecaRules "{SPEC}"]' in text
    again = sanmill.loads(text)
    assert again.tags["Rules"] == SPEC and again.moves == game.moves
    # Sanmill's own Custom list says no options: refused, unless the rules are given
    bare = text.replace(f'[LudotecaRules "{SPEC}"]\n', "")
    with pytest.raises(InvalidRecordError, match="do not say their rule options"):
        sanmill.loads(bare)
    assert sanmill.loads(bare, rules=SPEC).moves == game.moves


def test_sanmills_rule_options_of_a_custom_rule_set() -> None:
    """Sanmill's Cham Gonu preset (its rule settings table: 12 pieces, diagonals, marking and
    delayed removal, no flying, removal from mills) is our Cham Gonu."""
    options = sanmill.sanmill_options(
        load("morris-custom:" + "board=12,men=12,flying=false,marking,remove_from_mills").rules
    )
    assert options["piecesCount"] == "12" and options["hasDiagonalLines"] == "true"
    assert options["millFormationActionInPlacingPhase"] == "markAndDelayRemovingPieces"
    assert (options["mayFly"], options["mayRemoveFromMillsAlways"]) == ("false", "true")
    assert options["boardFullAction"] == "firstPlayerLose"
    assert options["isDefenderMoveFirst"] == "false"
    # Da San Qi's rules but one removal for several mills: the defender moves first, a full
    # board loses for the first player
    defender = sanmill.sanmill_options(
        load(
            "morris-custom:board=12,men=12,flying=false,marking,remove_from_mills,"
            "defender_first,full_board=first-loses"
        ).rules
    )
    assert (defender["isDefenderMoveFirst"], defender["boardFullAction"]) == (
        "true",
        "firstPlayerLose",
    )
    draw = sanmill.sanmill_options(load("morris-custom:board=12,men=12,full_board=draw").rules)
    assert draw["boardFullAction"] == "agreeToDraw"
    removals = sanmill.sanmill_options(
        load("morris-custom:board=12,men=12,multiple_removals,full_board=first-removes").rules
    )
    assert (removals["mayRemoveMultiple"], removals["boardFullAction"]) == (
        "true",
        "sideToMoveRemovePiece",
    )
    counts = sanmill.sanmill_options(load("morris-custom:men=12,mill_counts").rules)
    assert counts["millFormationActionInPlacingPhase"] == "removalBasedOnMillCounts"
    three = sanmill.sanmill_options(load("morris-custom:three_men_rule=20,men=11").rules)
    assert (three["endgameNMoveRule"], three["nMoveRule"], three["piecesCount"]) == (
        "20",
        "100",
        "11",
    )


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("morris-custom:board=6,men=6,lasker", "board=6"),
        ("morris-custom:black_first,lasker", "black_first"),
        ("morris-custom:men=8", "men=8"),
        ("morris-custom:lasker,repetition=2", "repetition=2"),
        ("morris-custom:three_men_rule=100", "three_men_rule=100"),
        # one option for what a mill while placing does
        ("morris-custom:marking,hand_removal", "its millFormationActionInPlacingPhase has"),
        # the second player, to move on a full board, cannot move: Sanmill's firstPlayerLose
        # would have the first lose
        ("morris-custom:board=12,men=12,defender_first", "its boardFullAction has"),
    ],
)
def test_sanmill_refuses_a_setting_it_has_no_option_for(spec: str, named: str) -> None:
    with pytest.raises(InvalidRecordError) as refused:
        sanmill.dumps(_game(spec, plies=6))
    assert named in str(refused.value)


def test_the_mill_interchange_format_holds_a_custom_game() -> None:
    game = _game(SPEC)
    text = mif.dumps(game)
    again = mif.loads(text)
    assert again.tags["Rules"] == SPEC and again.moves == game.moves
    manifest = mrs.manifest(load(SPEC).rules)
    assert manifest["pieces"]["white"] == 10 and manifest["placing"]["movementAllowed"] is True
    assert manifest["topology"] == "mill24-diagonal-v1"
    # a named rule set's manifest reads as it; one-time mills have no manifest here
    assert str(mrs.rules_of(mrs.manifest(load("morris-lasker").rules))) == "morris-lasker"
    for spec in ("morris-custom:one_time_mills", "one-time-mill"):
        with pytest.raises(InvalidRecordError, match="one_time_mills"):
            mif.dumps(_game(spec, plies=6))
    # the removal rules and a full board's loss have their manifest values: the game comes back
    for spec in (
        "morris-custom:multiple_removals",
        "morris-custom:defender_first",
        "morris-custom:hand_removal",
        "morris-custom:mill_counts",
        "morris-custom:board=12,men=12,full_board=first-loses",
        "dooz",
    ):
        played = _game(spec, plies=30)
        back = mif.loads(mif.dumps(played))
        assert back.moves == played.moves and back.tags["Rules"] == str(load(spec).rules), spec
    # rules MIF has no value for are refused, the rule named
    for spec, rule in (
        ("morris-custom:marking,hand_removal", "marks and takes from the hand"),
        ("morris-custom:lasker,marking", "moving while placing with marking"),
    ):
        with pytest.raises(InvalidRecordError, match=rule):
            mif.dumps(_game(spec, plies=6))
