"""The Mill Interchange Format's game records (MSTATE/1.0; docs/formats.md, "Other programs'
records"): the format's own published facts (its digests, its board), records written by hand
from its specification (``mif-1.0.md`` at github.com/calcitem/mill-interchange-format; its
NOTICE declares Apache-2.0, but its only 1.0 example of these rules, a full board's removals in
``artifacts/mif-1.0/corpus/instances/mstate-origin-stabilization.json``, starts from a set-up
position under rules none of ours plays (Black first, White removing first), so the records
here are written by hand) read and replayed, our records written and read back identical, and
bad records refused naming what is wrong, by the CLI too (the review API reading one:
tests/study/test_record_formats.py).  Cost: a few seconds."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca import formats, record
from ludoteca.cli import main
from ludoteca.core import InvalidRecordError, Termination
from ludoteca.games import load
from ludoteca.games.morris import mif, mrs
from ludoteca.games.morris.board import NINE, TWELVE

from .test_record_formats import _random_game

# --- the specification's facts ----------------------------------------------------------------
_OFF: dict[str, Any] = {
    "enabled": False,
    "lines": {"cross": False, "diagonal": False, "squareEdges": False},
    "maximumOwnLivePieces": None,
    "phases": ["moving"],
}


def _example_morris(**changes: Any) -> dict[str, Any]:
    """The specification's fixture document D1 (Annex C.2, ``example-morris@1``), member by
    member as the annex gives it; ``changes`` replace members (``"turn.initial": "w"``)."""
    document: dict[str, Any] = {
        "boardFull": {"action": "disabled"},
        "captures": {
            "custodian": _OFF,
            "intervention": _OFF,
            "leap": _OFF,
            "resolution": "target-commits-v1",
        },
        "draw": {
            "claimRights": {"profile": "stable-claim-rights-v1"},
            "noProgress": {
                "countedPrimaryActions": ["move"],
                "endgameLimit": 0,
                "endgamePredicate": "none",
                "evaluationBoundary": "stable-after-primary-sequence-v1",
                "mode": "automatic",
                "normalLimit": 0,
                "resetEvents": ["board-remove"],
            },
            "offers": {"expiry": "explicit-only"},
            "repetition": {
                "count": 3,
                "mode": "claim",
                "observation": "stable-primary-decision-v1",
                "projection": "repetition-observation-v1",
                "resetEvents": ["board-remove"],
                "summary": "reset-count-smt-v1",
            },
        },
        "flying": {"enabled": True, "maximumLive": 3},
        "format": "MRS/1.0",
        "id": "example-morris",
        "mills": {
            "delayedClearBoundary": "on-enter-moving-v1",
            "lineReuse": "unlimited",
            "movingEffect": "remove-opponent-board",
            "placingEffect": "remove-opponent-board",
            "removalMultiplicity": "one-per-primary",
            "reverseReformation": "allowed",
            "targetProtection": "outside-mill-first",
        },
        "pieces": {"black": 9, "minimumLive": 3, "white": 9},
        "placing": {
            "earlyStop": {"boundary": "after-unobligated-place-v1", "emptyPoints": 0},
            "movementAllowed": False,
            "noLegalPrimaryAction": "loss",
        },
        "semanticState": [],
        "semanticsProfile": "mif-finite-rules-v3",
        "stalemate": {"action": "loss", "boardRemovalTargets": "adjacent-opponent"},
        "status": "fixture",
        "title": "Example Morris",
        "topology": "mill24-orthogonal-v1",
        "turn": {"initial": "b", "placingEndActivePlayer": "retain"},
        "version": 1,
    }
    for path, value in changes.items():
        *parents, last = path.split(".")
        target = document
        for name in parents:
            target[name] = target = copy.deepcopy(target[name])
        target[last] = value
    return document


def test_the_specifications_digests() -> None:
    """Annex C.2 and C.3 publish the digests of D1, of its retitled copy D2, of its semantic
    projection and of the empty origin's repetition observation."""
    d1 = _example_morris()
    semantic = "sha256:224f7e368e322a4cc8c1225a025fb548d5b41eb096d34b7ae0543182d1aa9393"
    assert mrs.digest(d1) == (
        "sha256:62479b6f40efb8ab478bab3d2b725647213604fcd3cc9cd4c1f69357535ae257"
    )
    assert mrs.digest(mrs.projection(d1)) == semantic
    d2 = _example_morris(title="Example Morris (retitled)")
    assert mrs.digest(d2) == (
        "sha256:60b8f91214e2273a0f7eb411794ce3b133c61653b2199763ab555d90f042e6e4"
    )
    assert mrs.digest(mrs.projection(d2)) == semantic
    observation = {
        "profile": "repetition-observation-v1",
        "stateProfile": "mill24-state-v1",
        "semanticDigest": semantic,
        "board": "......../......../........",
        "side": "b",
        "phase": "p",
        "action": "p",
        "hands": [9, 9],
        "semantic": {},
    }
    assert mrs.digest(observation) == (
        "sha256:6adc3718c5b16999b2a75b444728656e9901b003b8ff641813d73b2cdcba1e4e"
    )
    # RFC 8785's own examples of number forms and of member order by UTF-16 code units
    assert mrs.jcs([1e21, 1e-7, 333333333.33333329, 4.5, 1e-6]) == (
        b"[1e+21,1e-7,333333333.3333333,4.5,0.000001]"
    )
    assert mrs.jcs({"\ufb33": 1, "\U0001f600": 2, "\u20ac": 3, "\r": 4}) == (
        '{"\\r":4,"\u20ac":3,"\U0001f600":2,"\ufb33":1}'.encode()
    )


