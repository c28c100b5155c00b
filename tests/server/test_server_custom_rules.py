"""A custom mill game through the server (docs/rules.md "Custom rule set", docs/web.md): the
catalogue offers its options in words, ``/api/rules`` reads a spec back canonical or says why it
makes no game, a game and a seek are created under the canonical spec (a refused spec creates
nothing), and the game's record names its rules and replays."""

from __future__ import annotations

from fastapi.testclient import TestClient

import ludoteca

from ..support.postgres import sqlite_only
from .test_server_api import act, new, view
from .test_server_community import acting, sign_up

SPEC = "morris-custom:board=12,lasker,men=10"
TITLE = "Custom mill game (board of 24 points with diagonals, moving while placing, 10 men a side)"


@sqlite_only
def test_the_catalogue_offers_the_custom_rule_set_with_every_option(client: TestClient) -> None:
    morris = next(g for g in client.get("/api/catalogue").json() if g["name"] == "morris")
    custom = next(r for r in morris["rule_sets"] if r["name"] == "morris-custom")
    assert custom["title"] == "Custom mill game" and custom["custom"]
    assert set(custom["settings"]) == {
        "board",
        "men",
        "black_first",
        "flying",
        "lasker",
        "marking",
        "remove_from_mills",
        "one_time_mills",
        "full_board",
        "multiple_removals",
        "defender_first",
        "hand_removal",
        "mill_counts",
        "repetition",
        "move_rule",
        "three_men_rule",
    }
    assert custom["settings"]["board"] == 9 and custom["settings"]["men"] == 9
    assert all(custom["options"][k][0].isupper() for k in custom["settings"])
    assert custom["choices"] == {
        "board": [
            {"value": 6, "label": "board of 16 points"},
            {"value": 9, "label": "board of 24 points"},
            {"value": 12, "label": "board of 24 points with diagonals"},
        ],
        "full_board": [
            {"value": "none", "label": "nothing (the player who cannot move loses)"},
            {"value": "draw", "label": "a draw"},
            {"value": "first-loses", "label": "the first player loses"},
            {"value": "first-removes", "label": "the first player removes a man"},
            {"value": "both-remove", "label": "each player removes a man"},
        ],
    }
    # the named rule sets keep their few settings, and no choices
    named = next(r for r in morris["rule_sets"] if r["name"] == "morris-12")
    assert named["title"] == "Twelve Men's Morris" and named["choices"] == {}
    assert not named["custom"]
    assert set(named["settings"]) == {"flying", "repetition", "move_rule"}


@sqlite_only
def test_a_spec_is_read_back_canonical_or_refused_in_a_sentence(client: TestClient) -> None:
    read = client.get(
        "/api/rules", params={"game": "morris", "rules": "morris-custom:men=10,lasker,board=12"}
    )
    assert read.status_code == 200
    assert {k: read.json()[k] for k in ("rules", "title")} == {"rules": SPEC, "title": TITLE}
    assert len(read.json()["board"]["points"]) == 24 and read.json()["pieces"] == [""] * 24
    six = client.get("/api/rules", params={"game": "morris", "rules": "morris-custom:board=6"})
    assert six.status_code == 400
    assert six.json()["error"].startswith("9 men a side cannot play on a board of 16 points")
    named = client.get(
        "/api/rules",
        params={"game": "morris", "rules": "morris-custom:board=12,men=12,full_board=draw"},
    )
    assert named.json()["rules"] == "morris-12" and named.json()["title"] == "Twelve Men's Morris"
    filja = client.get(
        "/api/rules",
        params={
            "game": "morris",
            "rules": "morris-custom:men=12,flying=0,remove_from_mills,mill_counts",
        },
    )
    assert filja.json()["rules"] == "el-filja" and filja.json()["title"] == "El Filja"
    idle = client.get(
        "/api/rules", params={"game": "morris", "rules": "morris-custom:mill_counts,marking"}
    )
    assert idle.status_code == 400 and "so marking has nothing to do" in idle.json()["error"]


@sqlite_only
def test_a_custom_game_is_created_under_its_canonical_spec(client: TestClient) -> None:
    game_id, tokens = new(
        client,
        game="morris",
        rules="morris-custom:men=10,board=12,lasker=true",
        opponent="hotseat",
    )
    state = view(client, game_id)
    assert (state["rules"], state["rules_title"]) == (SPEC, TITLE)
    token = tokens["white"]
    for ply, move in enumerate(["a1", "g7", "a1-b2"]):  # moving while placing
        assert act(client, game_id, token, type="move", move=move, ply=ply).status_code == 200
    record = client.get(f"/api/games/{game_id}/record").text
    assert f'[Rules "{SPEC}"]' in record
    replayed = ludoteca.record.loads(record)
    assert str(replayed.state.rules) == SPEC and replayed.moves == ["a1", "g7", "a1-b2"]
    assert replayed.state.in_hand() == (9, 9)


@sqlite_only
def test_an_impossible_custom_spec_creates_nothing(client: TestClient) -> None:
    before = client.get("/api/lobby").json()
    answer = client.post(
        "/api/games",
        json={
            "game": "morris",
            "rules": "morris-custom:full_board=draw",
            "opponent": "online",
            "colour": "white",
        },
    )
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("a full board's action needs men that fill the board")
    assert client.get("/api/lobby").json() == before
    ann = sign_up(client, "Ann")
    with acting(client, ann) as csrf:
        seek = client.post(
            "/api/seeks", json={"game": "morris", "rules": "morris-custom:men=20"}, headers=csrf
        )
        assert seek.status_code == 400 and "20 men a side cannot play" in seek.json()["error"]
        assert client.get("/api/seeks/mine").json() == []
