"""Other programs' records in and out (docs/formats.md, "Other programs' records"): Sanmill's
move lists and Boardspace's Morelli records (the Mill Interchange Format's:
tests/study/test_record_mif.py) read into native records (every move replayed by our engine) and
written back; real records from those programs; round trips of random games;
bad input refused with one sentence naming what is wrong; the CLI's ``record convert`` and
``record check``; the review API reading a pasted foreign record."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludoteca import formats, record
from ludoteca.cli import main
from ludoteca.core import InvalidRecordError
from ludoteca.games import load
from ludoteca.games.morelli import boardspace, setups
from ludoteca.games.morelli.board import geometry
from ludoteca.games.morris import mif, sanmill

from ..support.postgres import sqlite_only

# A game from Sanmill's own test data (src/ui/flutter_app/test/helpers/test_mills.dart,
# WinLessThanThreeGame.moveList, github.com/calcitem/Sanmill at a6623f8; a game record quoted as
# a fact, no code): Sanmill's old wide layout, removals glued to their moves, ending "*" where
# White has just reduced Black to two men.
SANMILL_WIN_LESS_THAN_THREE = """\
 1.    g1    b4
 2.    f2    f4
 3.    d1    d6
 4.    a1xf4    f4
 5.    g4    d2
 6.    g7xf4    f4
 7.    c3    c5
 8.    b6    a7
 9.    d3    e3
10.    c3-c4    d2-b2
11.    d1-d2    e3-e4
12.    d2-d1xb2    c5-d5
13.    f2-d2xd6    b4-a4
14.    c4-b4    f4-f2
15.    g7-d7    e4-f4
16.    d3-e3    d5-d6
17.    e3-e4    d6-f6xb4
18.    d2-b2    f2-d2
19.    d7-g7xf4    a7-d7
20.    g4-f4    a4-b4
21.    f4-g4xf6    d2-d5
22.    d1-d2    b4-d6xd2
23.    g4-f4    d5-g4
24.    b2-d2    g4-d5xd2
25.    g1-g4xd6 *
"""

# Sanmill's tags (its ImportService.addTagPairs: Event, Site, Date, Round, White, Black, Result,
# Variant, PlyCount) and its engine's move list with the removal as a token of its own (the
# list its import test expects from a PlayOK game: a7 b6 d7 d6 g7 xb6 f6).
SANMILL_TAGGED = """\
[Event "Sanmill-Game"]
[Site "Sanmill"]
[Date "2026.3.11"]
[Round "1"]
[White "Human"]
[Black "AI"]
[Result "*"]
[Variant "Nine Men's Morris"]
[PlyCount "7"]