def test_the_specifications_board_is_ours() -> None:
    """Annex A: ring neighbours and the cross edges (the diagonal board adds the corners'), and
    the 16 (20) line triples, against our two 24-point boards."""
    rings = [mif.POINT_ORDER[i : i + 8] for i in (0, 8, 16)]
    edges = {frozenset((ring[i], ring[(i + 1) % 8])) for ring in rings for i in range(8)}
    cross = "d7-d6 d6-d5 g4-f4 f4-e4 d1-d2 d2-d3 a4-b4 b4-c4"
    diagonal = "a7-b6 b6-c5 g7-f6 f6-e5 g1-f2 f2-e3 a1-b2 b2-c3"
    orthogonal = edges | {frozenset(pair.split("-")) for pair in cross.split()}
    diagonals = orthogonal | {frozenset(pair.split("-")) for pair in diagonal.split()}
    for board, want in ((NINE, orthogonal), (TWELVE, diagonals)):
        assert {frozenset((board.points[a], board.points[b])) for a, b in board.edges} == want
    lines = (
        "a7,d7,g7 g7,g4,g1 g1,d1,a1 a1,a4,a7 b6,d6,f6 f6,f4,f2 f2,d2,b2 b2,b4,b6 c5,d5,e5 "
        "e5,e4,e3 e3,d3,c3 c3,c4,c5 d7,d6,d5 g4,f4,e4 d1,d2,d3 a4,b4,c4"
    ).split()
    corners = "a7,b6,c5 g7,f6,e5 g1,f2,e3 a1,b2,c3".split()
    for board, triples in ((NINE, lines), (TWELVE, lines + corners)):
        ours = {
            frozenset(board.points[p] for p in range(24) if m >> p & 1) for m in board.mill_masks
        }
        assert ours == {frozenset(t.split(",")) for t in triples}


def test_our_manifests_say_the_specifications_words() -> None:
    """Nine Men's Morris is D1 with White first, automatic draws and the 100-ply move rule; a
    manifest reset by removals alone reads as ours (a placement resets nothing that can recur)."""
    nine = _example_morris(
        **{
            "turn.initial": "w",
            "draw.repetition.mode": "automatic",
            "draw.noProgress.normalLimit": 100,
        }
    )
    assert str(mrs.rules_of(nine)) == "morris"
    assert str(mrs.rules_of(_example_morris(**{**_nine_changes(), "flying.enabled": False}))) == (
        "morris:flying=false"
    )
    for name in ("morris-12", "morabaraba", "morris-lasker", "cheng-san-qi", "cham-gonu"):
        assert str(mrs.rules_of(mrs.manifest(load(name).rules))) == name
    with pytest.raises(InvalidRecordError, match="24 points"):
        mrs.manifest(load("morris-6").rules)


def _nine_changes() -> dict[str, Any]:
    return {
        "turn.initial": "w",
        "draw.repetition.mode": "automatic",
        "draw.noProgress.normalLimit": 100,
    }


