"""Morelli's setups (Boardspace's six, the ``setup`` setting of every rule set): each fixed one
laid out as a picture drawn by hand from Boardspace's rules code as docs/rules.md states it, the
random ones' rules on many deals, setups and positions that break a kind's rules refused with
the reason, and games under every setup played, written and read back."""

from __future__ import annotations

import random

import pytest

from ludoteca import record
from ludoteca.cli import main
from ludoteca.core import Color, InvalidPositionError, InvalidRulesError, Termination
from ludoteca.games import load
from ludoteca.games.morelli import setups
from ludoteca.games.morelli.board import LETTERS
from ludoteca.games.morelli.rules import Morelli, MorelliState

# the 9x9 fixed setups, row 9 first, A to I; B the first player's stones (drawn by hand)
PICTURES = {
    "adjacent": """
        B W W W W W W W W
        B . . . . . . . W
        B . . . . . . . W
        B . . . . . . . W
        B . . . . . . . W
        B . . . . . . . W
        B . . . . . . . W
        B . . . . . . . W
        B B B B B B B B W""",
    "opposing": """
        W B B B B B B B B
        W . . . . . . . W
        W . . . . . . . W
        W . . . . . . . W
        W . . . . . . . W
        W . . . . . . . W
        W . . . . . . . W
        W . . . . . . . W
        B B B B B B B B W""",
    # blocks of 3, 2, 2 and 1 from each corner clockwise, alternating colours
    "blocks": """
        W W W B B W W B B
        W . . . . . . . B
        B . . . . . . . B
        B . . . . . . . W
        W . . . . . . . W
        W . . . . . . . B
        B . . . . . . . B
        B . . . . . . . W
        B B W W B B W W W""",
    "free": "\n".join([". " * 9] * 9),
}


def picture(state: MorelliState) -> list[str]:
    n = state.n
    rows = []
    for y in range(n - 1, -1, -1):
        rows.append(" ".join(".BW"[state.board[y * n + x]] for x in range(n)))
    return rows


@pytest.mark.parametrize("kind", list(PICTURES))
def test_fixed_setups_are_laid_out_as_boardspace_deals_them(kind: str) -> None:
    state = Morelli.of(f"morelli-9:setup={kind}").new(seed=3)
    expected = [" ".join(line.split()) for line in PICTURES[kind].strip().splitlines()]
    assert picture(state) == expected
    assert state.turn is Color.BLACK and state.king == 0
    # a fixed setup does not depend on the seed
    assert Morelli.of(f"morelli-9:setup={kind}").new(seed=4).setup == state.setup


def test_blocks_on_every_size() -> None:
    # each side of n - 1 squares from a corner clockwise: blocks of 3, 4, 4, 1 (13x13),
    # 3, 3, 3, 1 (11x11), 3, 2, 2, 1 (9x9), the first side (A1 up) starting with Black
    for rules, blocks in (
        ("morelli", "BBBWWWWBBBBW"),
        ("morelli-11", "BBBWWWBBBW"),
        ("morelli-9", "BBBWWBBW"),
    ):
        setup = Morelli.of(f"{rules}:setup=blocks").new().setup or ""
        flipped = blocks.translate(str.maketrans("BW", "WB"))
        assert setup == blocks + flipped + blocks + flipped


def test_adjacent_and_opposing_on_13x13() -> None:
    adjacent = Morelli.of("morelli:setup=adjacent").new()
    rows = picture(adjacent)
    assert rows[0] == "B " + "W " * 11 + "W" and rows[-1] == "B " * 12 + "W"
    opposing = Morelli.of("morelli:setup=opposing").new()
    rows = picture(opposing)
    assert rows[0] == "W" + " B" * 12 and rows[-1] == "B " * 12 + "W"
    assert all(r[0] == "W" and r[-1] == "W" for r in rows[1:-1])


def test_random_setups_keep_their_rules() -> None:
    for seed in range(40):
        for n in (9, 13):
            state = Morelli.of(f"morelli-{n}:setup=random").new(seed=seed)
            setup = state.setup or ""
            names = [state.geo.names[s] for s in state.geo.perimeter]
            letters = dict(zip(names, setup, strict=True))
            last = LETTERS[n - 1]
            corners = [letters[c] for c in ("A1", f"A{n}", f"{last}1", f"{last}{n}")]
            assert sorted(corners) == ["B", "B", "W", "W"]
            # each corner with the n - 2 squares before it clockwise: as many of each colour
            ring = 4 * (n - 1)
            for k in range(4):
                side = [setup[(k * (n - 1) - j) % ring] for j in range(n - 1)]
                assert side.count("B") == side.count("W")
            assert Morelli.of(f"morelli-{n}:setup=random").new(seed=seed).setup == setup
    deals = {Morelli.of("morelli-9:setup=random").new(seed=s).setup for s in range(30)}
    assert len(deals) == 30  # random indeed


def test_the_default_is_the_pair_rule_as_before() -> None:
    # the default rule set deals exactly as it always did (a seed's setup is kept)
    game = Morelli.of()
    assert str(game.rules) == "morelli" and game.setup_kind == "random_opposite"
    assert load("morelli:setup=random_opposite").rules == game.rules
    assert load("morelli:setup=RandomOpposite").rules == game.rules
    assert game.new(seed=5).setup == game.random_setup(5)