1. a7 b6 2. d7 d6 3. g7 xb6 f6 *
"""


def _random_game(rules: str, seed: int, plies: int) -> record.GameRecord:
    rng = random.Random(seed)
    state = load(rules).new(seed=seed)
    for _ in range(plies):
        codes = state.legal_codes()
        if not codes:
            break
        state.push_code(rng.choice(codes))
    return record.from_state(state, white="Ann", black="Bob", date="2026.01.02")


# --- Sanmill -----------------------------------------------------------------------------------
def test_a_real_sanmill_game_replays_to_its_end() -> None:
    game = sanmill.loads(SANMILL_WIN_LESS_THAN_THREE)
    assert game.tags["Rules"] == "morris"  # inferred: no Variant tag
    assert len(game.moves) == 49 and game.moves[6] == "a1xf4" and game.moves[-1] == "g1-g4xd6"
    # the game's name says how it ends; the record says "*", the position decides
    assert game.result == "1-0" and game.tags["Termination"] == "fewer than three"
    assert formats.detect(SANMILL_WIN_LESS_THAN_THREE).name == "sanmill"


def test_sanmill_tags_and_separate_removals() -> None:
    game = formats.loads(SANMILL_TAGGED)
    assert game.moves == ["a7", "b6", "d7", "d6", "g7xb6", "f6"]
    assert game.tags["White"] == "Human" and game.tags["Event"] == "Sanmill-Game"
    assert "Variant" not in game.tags and "PlyCount" not in game.tags
    text = sanmill.dumps(game)
    assert '[Variant "Nine Men\'s Morris"]' in text and '[PlyCount "7"]' in text  # as Sanmill
    assert "g7xb6" in text and sanmill.loads(text).moves == game.moves


def test_sanmill_rules_from_variant_inference_and_flag() -> None:
    twelve = _random_game("morris-12", 5, 40)
    text = sanmill.dumps(twelve)
    assert '[Variant "Twelve Men\'s Morris"]' in text
    assert sanmill.loads(text).tags["Rules"] == "morris-12"
    # without its Variant tag the rule set is inferred from the moves (a 19th placement)
    bare = "\n".join(line for line in text.splitlines() if not line.startswith("[Variant"))
    assert sanmill.loads(bare).tags["Rules"] == "morris-12"
    lasker = _random_game("morris-lasker", 2, 30)
    assert sanmill.loads(sanmill.dumps(lasker)).tags["Rules"] == "morris-lasker"
    # settings off a preset's defaults travel in a tag of ours
    off = _random_game("morris:flying=false", 9, 60)
    back = sanmill.loads(sanmill.dumps(off))
    assert back.tags["Rules"] == "morris:flying=false" and back.moves == off.moves
    assert sanmill.loads(SANMILL_TAGGED, "cheng-san-qi").tags["Rules"] == "cheng-san-qi"


def test_sanmill_russian_mill_is_one_time_mill() -> None:
    """Sanmill writes its One-Time Mill preset ``Russian Mill`` in the Variant tag; both names
    read as ``one-time-mill``.  Untagged, a mill closed again without a removal is legal only
    under one-time mills, so the moves name the rule set."""
    game = _random_game("one-time-mill", 3, 60)
    text = sanmill.dumps(game)
    assert '[Variant "Russian Mill"]' in text
    assert sanmill.loads(text.replace("Russian Mill", "One-Time Mill")).moves == game.moves
    # Black's mill takes d1 out of White's (removal from mills); White's d1 closes a1-d1-g1 again
    replayed = sanmill.loads("1. a1 b6 2. d1 d6 3. g1xb6 d7 4. a4 d5xd1 5. d1 *")
    assert replayed.tags["Rules"] == "one-time-mill" and replayed.moves[-1] == "d1"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sanmill.INFERRED),
    st.integers(0, 10**6),
    st.integers(0, 120),
)
def test_sanmill_round_trip_of_random_games(rules: str, seed: int, plies: int) -> None:
    game = _random_game(rules, seed, plies)
    back = sanmill.loads(sanmill.dumps(game))
    assert back.moves == game.moves
    assert back.tags["Rules"] == game.tags["Rules"]
    assert back.result == game.result and back.state.position_code() == game.state.position_code()
    # and as Sanmill's engine takes the moves, a removal apart, through the other reader
    tokens = " ".join(t for move in game.moves for t in move.replace("x", " x").split())
    assert sanmill.loads(tokens, rules).moves == game.moves
    # and every removal glued to the action before it, as Sanmill's export glues them
    assert sanmill.loads(tokens.replace(" x", "x"), rules).moves == game.moves


#: Sanmill's records of the rule sets whose removals are turns of their own, written by hand in
#: its notation (its export glues every removal to the action before it, up to three, whatever
#: turn it is: src/ui/flutter_app/lib/game_page/services/controller/game_recorder.dart)
#: Zhi Qi: no mill while placing, the board full; b2, Black's last man, then White's removal
#: (d6), then Black's (d2), then White moves into d2
ZHI_QI = """[Variant "Zhi Qi"]

1. d2 d6 2. g1 b4 3. f2 f6 4. d7 g7 5. d5 a4 6. d3 d1 7. e5 a1 8. a7 e4 9. g4 c5
10. c3 f4 11. b6 e3 12. c4 b2xd6xd2 13. d3-d2 *"""
#: Da San Qi: c5 closes c3-c4-c5 and the diagonal a7-b6-c5, taking f6 and then d7
DA_SAN_QI = """[Variant "Da San Qi"]