def test_rule_options_we_do_not_play_are_named() -> None:
    with pytest.raises(InvalidRecordError) as caught:
        mrs.rules_of(_example_morris())
    message = str(caught.value)
    assert "'example-morris@1'" in message
    # (D1's Black first is played: by the custom rule set, which differs in the claim alone)
    assert message.endswith('draw.repetition.mode="claim"')
    automatic = _example_morris(**{"draw.repetition.mode": "automatic"})
    assert str(mrs.rules_of(automatic)) == "morris-custom:black_first,move_rule=0"
    custodian = {**_OFF, "enabled": True, "lines": {**_OFF["lines"], "squareEdges": True}}
    with pytest.raises(InvalidRecordError, match=r"captures\.custodian\.enabled=true"):
        mrs.rules_of(_example_morris(**_nine_changes(), **{"captures.custodian": custodian}))
    with pytest.raises(InvalidRecordError, match=r'boardFull\.action="white-loses"'):
        mrs.rules_of(_example_morris(**_nine_changes(), **{"boardFull.action": "white-loses"}))


# --- records written by hand from the specification -------------------------------------------
def _by_hand(manifest: dict[str, Any], events: list[dict[str, Any]], current: str) -> str:
    """An MSTATE as clause 9 lays it out, portable, with the given events and checkpoint."""
    origin = "MFEN/1.0 mill24-state-v1 ......../......../........ w p p 9,9 - 0 0 -"
    return json.dumps(
        {
            "format": "MSTATE/1.0",
            "positionFormat": "MFEN/1.0",
            "stateProfile": "mill24-state-v1",
            "ruleset": {
                "mode": "portable",
                "id": manifest["id"],
                "version": manifest["version"],
                "semanticDigest": mrs.digest(mrs.projection(manifest)),
                "documentDigest": mrs.digest(manifest),
                "manifest": manifest,
            },
            "origin": origin.replace(
                "9,9", f"{manifest['pieces']['white']},{manifest['pieces']['black']}"
            ),
            "events": events,
            "current": current,
            "repetitionHistory": [],
            "preOriginClaims": [],
            "claims": [],
            "annotations": {"event": "club night", "ludoteca": {"tags": {"White": "Ann"}}},
        }
    )


def _events(*moves: str) -> list[dict[str, Any]]:
    """Events of moves written ``a7``, ``a1-a4``, ``xb6`` (a removal by the last mover)."""
    events: list[dict[str, Any]] = []
    side = "w"
    for move in moves:
        seq = len(events) + 1
        if move.startswith("x"):
            target = {"zone": "board", "at": move[1:]}
            events.append(
                {"seq": seq, "actor": events[-1]["actor"], "type": "remove", "target": target}
            )
            continue
        if "-" in move:
            source, destination = move.split("-")
            events.append(
                {"seq": seq, "actor": side, "type": "move", "from": source, "to": destination}
            )
        else:
            events.append({"seq": seq, "actor": side, "type": "place", "at": move})
        side = "b" if side == "w" else "w"
    return events


NINE_MANIFEST = _example_morris(**_nine_changes())
# the position after a7 b6 d7 d6 g7 (White's mill on the top line) xb6 f6, worked out by hand
AFTER_MILL = "MFEN/1.0 mill24-state-v1 WWW...../.BB...../........ w p p 6,6 - 0 6 -"


def test_a_record_written_by_hand_is_replayed() -> None:
    text = _by_hand(NINE_MANIFEST, _events("a7", "b6", "d7", "d6", "g7", "xb6", "f6"), AFTER_MILL)
    assert formats.detect(text).name == "mif"
    game = formats.loads(text)
    assert game.moves == ["a7", "b6", "d7", "d6", "g7xb6", "f6"]
    assert game.tags["Rules"] == "morris" and game.result == "*"
    assert game.tags["White"] == "Ann" and game.tags["MIF_event"] == "club night"
    # written back, the foreign annotation returns to its place
    again = json.loads(mif.dumps(game))
    assert again["annotations"]["event"] == "club night" and again["current"] == AFTER_MILL


