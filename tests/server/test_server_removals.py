"""A turn that only takes a man (the Morris family's removals due) through the game API: the page
gets each such move as a single ``take`` touch, the instruction to take a man, and plays it, the
same side keeping the turn while removals are due (Da San Qi's double mill while placing)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ..games.test_morris_removals import DOUBLE
from .test_server_api import act, legal_move, new, view


def test_a_double_mill_asks_for_the_second_man_alone(client: TestClient) -> None:
    game_id, tokens = new(
        client, game="morris", rules="da-san-qi", opponent="hotseat", position=DOUBLE
    )
    white = tokens["white"]
    state = view(client, game_id, white)
    names = state["board"]["points"]
    mill = next(m for m in map(legal_move, state["legal"]) if m["n"] == "a1xd6")
    assert [(k, names[p]) for k, p in mill["g"]] == [("to", "a1"), ("take", "d6")]
    state = act(client, game_id, white, type="move", move="a1xd6", ply=state["ply"]).json()
    assert state["turn"] == "white"  # White removes again, a turn of its own
    alone = [legal_move(text) for text in state["legal"]]
    assert sorted(m["n"] for m in alone) == ["xb6", "xc3", "xf6"]
    assert all(m["g"] == [("take", names.index(m["n"][1:]))] for m in alone)
    assert state["texts"]["take"]  # the page's instruction for a take
    state = act(client, game_id, white, type="move", move="xf6", ply=state["ply"]).json()
    assert state["turn"] == "black" and state["moves"][-2:] == ["a1xd6", "xf6"]
    assert state["pieces"][names.index("f6")] == ""


#: White to place; g7 closes two mills (a7-d7-g7 and g7-g4-g1)
TWO_MILLS = "WW./B../W../.B...W/.../BBB/..W w 7 7 0 10"


def test_a_man_taken_while_placing_leaves_its_point_marked(client: TestClient) -> None:
    game_id, tokens = new(
        client, game="morris", rules="da-san-qi", opponent="hotseat", position=TWO_MILLS
    )
    white = tokens["white"]
    state = view(client, game_id, white)
    names = state["board"]["points"]
    assert state["marked"] == []
    state = act(client, game_id, white, type="move", move="g7xb2", ply=state["ply"]).json()
    assert state["pieces"][names.index("b2")] == ""
    assert [names[p] for p in state["marked"]] == ["b2"]
    assert view(client, game_id, white)["marked"] == state["marked"]
    record = client.get(f"/api/games/{game_id}/record").text
    replay = client.post("/api/records/replay", json={"text": record}).json()
    assert [[names[p] for p in position["marked"]] for position in replay["positions"]] == [
        [],
        ["b2"],
    ]
