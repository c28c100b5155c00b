"""SVG pictures of positions: every game drawn from its board description."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import ludoteca
from ludoteca.cli import main
from ludoteca.svg import render

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def pieces(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if "piece" in g.get("class", "")]


def test_morris_picture_shows_the_men_lines_and_last_move() -> None:
    state = ludoteca.new_game("morris")
    for move in ("a7", "g1", "d7", "g4", "g7xg1"):
        state.push(move)
    root = parse(render(state))
    assert len(pieces(root)) == 4  # three white, one black left after the removal
    assert len(root.findall(f"{NS}line")) == 32  # the 32 edges of the board
    highlighted = [c for c in root.iter(f"{NS}circle") if c.get("class") == "last"]
    assert len(highlighted) == 2  # g7 placed, g1 taken
    labels = {t.text for t in root.iter(f"{NS}text")}
    assert set("abcdefg") | set("1234567") <= labels


def test_morelli_cells_king_and_flip() -> None:
    state = ludoteca.new_game("morelli-9", seed=1)
    root = parse(render(state))
    cells = [r for r in root.iter(f"{NS}rect")]
    assert len(cells) == 81 and len({r.get("fill") for r in cells}) == 5  # 4 rings + Throne
    assert len(pieces(root)) == 32
    a1 = state.game.board.points.index("A1")
    token = state.pieces()[a1]

    def stone_at_bottom_left(svg: str) -> str:
        circles = [c for g in pieces(parse(svg)) for c in g.iter(f"{NS}circle")]
        corner = min(circles, key=lambda c: float(c.get("cx", 0)) - float(c.get("cy", 0)))
        return "w" if corner.get("fill") == "#fdfdfb" else "b"

    assert stone_at_bottom_left(render(state)) == token
    i9 = state.game.board.points.index("I9")
    assert stone_at_bottom_left(render(state, flipped=True)) == state.pieces()[i9]


def test_felli_mullah_is_marked(tmp_path: Path) -> None:
    state = ludoteca.load("felli-mullah").from_position_code(".B./..b/./b../w.W w 0 0")
    root = parse(render(state, size=300))
    assert root.get("width") == "300"
    rings = [c for c in root.iter(f"{NS}circle") if c.get("stroke") == "#d4a017"]
    assert len(rings) == 2  # the two Mullahs


def test_record_show_writes_pictures(tmp_path: Path) -> None:
    games = tmp_path / "games.txt"
    games.write_text('[Game "morris"]\n\n1. d6 f4 *\n\n[Game "felli"]\n\n1. b2-c3 *\n')
    assert main(["record", "show", str(games), "--svg", str(tmp_path / "end.svg")]) == 0
    assert len(pieces(parse((tmp_path / "end.svg").read_text()))) == 2
    assert len(pieces(parse((tmp_path / "end-2.svg").read_text()))) == 12


def test_da_san_qi_marked_point_is_crossed() -> None:
    # White places g7, closing two mills, and takes b2: b2 is marked until the placing ends
    state = ludoteca.load("da-san-qi").from_position_code(
        "WW./B../W../.B...W/.../BBB/..W w 7 7 0 10"
    )
    assert not [g for g in parse(render(state)).iter(f"{NS}g") if g.get("class") == "marked"]
    state.push("g7xb2")
    marked = [g for g in parse(render(state)).iter(f"{NS}g") if g.get("class") == "marked"]
    assert len(marked) == 1
    ring = marked[0].find(f"{NS}circle")
    assert ring is not None
    # b2 on the 7 x 7 grid, 100 per step inside a margin of 100, rank 7 at the top: (200, 600)
    assert (float(ring.get("cx", 0)), float(ring.get("cy", 0))) == (200, 600)
    assert len(marked[0].findall(f"{NS}line")) == 2