def test_a_marked_man_is_a_token_of_its_owner() -> None:
    """Cheng San Qi: the man a mill takes while placing stays as a blocked token (``b``)."""
    cheng = mrs.manifest(load("cheng-san-qi").rules)
    after = "MFEN/1.0 mill24-state-v1 WWW...../bB....../........ b p p 6,7 - 0 5 -"
    game = formats.loads(_by_hand(cheng, _events("a7", "b6", "d7", "d6", "g7", "xb6"), after))
    assert game.moves[-1] == "g7xb6" and game.state.marked  # type: ignore[attr-defined]
    written = json.loads(mif.dumps(game))
    assert written["current"] == after
    # the placement and the removal reset the repetition window: one observation, after them
    assert [entry["eventSeq"] for entry in written["repetitionHistory"]] == [6]


def test_bad_records_are_refused_naming_the_fault() -> None:
    def refused(text: str, pattern: str) -> None:
        with pytest.raises(InvalidRecordError, match=pattern):
            mif.loads(text)

    good = _events("a7", "b6", "d7", "d6", "g7", "xb6", "f6")
    refused(
        _by_hand(NINE_MANIFEST, _events("a7", "a7"), AFTER_MILL),
        r"event 2 \(/events/1, place a7\): a7: a7 is occupied",
    )
    refused(
        _by_hand(NINE_MANIFEST, _events("a7", "b6", "xa7"), AFTER_MILL),
        r"event 3 \(/events/2, remove a7\): xa7: a removal alone, such as xa7, is a turn only "
        "when removals are due",
    )
    removal = {"seq": 1, "actor": "w", "type": "remove", "target": {"zone": "board", "at": "a7"}}
    refused(_by_hand(NINE_MANIFEST, [removal], AFTER_MILL), r"event 1 .*only when removals are")
    removal["target"] = {"zone": "hand", "player": "b"}
    refused(_by_hand(NINE_MANIFEST, [removal], AFTER_MILL), r"event 1 .*hand that no mill allows")
    refused(_by_hand(NINE_MANIFEST, good[:4] + good[6:], AFTER_MILL), r"event 5 .*numbered")
    refused(_by_hand(NINE_MANIFEST, good[:5], AFTER_MILL), r"event 5 .*g7: this closes a mill")
    refused(
        _by_hand(NINE_MANIFEST, good, AFTER_MILL.replace("6,6", "6,5")),
        "is not where its events lead",
    )
    wrong_turn = _events("a7", "b6")
    wrong_turn[1]["actor"] = "w"
    refused(_by_hand(NINE_MANIFEST, wrong_turn, AFTER_MILL), r"event 2 .*Black's turn")
    claim = [{"seq": 1, "actor": "w", "type": "claim-draw", "reason": "repetition"}]
    refused(_by_hand(NINE_MANIFEST, claim, AFTER_MILL), "draw by themselves")
    text = _by_hand(NINE_MANIFEST, good, AFTER_MILL)
    refused(text.replace(mrs.digest(NINE_MANIFEST), "sha256:" + "0" * 64), "documentDigest")
    refused(
        text.replace(
            '"origin": "MFEN/1.0 mill24-state-v1 ........',
            '"origin": "MFEN/1.0 mill24-state-v1 W.......',
        ),
        "set-up position",
    )
    refused(text.replace('"format": "MSTATE/1.0"', '"format": "MSTATE/0.4"'), "not 'MSTATE/0.4'")
    refused(text.replace('"claims": []', '"claims": [], "claims": []'), "repeats a member")
    refused(text[:-1], "not JSON")
    refused(_by_hand(_example_morris(), good, AFTER_MILL), "'example-morris@1' has rule options")


def test_a_reference_to_one_of_our_rule_sets_is_resolved() -> None:
    document = json.loads(mif.dumps(_random_game("morris-lasker", 3, 40)))
    manifest = document["ruleset"].pop("manifest")
    document["ruleset"]["mode"] = "reference"
    assert mif.loads(json.dumps(document)).tags["Rules"] == "morris-lasker"
    document["ruleset"]["semanticDigest"] = mrs.digest(mrs.projection(_example_morris()))
    with pytest.raises(InvalidRecordError, match="portable mode"):
        mif.loads(json.dumps(document))
    assert manifest["id"] == "x-ludoteca-morris-lasker"