@pytest.mark.parametrize(
    ("rules", "setup", "reason"),
    [
        ("morelli-9:setup=adjacent", "W" + "B" * 15 + "W" * 16, "Adjacent setup"),
        ("morelli-9:setup=random", "B" * 17 + "W" * 15, "two corners, but 3 hold Black"),
        ("morelli-9:setup=free", "B" + "." * 31, "A1 holds a stone"),
        ("morelli-9:setup=blocks", "." * 32, "leaves A1 empty"),
        ("morelli-9", "B" * 32, "pair rule: A1 and I9"),
    ],
)
def test_setups_that_break_their_kind_are_refused(rules: str, setup: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        load(rules).new(setup=setup)


def test_a_random_setup_with_a_side_out_of_balance_is_refused() -> None:
    game = load("morelli-9:setup=random")
    setup = list(game.new(seed=1).setup or "")
    # A1's side is A1, B1 .. H1 (setup letters 0, 31 .. 25); A9's is A9, A8 .. A2 (8, 7 .. 1):
    # exchange a Black stone of the one for a White stone of the other, corners kept
    first = next(i for i in range(25, 32) if setup[i] == "B")
    second = next(i for i in range(1, 8) if setup[i] == "W")
    setup[first], setup[second] = "W", "B"
    with pytest.raises(InvalidPositionError, match=r"A1 to H1\) .* 5 of its 8 are White"):
        game.new(setup="".join(setup))


def test_a_fixed_setup_with_its_colours_exchanged_is_accepted() -> None:
    # Boardspace's first player may pass the first move: the second then moves first
    game = load("morelli-9:setup=opposing")
    dealt = game.new().setup or ""
    assert game.new(setup=setups.swap(dealt)).setup == setups.swap(dealt)


def test_a_bad_setup_name_is_a_clear_error() -> None:
    with pytest.raises(InvalidRulesError, match="setting setup is one of random_opposite, "):
        load("morelli:setup=crosses")
    with pytest.raises(InvalidRulesError, match="not ''"):
        load("morelli:setup")
    assert str(load("morelli-11:setup=Blocks").rules) == "morelli-11:setup=blocks"
    assert load("morelli-11:setup=blocks").rules_title == "Morelli 11x11 (Blocks setup)"


def test_position_codes_hold_what_is_left_of_the_setup() -> None:
    blocks = load("morelli-9:setup=blocks")
    start = blocks.new()
    # Blocks puts Black on A1 and on I9, its opposite: the default rule set refuses that
    assert blocks.from_position_code(start.position_code()).position_code() == start.position_code()
    with pytest.raises(InvalidPositionError, match="pair rule: A1 and I9"):
        load("morelli-9").from_position_code(start.position_code())
    # a red stone never changes colour: under Adjacent, A1 can hold no White stone
    adjacent = Morelli.of("morelli-9:setup=adjacent").new()
    code = adjacent.position_code()
    flipped = code[: code.index(" ")].split("/")
    flipped[-1] = "w" + flipped[-1][1:]
    flipped[0] = flipped[0][:-1] + "b"  # and I9 Black, so that the stones stay 16 a side
    with pytest.raises(InvalidPositionError, match="what is left of the setup"):
        load("morelli-9:setup=adjacent").from_position_code(
            "/".join(flipped) + code[code.index(" ") :]
        )
    free = load("morelli-9:setup=free")
    assert free.from_position_code(free.new().position_code()).outcome() is not None


def test_free_is_over_before_the_first_move() -> None:
    state = Morelli.of("morelli-9:setup=free").new()
    assert state.legal_codes() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None
    assert outcome.termination is Termination.VACANT_THRONE


@pytest.mark.parametrize("kind", setups.KINDS)
def test_games_under_every_setup_replay_through_records(kind: str) -> None:
    for n in (9, 11):
        state = Morelli.of(f"morelli-{n}:setup={kind}").new(seed=n)
        rng = random.Random(kind)
        while state.outcome() is None and state.ply < 40:
            state.push_code(rng.choice(state.legal_codes()))
        text = record.dumps(state)
        assert f'[Rules "morelli-{n}' in text and f'[Setup "{state.setup}"]' in text
        if kind != setups.DEFAULT:
            assert f":setup={kind}" in text
        back = record.loads(text)
        assert back.moves == [str(m) for m in state.moves]
        assert back.state.position_code() == state.position_code()


def first_moves(n: int, setup: str) -> int:
    """The first player's moves from a setup, counted plainly: each of its stones walks the
    eight lines while the band falls and the square is empty (the empty Throne passed over)."""
    c = n // 2
    ring = [(0, y) for y in range(n)] + [(x, n - 1) for x in range(1, n)]
    ring += [(n - 1, y) for y in range(n - 2, -1, -1)] + [(x, 0) for x in range(n - 2, 0, -1)]
    stones = {xy: letter for xy, letter in zip(ring, setup, strict=True) if letter != "."}
    count = 0
    for (x, y), letter in stones.items():
        if letter != "B":
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                band = max(abs(x - c), abs(y - c))
                tx, ty = x + dx, y + dy
                while (dx or dy) and 0 <= tx < n and 0 <= ty < n and (tx, ty) not in stones:
                    if max(abs(tx - c), abs(ty - c)) >= band:
                        break
                    count += (tx, ty) != (c, c)
                    tx, ty = tx + dx, ty + dy
    return count


@pytest.mark.parametrize("kind", setups.KINDS)
def test_the_cli_plays_every_setup(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    for rules in ("morelli-9", "morelli"):
        state = Morelli.of(f"{rules}:setup={kind}").new(seed=0)
        setup = state.setup or ""
        assert (
            main(["perft", "morelli", "1", "--rules", f"{rules}:setup={kind}", "--setup", setup])
            == 0
        )
        assert capsys.readouterr().out.split() == ["1", str(first_moves(state.n, setup))]
    assert main(["perft", "morelli", "1", "--rules", "morelli:setup=crosses"]) == 2
    assert "setting setup is one of" in capsys.readouterr().err