1. a1 d7 2. b2 d5 3. c3xd5 g4 4. b4 e4 5. b6xg4 d2 6. a4 d6 7. c4xd6 f6 8. a7xe4 e5
9. c5xf6xd7 g1 *"""
#: El Filja: d6, Black's last man, closes a mill and takes nothing; the mill counts (Black two
#: mills, White more) give White three removals, then Black two, these written as Sanmill's
#: next group, with no move before them
EL_FILJA = """[Variant "El Filja"]

1. d1 b2 2. d2 g4 3. e3 f4 4. e4 b4 5. g1 b6 6. f6 c3 7. d5 g7 8. e5 d7 9. c5 c4
10. a4 a7 11. d3 a1 12. f2 d6xb6xf4xd6 13. xa4xd5 e4-f4xb2 *"""
#: Dooz: no mill while placing, the board full; White removes d5, then Black moves first
DOOZ = """[Variant "Dooz"]

1. d6 e3 2. e4 g7 3. b6 a1 4. e5 a4 5. g1 d7 6. d2 b2 7. c4 c5 8. d3 d5 9. f2 g4
10. c3 d1 11. f4 f6 12. a7 b4xd5 13. c5-d5 *"""


@pytest.mark.parametrize(
    ("text", "rules", "tail"),
    [
        (ZHI_QI, "zhi-qi", ["b2", "xd6", "xd2", "d3-d2"]),
        (DA_SAN_QI, "da-san-qi", ["c5xf6", "xd7", "g1"]),
        (EL_FILJA, "el-filja", ["d6", "xb6", "xf4", "xd6", "xa4", "xd5", "e4-f4xb2"]),
        (DOOZ, "dooz", ["b4", "xd5", "c5-d5"]),
    ],
)
def test_sanmill_records_with_removals_alone(text: str, rules: str, tail: list[str]) -> None:
    game = sanmill.loads(text)
    assert game.tags["Rules"] == rules and game.moves[-len(tail) :] == tail
    # each removal alone a turn of its own in our record; back in Sanmill's form, glued again
    again = sanmill.dumps(game)
    assert f'[Variant "{text.split(chr(34))[1]}"]' in again
    assert sanmill.loads(again).moves == game.moves
    assert record.loads(record.dumps(game)).moves == game.moves
    # the actions apart (Sanmill's engine's form) and without the Variant tag: inferred
    body = text.split("\n\n")[1]
    apart = " ".join(body.replace("x", " x").split())
    assert sanmill.loads(apart, rules).moves == game.moves
    if rules in ("el-filja", "dooz"):  # no earlier rule set of the inferred ones plays them
        assert sanmill.loads(body).tags["Rules"] == rules


def test_an_illegal_removal_in_a_sanmill_record_is_named_with_its_place() -> None:
    # White takes its own man after the full board
    with pytest.raises(InvalidRecordError, match=r"line 4: ply 25 \(xd2\)"):
        sanmill.loads(ZHI_QI.replace("b2xd6xd2", "b2xd2xd6"))
    # the second removal of the double mill on a marked point (d5, marked by c3's mill)
    with pytest.raises(InvalidRecordError, match=r"line 4: ply 18 \(xd5\)"):
        sanmill.loads(DA_SAN_QI.replace("c5xf6xd7", "c5xf6xd5"))
    # a removal where none is due: Dooz's Black moves after White's one removal
    with pytest.raises(InvalidRecordError, match=r"line 4: ply 26 \(xd6\)"):
        sanmill.loads(DOOZ.replace("b4xd5", "b4xd5xd6"))


def test_sanmill_comments_marks_and_variations_survive() -> None:
    text = '[Variant "Nine Men\'s Morris"]\n\n{start} 1. d6! {good} f4 (1... d2 2. a7) 2. d2?! *'
    game = sanmill.loads(text)
    again = sanmill.loads(sanmill.dumps(game))
    assert again.tree == game.tree and not game.tree.is_line()


def test_bad_sanmill_records_are_named() -> None:
    with pytest.raises(InvalidRecordError, match="Morabaraba"):
        sanmill.loads('[Variant "Morabaraba"]\n\n1. d6 f4 *')
    with pytest.raises(InvalidRecordError, match=r"line 3: .*ply 3 \(f4\)"):
        sanmill.loads('[Variant "Nine Men\'s Morris"]\n\n1. d6 f4 2. f4 *')
    # a removal that follows no move, and a second removal where one move takes one man
    with pytest.raises(InvalidRecordError, match=r"line 1: ply 1 \(xd6\): .*only when removals"):
        sanmill.loads("xd6 d6 *")
    with pytest.raises(InvalidRecordError, match=r"line 1: ply 6 \(xd6\)"):
        sanmill.loads("1. a7 b6 2. d7 d6 3. g7 xb6 xd6 *")
    with pytest.raises(InvalidRecordError, match="FEN"):
        sanmill.loads('[FEN "********/********/******** w p p 9 0 9 0 0 0 0 0 0 0 0 1"]\n\n*')
    with pytest.raises(InvalidRecordError, match="no preset"):
        sanmill.dumps(_random_game("morabaraba", 1, 4))


# --- Boardspace --------------------------------------------------------------------------------
def test_java_random_is_javas() -> None:
    # java.util.Random's documented generator: new Random(42).nextInt() is -1170105035, then
    # 234785527 (values any JVM prints); nextInt(10) from 42 begins 0, 3
    rng = boardspace.JavaRandom(42)
    assert [rng.next(32), rng.next(32)] == [-1170105035, 234785527]
    rng = boardspace.JavaRandom(42)
    assert [rng.next_int(10), rng.next_int(10)] == [0, 3]


#: Boardspace's random deals for a few keys, as a 30-line Java program printed them with the
#: JDK's own java.util.Random (javac 17), dealing as docs/rules.md states (the squares of P0's
#: stones): an outside check of the JavaRandom port and of the deals' order of draws
JDK_DEALS = {
    (9, 1, "RandomOpposite"): "A2 A3 A4 A5 A6 A7 B9 C1 C9 D1 E9 F1 H9 I1 I2 I9",
    (9, 1, "Random"): "A1 A3 A5 A6 A9 B9 C9 D9 F1 G1 H1 H9 I3 I5 I7 I8",
    (9, 42, "RandomOpposite"): "A2 A4 A5 A7 B1 B9 D1 E1 F1 G1 G9 I1 I2 I4 I7 I9",
    (9, 42, "Random"): "A5 A6 A7 A8 D9 E1 E9 F1 F9 G1 H1 I1 I3 I4 I5 I9",
    (9, 20240601, "RandomOpposite"): "A1 A3 A4 A6 A7 A9 B9 C1 E9 F1 F9 G1 H9 I2 I5 I8",
    (9, 20240601, "Random"): "A5 A7 A8 A9 C1 D1 E1 E9 F9 G1 H9 I2 I3 I6 I7 I9",
    (11, 7, "Random"): "A1 A10 A11 A4 A5 A9 B1 B11 C1 C11 D11 F11 G1 H11 I1 K10 K6 K7 K8 K9",
    (13, 99, "Random"): (
        "A13 A2 A3 A4 A6 A9 C1 D1 D13 E1 E13 F13 G13 H1 I1 I13 K1 L13 M1 M10 M2 M5 M6 M9"
    ),
}


def _p0_squares(n: int, setup: str) -> set[str]:
    geo = geometry(n)
    return {geo.names[s] for s, c in zip(geo.perimeter, setup, strict=True) if c == "B"}


@pytest.mark.parametrize(("n", "key", "name"), list(JDK_DEALS))
def test_boardspace_random_deals_are_the_jdks(n: int, key: int, name: str) -> None:
    dealt_name, setup = boardspace.setup_board(n, key, 102, name)
    assert dealt_name == name and _p0_squares(n, setup) == set(JDK_DEALS[n, key, name].split())


def test_boardspace_setups() -> None:
    # before revision 100 the key chose among Adjacent, Opposing and Random; since 102 no SU
    # setup means RandomOpposite
    assert boardspace.setup_board(9, 42, 102, None)[0] == "RandomOpposite"
    assert boardspace.setup_board(9, 42, 99, None)[0] in ("Adjacent", "Opposing", "Random")
    for n in (9, 11, 13):
        for name in boardspace.SETUPS:
            _, setup = boardspace.setup_board(n, 123, 102, name)
            assert len(setup) == 4 * (n - 1)
            assert setup.count("B") == setup.count("W") == (0 if name == "Free" else 2 * (n - 1))


def _boardspace_text(moves: list[str], su: str = "morelli-9 7 102 RandomOpposite") -> str:
    lines = ["(;", "GM[Morelli]VV[1]", f"SU[{su}]", 'P0[id "ann"]', 'P1[id "bob"]']
    lines.append("; P0[0 Start P0]")
    for i, move in enumerate(moves):
        src, dst = move.split("-")
        player = f"P{i % 2}"
        lines.append(f"; {player}[{2 * i + 1} Move {src[0]} {src[1:]} {dst[0]} {dst[1:]}]")
        lines.append(f"; {player}[{2 * i + 2} Done]")
    return "\n".join([*lines, ")"]) + "\n"


def test_a_boardspace_record_is_read_with_its_setup() -> None:
    _, setup = boardspace.setup_board(9, 7, 102, "RandomOpposite")
    state = load("morelli-9").new(setup=setup)
    rng = random.Random(3)
    for _ in range(12):
        state.push_code(rng.choice(state.legal_codes()))
    moves = [str(m) for m in state.moves]
    text = _boardspace_text(moves)
    assert formats.detect(text).name == "boardspace"
    game = formats.loads(text)
    assert game.tags["Setup"] == setup and game.tags["Rules"] == "morelli-9"
    assert game.tags["Black"] == "ann" and game.moves == moves
    # the same moves by hand (pick, drop, done) read the same
    by_hand = []
    for line in text.splitlines():
        if " Move " in line:
            player, rest = line[2:4], line.split("Move ")[1].rstrip("]").split()
            by_hand.append(f"; {player}[Pickb {rest[0]} {rest[1]}]")
            by_hand.append(f"; {player}[Dropb {rest[2]} {rest[3]}]")
        else:
            by_hand.append(line)
    assert boardspace.loads("\n".join(by_hand)).moves == moves
    # P0 (Black) resigns: White wins
    resigned = boardspace.loads(text.replace(")", "; P0[99 Resign]\n; P0[100 Done]\n)"))
    assert resigned.result == "1-0" and resigned.tags["Termination"] == "resignation"
    assert "P0[25 Resign]" in boardspace.dumps(resigned)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["morelli-9", "morelli-11"]), st.integers(0, 10**6), st.integers(0, 60))
def test_boardspace_round_trip_of_random_games(rules: str, seed: int, plies: int) -> None:
    game = _random_game(rules, seed, plies)
    text = boardspace.dumps(game)
    back = boardspace.loads(text)
    assert back.moves == game.moves and back.tags["Setup"] == game.tags["Setup"]
    assert back.state.position_code() == game.state.position_code()
    # the key written deals the setup as Boardspace deals it
    n = geometry(9 if rules == "morelli-9" else 11).n
    assert boardspace.first_mover(back.tags[boardspace.SETUP_TAG], n, game.tags["Setup"]) == 0
    # written again from the record read, the same text (its own setup key kept)
    assert boardspace.dumps(back) == text


def _played(rules: str, setup: str, plies: int, seed: int) -> list[str]:
    state = load(rules).new(setup=setup)
    rng = random.Random(seed)
    while state.ply < plies and state.outcome() is None:
        state.push_code(rng.choice(state.legal_codes()))
    return [str(m) for m in state.moves]


@pytest.mark.parametrize("name", boardspace.SETUPS)
def test_boardspace_records_of_every_setup_replay(name: str) -> None:
    kind = setups.KINDS[boardspace.SETUPS.index(name)]
    rules = "morelli-9" if kind == setups.DEFAULT else f"morelli-9:setup={kind}"
    su = f"morelli-9 42 102 {name}"
    _, dealt = boardspace.setup_board(9, 42, 102, name)
    moves = _played(rules, dealt, 30, 7)
    text = _boardspace_text(moves, su)
    game = boardspace.loads(text)
    assert game.tags["Rules"] == rules and game.tags["Setup"] == dealt
    assert game.moves == moves and game.tags["Black"] == "ann"
    # through our own format and back to Boardspace's: the same game, the record's own SU kept
    again = record.loads(record.dumps(game))
    assert again.moves == moves and again.tags["Rules"] == rules
    written = boardspace.dumps(again)
    assert f"SU[{su}]" in written
    back = boardspace.loads(written)
    assert back.moves == moves and back.state.position_code() == game.state.position_code()


def test_boardspace_first_move_taken_by_p1() -> None:
    # revision 101: P0 may choose another setup, then pass; P1 may then move first (or pass)
    _, dealt = boardspace.setup_board(9, 5, 101, "Blocks")
    swapped = setups.swap(dealt)
    moves = _played("morelli-9:setup=blocks", swapped, 12, 3)
    lines = _boardspace_text([], "morelli-9 5 101 Adjacent").splitlines()[:-1]
    lines += ["; P0[1 Choose Blocks]", "; P0[2 Done]"]
    for i, move in enumerate(moves):
        src, dst = move.split("-")
        player = f"P{(i + 1) % 2}"
        lines.append(f"; {player}[{2 * i + 3} Move {src[0]} {src[1:]} {dst[0]} {dst[1:]}]")
        lines.append(f"; {player}[{2 * i + 4} Done]")
    game = boardspace.loads("\n".join([*lines, ")"]))
    assert game.tags["Rules"] == "morelli-9:setup=blocks" and game.tags["Setup"] == swapped
    assert game.tags["Black"] == "bob" and game.tags["White"] == "ann" and game.moves == moves
    # written again, P0 passes and P1 moves first, with the setup the record chose
    written = boardspace.dumps(game)
    assert "101 Blocks]" in written and 'P0[id "ann"]' in written
    assert "; P0[1 Done]\n; P1[2 Move" in written and boardspace.loads(written).moves == moves
    # P1 passes too: P0 moves first after all
    passed = [*lines[: lines.index("; P0[2 Done]") + 1], "; P1[3 Done]"]
    ours = _played("morelli-9:setup=blocks", dealt, 4, 1)
    for i, move in enumerate(ours):
        src, dst = move.split("-")
        passed.append(f"; P{i % 2}[{i + 4} Move {src[0]} {src[1:]} {dst[0]} {dst[1:]}]")
        passed.append(f"; P{i % 2}[{i + 4} Done]")
    game = boardspace.loads("\n".join([*passed, ")"]))
    assert game.tags["Setup"] == dealt and game.tags["Black"] == "ann" and game.moves == ours


@pytest.mark.parametrize("kind", ["adjacent", "opposing", "blocks", "free", "random_opposite"])
def test_our_games_of_every_setup_are_written_for_boardspace(kind: str) -> None:
    game = _random_game(f"morelli-11:setup={kind}", 4, 20)
    text = boardspace.dumps(game)
    back = boardspace.loads(text)
    assert back.moves == game.moves and back.tags["Setup"] == game.tags["Setup"]
    assert back.tags["Rules"] == game.tags["Rules"]
    # a fixed setup with its colours exchanged: P0 passes, P1 moves first (revision 101)
    if kind in ("adjacent", "opposing", "blocks"):
        state = load(f"morelli-11:setup={kind}").new(setup=setups.swap(game.tags["Setup"]))
        state.push_code(state.legal_codes()[0])
        text = boardspace.dumps(record.from_state(state, white="Ann", black="Bob"))
        assert f"101 {setups.NAMES[kind]}]" in text and 'P0[id "Ann"]' in text
        assert boardspace.loads(text).tags["Setup"] == state.setup


def test_a_random_setup_from_no_boardspace_key_is_not_written() -> None:
    with pytest.raises(InvalidRecordError, match="came from no Boardspace key"):
        boardspace.dumps(_random_game("morelli-9:setup=random", 4, 6))


def test_bad_boardspace_records_are_named() -> None:
    with pytest.raises(InvalidRecordError, match="Crosses"):
        boardspace.loads(_boardspace_text([], "morelli-9 7 102 Crosses"))
    with pytest.raises(InvalidRecordError, match=r"line 7: .*ply 1"):
        boardspace.loads(_boardspace_text(["A2-B3"], "morelli-9 7 102 Free"))  # no stone
    with pytest.raises(InvalidRecordError, match="morelli-15"):
        boardspace.loads(_boardspace_text([], "morelli-15 7 102 RandomOpposite"))
    with pytest.raises(InvalidRecordError, match=r"line 7: .*ply 1"):
        boardspace.loads(_boardspace_text(["E5-E4"]))  # the Throne's square holds no stone
    with pytest.raises(InvalidRecordError, match="Fly"):
        boardspace.loads(_boardspace_text([]).replace("Start P0", "Fly A 1"))


def test_the_boardspace_record_of_the_test_data_is_checked_by_the_cli(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = Path(__file__).parents[1] / "data" / "boardspace" / "morelli-9-blocks-pie.sgf"
    assert main(["record", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "morelli (morelli-9:setup=blocks), 19 plies, result 0-1" in out
    assert "Boardspace Morelli record" in out and "all valid" in out
    game = boardspace.loads(path.read_text())
    assert game.tags["Black"] == "bob" and game.tags["Termination"] == "resignation"
    # Black (P1, who took the first move) holds the squares of P0's White in Boardspace's deal
    _, dealt = boardspace.setup_board(9, 31415926, 101, "Blocks")
    assert game.tags["Setup"] == setups.swap(dealt)
    assert game.comments[7] == "bob: the King is mine if E6 holds"
    assert game.state.position_code().split()[2] == "b"  # Black's King on the Throne


# --- the registry, the CLI and the review API ---------------------------------------------------
def test_unknown_formats_and_games_a_format_cannot_hold() -> None:
    with pytest.raises(InvalidRecordError, match="no record format Ludoteca reads"):
        formats.loads("hello world")
    with pytest.raises(InvalidRecordError, match="unknown record format 'pgn'"):
        formats.loads(SANMILL_TAGGED, "pgn")
    with pytest.raises(InvalidRecordError, match="cannot hold a game of felli"):
        formats.dumps(_random_game("felli", 1, 3), "sanmill")
    native = record.dumps(_random_game("felli", 1, 3))
    assert formats.detect(native).name == "ludoteca"


def test_cli_convert_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "game.txt"
    source.write_text(SANMILL_WIN_LESS_THAN_THREE)
    assert main(["record", "check", str(source)]) == 0
    assert "49 plies, result 1-0" in capsys.readouterr().out
    native = tmp_path / "game.lud"
    assert main(["record", "convert", str(source), str(native), "--to", "ludoteca"]) == 0
    assert record.loads(native.read_text()).moves[-1] == "g1-g4xd6"
    back = tmp_path / "back.txt"
    assert main(["record", "convert", str(native), str(back), "--to", "sanmill"]) == 0
    assert sanmill.loads(back.read_text()).moves == record.loads(native.read_text()).moves
    morelli = tmp_path / "m.lud"
    morelli.write_text(record.dumps(_random_game("morelli-9", 4, 10)))
    sgf = tmp_path / "m.sgf"
    assert main(["record", "convert", str(morelli), str(sgf), "--to", "boardspace"]) == 0
    assert main(["record", "check", str(sgf), "--from", "boardspace"]) == 0
    # a bad move is an error and nothing is written
    bad = tmp_path / "bad.txt"
    bad.write_text("1. d6 d6 *\n")
    out = tmp_path / "out.lud"
    assert main(["record", "convert", str(bad), str(out), "--to", "ludoteca"]) == 2
    assert not out.exists() and "ply 2 (d6)" in capsys.readouterr().err


@sqlite_only
def test_review_api_reads_pasted_foreign_records(client: TestClient) -> None:
    replay = client.post("/api/records/replay", json={"text": SANMILL_TAGGED}).json()
    assert replay["game"] == "morris" and len(replay["positions"]) == 7
    sgf = boardspace.dumps(_random_game("morelli-9", 8, 6))
    replay = client.post("/api/records/replay", json={"text": sgf}).json()
    assert replay["rules"] == "morelli-9" and len(replay["positions"]) == 7
    mstate = mif.dumps(_random_game("morris-lasker", 8, 9))
    replay = client.post("/api/records/replay", json={"text": mstate}).json()
    assert replay["rules"] == "morris-lasker" and len(replay["positions"]) == 10
    answer = client.post("/api/records/replay", json={"text": "hello world"})
    assert answer.status_code == 400
    assert "no record format Ludoteca reads" in answer.json()["error"]