# --- our records out and back -----------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(
        [
            "morris",
            "morris-12",
            "morabaraba",
            "morris-lasker",
            "cheng-san-qi",
            "cham-gonu",
            "zhi-qi",
            "da-san-qi",
            "el-filja",
            "dooz",
            "morris:flying=false,repetition=0",
        ]
    ),
    st.integers(0, 10**6),
    st.integers(0, 250),
)
def test_round_trip_of_random_games(rules: str, seed: int, plies: int) -> None:
    game = _random_game(rules, seed, plies)
    text = mif.dumps(game)
    assert record.dumps(mif.loads(text)) == record.dumps(game)
    document = json.loads(text)
    assert document["ruleset"]["manifest"]["pieces"]["white"] == load(rules).variant.men  # type: ignore[attr-defined]
    kinds = [e["type"] for e in document["events"] if e.get("target", {}).get("zone") != "hand"]
    # a place/move event for each move, a board remove event for each removal (9.2)
    assert kinds.count("place") + kinds.count("move") == sum(m[0] != "x" for m in game.moves)
    assert kinds.count("remove") == sum(m.count("x") for m in game.moves)


def test_endings_off_the_board_and_comments_round_trip() -> None:
    state = _random_game("morris", 11, 30).state
    assert state.outcome() is None
    for result, termination in (
        ("0-1", Termination.RESIGNATION),
        ("1/2-1/2", Termination.DRAW_AGREED),
        ("1-0", Termination.TIME_FORFEIT),
    ):
        game = record.from_state(
            state, result=result, termination=termination, comments={0: "opening", 3: "{sharp}"}
        )
        text = mif.dumps(game)
        assert record.dumps(mif.loads(text)) == record.dumps(game)
        document = json.loads(text)
        if termination is Termination.RESIGNATION:
            assert document["events"][-1] == {
                "seq": len(document["events"]),
                "actor": "w",
                "type": "resign",
            }
            assert document["current"].endswith("b:resignation")
        if termination is Termination.DRAW_AGREED:
            assert [e["type"] for e in document["events"][-2:]] == ["offer-draw", "accept-draw"]
            assert document["claims"][0]["status"] == "accepted"
        if termination is Termination.TIME_FORFEIT:  # MIF names no such ending: ours, in tags
            assert document["current"].endswith(" -")


def test_no_move_rule_no_counter() -> None:
    """Without a no-progress limit MIF keeps no counter (its field stays 0); ours counts."""
    game = _random_game("morris:move_rule=0", 1, 30)
    assert game.state.quiet > 0  # type: ignore[attr-defined]
    current = json.loads(mif.dumps(game))["current"].split()
    assert current[8] == "0" and current[9] == str(len(game.moves))
    assert record.dumps(mif.loads(mif.dumps(game))) == record.dumps(game)


def test_games_mif_cannot_hold() -> None:
    with pytest.raises(InvalidRecordError, match="24 points"):
        formats.dumps(_random_game("morris-6", 1, 4), "mif")
    with pytest.raises(InvalidRecordError, match="cannot hold a game of felli"):
        formats.dumps(_random_game("felli", 1, 3), "mif")


# --- the CLI -----------------------------------------------------------------
def test_cli_convert_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    native = tmp_path / "game.lud"
    game = _random_game("cheng-san-qi", 5, 60)
    native.write_text(record.dumps(game))
    out = tmp_path / "game.json"
    assert main(["record", "convert", str(native), str(out), "--to", "mif"]) == 0
    assert main(["record", "check", str(out)]) == 0
    assert f"{len(game.moves)} plies" in capsys.readouterr().out
    back = tmp_path / "back.lud"
    assert main(["record", "convert", str(out), str(back), "--to", "ludoteca"]) == 0
    assert back.read_text() == native.read_text()
    bad = tmp_path / "bad.json"
    bad.write_text(_by_hand(NINE_MANIFEST, _events("a7", "a7"), AFTER_MILL))
    refused = tmp_path / "refused.lud"
    assert main(["record", "convert", str(bad), str(refused), "--to", "ludoteca"]) == 2
    assert not refused.exists() and "event 2 (/events/1, place a7)" in capsys.readouterr().err


# --- the rule sets with removals as turns of their own ---------------------------------------
# (mif-1.0.md, clause 3.4: "A supplementary action is a `remove` that resolves an obligation";
# 9.2: "Every hand or board removal remains an independent event.")
def test_the_manifests_of_the_rule_sets_with_removals_alone() -> None:
    """Each rule checked against the words of the specification that name its value."""
    zhi, da, filja, dooz = (
        mrs.manifest(load(name).rules) for name in ("zhi-qi", "da-san-qi", "el-filja", "dooz")
    )
    for document, men, topology in (
        (zhi, 12, "mill24-diagonal-v1"),
        (da, 12, "mill24-diagonal-v1"),
        (filja, 12, "mill24-orthogonal-v1"),
        (dooz, 12, "mill24-diagonal-v1"),
    ):
        assert document["topology"] == topology
        assert document["pieces"] == {"white": men, "black": men, "minimumLive": 3}
        # 10.3, targetProtection "all-opponent" (0.4, 11.6: "For `all-opponent`, the target
        # set is every opponent live piece"): all four take any man
        assert document["mills"]["targetProtection"] == "all-opponent"
        assert document["mills"]["lineReuse"] == "unlimited"
    # Zhi Qi: 10.3 "`mark-opponent-board-until-moving`" (0.4, 10.6: "board removal changes the
    # target to a blocked lower-case token"); 11.5 "The two fixed-colour removal actions
    # generate their named order and then activate White or Black respectively": White
    # removes, then Black, then White moves
    assert zhi["mills"]["placingEffect"] == "mark-opponent-board-until-moving"
    assert zhi["mills"]["removalMultiplicity"] == "one-per-primary"
    assert zhi["boardFull"] == {"action": "white-then-black-remove"}
    assert zhi["turn"] == {"initial": "w", "placingEndActivePlayer": "retain"}
    # Da San Qi: 11.2 "Mill multiplicity is one per primary or one per usable new line"; 11.4
    # "[the global boundary] selects side from placingEndActivePlayer": Black, the second
    # player, moves first; 11.5 "`white-loses` makes Black win"
    assert da["mills"]["placingEffect"] == "mark-opponent-board-until-moving"
    assert da["mills"]["removalMultiplicity"] == "one-per-new-line"
    assert da["turn"] == {"initial": "w", "placingEndActivePlayer": "b"}
    assert da["boardFull"] == {"action": "white-loses"}
    # El Filja: 11.3 "Current-mill-count effect waits for the global placing boundary"
    assert filja["mills"]["placingEffect"] == "remove-by-current-mill-count-at-placing-end"
    assert filja["boardFull"] == {"action": "disabled"}
    assert filja["turn"] == {"initial": "w", "placingEndActivePlayer": "retain"}
    # Dooz: 0.4, 10.6 "`remove-opponent-hand-change` | remove opponent hand tokens first,
    # overflow to board, then opponent becomes primary player"; 11.5 "`active-player-removes`
    # removes one opponent piece then changes side"
    assert dooz["mills"]["placingEffect"] == "remove-opponent-hand-change"
    assert dooz["boardFull"] == {"action": "active-player-removes"}
    assert dooz["flying"] == {"enabled": True, "maximumLive": 3}
    for name, document in (("zhi-qi", zhi), ("da-san-qi", da), ("el-filja", filja), ("dooz", dooz)):
        assert str(mrs.rules_of(document)) == name
    # 10.4 "These are fixed-colour effects": Black moving first removes first
    custom = load("morris-custom:board=12,men=12,full_board=both-remove,defender_first").rules
    document = mrs.manifest(custom)
    assert document["boardFull"] == {"action": "black-then-white-remove"}
    assert document["turn"]["placingEndActivePlayer"] == "b"
    assert mrs.rules_of(document) == custom


def test_rules_mif_has_no_value_for_are_named() -> None:
    for spec, words in (
        # 6.5: "`ul` records line IDs, not a union of their points"
        ("one-time-mill", "one_time_mills"),
        ("morris-custom:board=12,men=10,lasker,marking", "lasker, marking"),
        ("morris-custom:board=12,men=12,hand_removal,marking", "marking, hand_removal"),
        # 10.4 "`white-loses`" (no Black loss); the reference model's mill counts: White first
        ("morris-custom:men=12,black_first,full_board=first-loses", "full_board=first-loses"),
        ("morris-custom:men=12,mill_counts,defender_first", "White always removes first"),
    ):
        with pytest.raises(InvalidRecordError, match="no value for a rule of .*" + words):
            mrs.manifest(load(spec).rules)


def _mfen(board: str, turn: str, hands: str, obligations: str, ply: int) -> str:
    return f"MFEN/1.0 mill24-state-v1 {board} {turn} {hands} {obligations} 0 {ply} -"


def test_a_removal_alone_is_a_remove_event_of_its_own() -> None:
    """Da San Qi: d7 closes two mills (a7-d7-g7, d7-d6-d5), so White takes two men, marking
    them: the first removal joins the placement (``d7xa1``), the second is a turn of its own
    (``xg1``); between them the checkpoint names the obligation (6.4: White removes one Black
    man of g1, f4, b4 — bits 4, 11, 15 of Annex A's order — then Black plays)."""
    manifest = mrs.manifest(load("da-san-qi").rules)
    moves = ("a7", "a1", "g7", "g1", "d6", "b4", "d5", "f4", "d7", "xa1", "xg1")
    pending = _mfen("WWW.B.b./.W.B...B/.W......", "w p r", "7,8", "w:mill:b:b:1:008810:b", 9)
    text = _by_hand(manifest, _events(*moves[:-1]), pending)
    game = formats.loads(text)
    assert game.moves[-1] == "d7xa1" and game.tags["Rules"] == "da-san-qi"
    assert json.loads(mif.dumps(game))["current"] == pending
    done = _mfen("WWW.b.b./.W.B...B/.W......", "b p p", "7,8", "-", 9)
    game = formats.loads(_by_hand(manifest, _events(*moves), done))
    assert game.moves[-2:] == ["d7xa1", "xg1"]
    events = json.loads(mif.dumps(game))["events"]
    assert events == _events(*moves)
    # bad: the second removal by Black, or of White's own man, named by its event
    wrong = _events(*moves)
    wrong[-1]["actor"] = "b"
    with pytest.raises(InvalidRecordError, match=r"event 11 \(/events/10, remove g1\): it is"):
        mif.loads(_by_hand(manifest, wrong, done))
    with pytest.raises(InvalidRecordError, match=r"event 11 \(/events/10, remove d6\): xd6: "):
        mif.loads(_by_hand(manifest, _events(*moves[:-1], "xd6"), done))
    wrong = _events(*moves)
    wrong[9]["actor"] = "b"  # the removal d7's mill takes, by the other player
    with pytest.raises(InvalidRecordError, match=r"event 10 .*by another player than the move"):
        mif.loads(_by_hand(manifest, wrong, done))


def test_a_mill_takes_from_the_hand_in_a_remove_event() -> None:
    """Dooz: White's mill while placing takes a man from Black's hand (a hand target, 9.2),
    then Black plays ("then opponent becomes primary player")."""
    manifest = mrs.manifest(load("dooz").rules)
    events = _events("a7", "b6", "d7", "d6", "g7")
    taken = {"zone": "hand", "player": "b"}
    events.append({"seq": 6, "actor": "w", "type": "remove", "target": taken})
    after = _mfen("WWW...../BB....../........", "b p p", "9,9", "-", 5)
    game = formats.loads(_by_hand(manifest, events, after))
    assert game.moves == ["a7", "b6", "d7", "d6", "g7"] and game.tags["Rules"] == "dooz"
    assert json.loads(mif.dumps(game))["events"] == events
    with pytest.raises(InvalidRecordError, match=r"event 5 .*takes a man from Black's hand"):
        mif.loads(_by_hand(manifest, events[:5], after))


def _placed_quietly(rules: str, seed: int) -> Any:
    """A game of ``rules`` whose placements take no man, up to the last: the board full (or,
    for El Filja, the mill counts due); random placements, from the first seed from ``seed``
    on whose placements never have to take one."""
    for attempt in range(seed, seed + 200):
        rng = random.Random(attempt)
        state: Any = load(rules).new()
        while state.hand[0] or state.hand[1]:
            codes = state.legal_codes()
            rng.shuffle(codes)
            for code in codes:
                mover = state.turn
                men, hand = state.men[1 - mover], state.hand[1 - mover]
                state.push_code(code)
                if state.men[1 - mover] == men and state.hand[1 - mover] == hand:
                    break
                state.pop_code()
            else:
                break  # every placement takes a man: another seed
        else:
            return state
    raise AssertionError(f"{rules}: no quiet placing from seed {seed}")


def _ones(board: str, char: str) -> str:
    """The MFEN target bits of every ``char`` man on an MFEN board."""
    return f"{sum(1 << i for i, c in enumerate(board.replace('/', '')) if c == char):06x}"


LINES = [
    frozenset(t.split(","))
    for t in (
        "a7,d7,g7 g7,g4,g1 g1,d1,a1 a1,a4,a7 b6,d6,f6 f6,f4,f2 f2,d2,b2 b2,b4,b6 c5,d5,e5 "
        "e5,e4,e3 e3,d3,c3 c3,c4,c5 d7,d6,d5 g4,f4,e4 d1,d2,d3 a4,b4,c4"
    ).split()
]


@pytest.mark.parametrize(
    ("rules", "head", "after"),
    [("zhi-qi", "w", ["w", "b"]), ("dooz", "w", ["w"])],
)
def test_a_full_boards_removals(rules: str, head: str, after: list[str]) -> None:
    """Zhi Qi's full board: White then Black remove, then White moves
    (``white-then-black-remove``); Dooz's: White, to move, removes, then Black moves
    (``active-player-removes``); every Black man a target (``all-opponent``)."""
    state = _placed_quietly(rules, 7)
    current = json.loads(mif.dumps(record.from_state(state)))["current"]
    board = current.split()[2]
    assert "." not in board
    chain = "b:board-full:b:w:1:~:w" if len(after) == 2 else ""
    obligations = f"w:board-full:b:b:1:{_ones(board, 'B')}:" + ("q;" + chain if chain else "b")
    assert current == _mfen(board, "w m r", "0,0", obligations, 24)
    rng = random.Random(1)
    for _ in range(len(after) + 1):
        state.push_code(rng.choice(state.legal_codes()))
    game = record.from_state(state)
    events = json.loads(mif.dumps(game))["events"]
    kinds = [(e["type"], e["actor"]) for e in events[24:]]
    assert kinds == [*(("remove", a) for a in after), ("move", "b" if len(after) == 1 else "w")]
    assert record.dumps(mif.loads(mif.dumps(game))) == record.dumps(game)


def test_the_mill_counts_when_placing_ends() -> None:
    """El Filja: when placing ends, the mills on the board say who removes how many (the
    reference model, reference/mif1.py, ``_enter_global_boundary``: none on either side, each
    one of their own; one side only, it two and the other one; as many, that many; else the
    fewer plus one for the side with more), White first, then White moves; counted here from
    the checkpoint's board with Annex A's lines."""
    for seed in range(6):
        state = _placed_quietly("el-filja", seed)
        game = record.from_state(state)
        current = json.loads(mif.dumps(game))["current"]
        board = current.split()[2]
        names = mif.POINT_ORDER
        cells = dict(zip(names, board.replace("/", ""), strict=True))
        w, b = (sum(all(cells[p] == c for p in line) for line in LINES) for c in "WB")
        if not w and not b:
            counts, owners = (1, 1), ("w", "b")
        else:
            owners = ("b", "w")
            if not b:
                counts = (2, 1)
            elif not w:
                counts = (1, 2)
            elif w == b:
                counts = (w, b)
            else:
                low = min(w, b)
                counts = (low + (w > b), low + (b > w))
        head = f"w:mill-count:b:{owners[0]}:{counts[0]}:{_ones(board, owners[0].upper())}:q"
        tail = f"b:mill-count:b:{owners[1]}:{counts[1]}:~:w"
        assert current == _mfen(board, "w m r", "0,0", f"{head};{tail}", 24)
        rng = random.Random(seed)
        for _ in range(sum(counts)):
            state.push_code(rng.choice(state.legal_codes()))
        game = record.from_state(state)
        document = json.loads(mif.dumps(game))
        assert [e["actor"] for e in document["events"][24:]] == ["w"] * counts[0] + ["b"] * counts[
            1
        ]
        assert document["current"].split()[3:6] == ["w", "m", "m"]
        # the removals reset the repetition window; its one observation follows the last
        assert [e["eventSeq"] for e in document["repetitionHistory"]] == [len(document["events"])]
        assert record.dumps(mif.loads(mif.dumps(game))) == record.dumps(game)
