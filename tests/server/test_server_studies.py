"""Studies as docs/web.md describes them, on SQLite and PostgreSQL: made by an account with
chapters from a position, a record and a finished game; their trees changed by moves,
comments, marks, shapes, deletions and promotions; shared with contributors and refused to
others; seen by guests as their visibility says; exported as records and imported back equal;
changes told live on the study's websocket; and every bad input refused with a sentence,
changing nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ludoteca import record
from ludoteca.server.study import studies

from ..support.postgres import sqlite_only
from .test_server_community import Person, acting, sign_up

RECORD = (
    '[Game "morris"]\n[Rules "morris"]\n[White "Ann"]\n[Black "Bob"]\n[Result "*"]\n\n'
    "{[%csl Gd2] the start} 1. d2 {[%cal Rd2-d1] centre} f4! (1... b4 {other}) 2. d1 *\n"
)


def post(client: TestClient, person: Person | None, url: str, status: int, **body: Any) -> Any:
    with acting(client, person) as csrf:
        answer = client.post(url, json=body, headers=csrf)
    assert answer.status_code == status, answer.text
    return answer.json()


def get(client: TestClient, person: Person | None, url: str, status: int = 200) -> Any:
    with acting(client, person):
        answer = client.get(url)
    assert answer.status_code == status, answer.text
    return answer.json() if "json" in answer.headers["content-type"] else answer.text


def new_study(client: TestClient, owner: Person, **body: Any) -> dict[str, Any]:
    made = post(client, owner, "/api/studies", 201, **{"title": "Openings", **body})
    view: dict[str, Any] = get(client, owner, f"/api/studies/{made['id']}")
    return view


def change(
    client: TestClient, person: Person | None, study: dict[str, Any], status: int = 200, **body: Any
) -> Any:
    chapter = body.pop("chapter", study["chapters"][0]["id"])
    return post(
        client, person, f"/api/studies/{study['id']}/chapters/{chapter}/changes", status, **body
    )


def tree(client: TestClient, person: Person | None, study: dict[str, Any], index: int = 0) -> Any:
    chapter = study["chapters"][index]["id"]
    return get(client, person, f"/api/studies/{study['id']}/chapters/{chapter}")["tree"]


def test_a_study_made_annotated_and_shared(client: TestClient) -> None:
    ann, bob, cid = sign_up(client, "Ann"), sign_up(client, "Bob"), sign_up(client, "Cid")
    study = new_study(client, ann, visibility="unlisted")
    assert study["owner"] == "Ann" and study["editor"] and study["owned"]
    assert [c["name"] for c in study["chapters"]] == ["Chapter 1"]
    assert study["chapters"][0]["game"] == "morris"
    done = change(client, ann, study, op="move", path=[], move="d2")
    assert done["path"] == ["d2"] and done["version"] == 1
    change(client, ann, study, op="move", path=["d2"], move="f4")
    change(client, ann, study, op="move", path=["d2"], move="b4")  # a variation
    change(client, ann, study, op="comment", path=["d2"], comment="the centre")
    change(client, ann, study, op="mark", path=["d2", "f4"], mark="!?")
    shapes = [{"brush": "red", "orig": "d2", "dest": "d1"}, {"brush": "green", "orig": "f4"}]
    change(client, ann, study, op="shapes", path=["d2", "f4"], shapes=shapes)
    again = change(client, ann, study, op="move", path=["d2"], move="b4")  # there already
    assert again["path"] == ["d2", "b4"] and again["version"] == 7
    assert tree(client, ann, study) == {
        "moves": [
            {"move": "d2", "comment": "the centre"},
            {
                "move": "f4",
                "mark": "!?",
                "shapes": [{"brush": "red", "orig": "d2", "dest": "d1"}, shapes[1]],
                "variations": [{"moves": [{"move": "b4"}]}],
            },
        ]
    }
    change(client, ann, study, op="promote", path=["d2", "b4"])
    assert [m["move"] for m in tree(client, ann, study)["moves"]] == ["d2", "b4"]
    assert change(client, ann, study, op="delete", path=["d2", "f4"])["path"] == ["d2"]
    assert tree(client, ann, study)["moves"][1] == {"move": "b4"}

    # contributors edit; anyone else reads an unlisted study but may not change it
    change(client, bob, study, 403, op="move", path=["d2", "b4"], move="d1")
    post(client, ann, f"/api/studies/{study['id']}/contributors", 200, names=["bob"])
    bob_sees = get(client, bob, f"/api/studies/{study['id']}")
    assert bob_sees["editor"] and not bob_sees["owned"] and bob_sees["contributors"] == ["Bob"]
    change(client, bob, study, op="move", path=["d2", "b4"], move="d1")
    refused = change(client, cid, study, 403, op="comment", path=[], comment="mine")
    assert refused["error"] == "only the study's owner and contributors may change it"
    assert get(client, None, f"/api/studies/{study['id']}")["editor"] is False
    post(client, bob, f"/api/studies/{study['id']}", 403, visibility="public")  # owner only
    listed = get(client, bob, "/api/studies")
    assert [s["id"] for s in listed["mine"]] == [study["id"]] and listed["public"] == []
    post(client, ann, f"/api/studies/{study['id']}", 200, visibility="private")
    assert get(client, cid, f"/api/studies/{study['id']}", 403)["error"] == (
        "this study is private: only its owner and contributors may see it"
    )
    get(client, None, f"/api/studies/{study['id']}", 403)
    with acting(client, None):
        page = client.get(f"/study/{study['id']}")
    assert page.status_code == 403 and "this study is private" in page.text
    get(client, bob, f"/api/studies/{study['id']}")  # a contributor still sees it
    post(client, ann, f"/api/studies/{study['id']}", 200, visibility="public")
    assert [s["title"] for s in get(client, None, "/api/studies")["public"]] == ["Openings"]


def test_chapters_from_a_position_a_record_and_a_finished_game(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    study = new_study(client, ann, chapter={"name": "Felli", "game": "felli"})
    assert study["chapters"][0]["name"] == "Felli" and study["chapters"][0]["game"] == "felli"
    code = ".b./..b/./b../w.w w 0 0"
    chapters = f"/api/studies/{study['id']}/chapters"
    made = post(client, ann, chapters, 201, game="felli", position=code)
    assert made["start"] == code and made["name"] == "Chapter 2"
    from_record = post(client, ann, chapters, 201, record=RECORD)
    assert from_record["name"] == "Ann - Bob" and from_record["tags"]["White"] == "Ann"
    assert from_record["tree"]["shapes"] == [{"brush": "green", "orig": "d2"}]
    assert from_record["tree"]["moves"][1]["variations"] == [
        {"moves": [{"move": "b4", "comment": "other"}]}
    ]

    # a finished game of the server (a hot-seat game resigned after two moves)
    game = post(client, None, "/api/games", 201, game="morris", opponent="hotseat")
    token = game["tokens"]["white"]
    actions = f"/api/games/{game['id']}/actions"
    for ply, move in enumerate(["d2", "d6"]):
        post(client, None, actions, 200, type="move", move=move, ply=ply, token=token)
    post(client, None, actions, 200, type="resign", token=token)
    studied = post(client, ann, chapters, 201, game_id=game["id"])
    assert [m["move"] for m in studied["tree"]["moves"]] == ["d2", "d6"]
    assert studied["tags"]["Result"] == "0-1"
    chapter = get(client, ann, f"{chapters}/{studied['id']}/record")
    assert '[Result "0-1"]' in chapter and '[Termination "resignation"]' in chapter
    assert '[Study "Openings"]' in chapter and "1. d2 d6 0-1" in chapter


def test_a_study_exported_and_imported_back_equal(client: TestClient) -> None:
    ann = sign_up(client, "Ann")
    study = new_study(client, ann, chapter={"record": RECORD, "name": "Mills"})
    chapters = f"/api/studies/{study['id']}/chapters"
    post(client, ann, chapters, 201, game="morelli-9", name="Morelli")
    study = get(client, ann, f"/api/studies/{study['id']}")
    change(client, ann, study, op="mark", path=["d2"], mark="??")
    change(
        client,
        ann,
        study,
        op="shapes",
        path=["d2", "f4", "d1"],
        shapes=[{"brush": "blue", "orig": "a1", "dest": "g7"}],
    )
    morelli = study["chapters"][1]["id"]
    done = change(
        client,
        ann,
        study,
        chapter=morelli,
        op="shapes",
        path=[],
        shapes=[{"brush": "yellow", "orig": "E5"}],
    )
    assert done["version"] == 1
    text = get(client, ann, f"/api/studies/{study['id']}/record")
    games = list(record.read_games(text.splitlines(keepends=True)))
    assert [g.tags["Chapter"] for g in games] == ["Mills", "Morelli"]
    assert (
        "1. d2?? {[%cal Rd2-d1] centre} f4! (1... b4 {other}) 2. d1 {[%cal Ba1-g7]} *"
        in " ".join(text.split())
    )
    assert "{[%csl YE5]}" in text

    other = new_study(client, ann, title="Copy")
    made = post(client, ann, f"/api/studies/{other['id']}/import", 201, records=text)
    assert [c["name"] for c in made] == ["Mills", "Morelli"]
    originals = [get(client, ann, f"{chapters}/{c['id']}") for c in study["chapters"]]
    for copy, original in zip(made, originals, strict=True):
        assert copy["tree"] == original["tree"]
        assert (copy["game"], copy["rules"], copy["start"]) == (
            original["game"],
            original["rules"],
            original["start"],
        )
    with acting(client, ann) as csrf:  # (the copy's own first chapter)
        first = other["chapters"][0]["id"]
        gone = client.delete(f"/api/studies/{other['id']}/chapters/{first}", headers=csrf)
        assert [c["name"] for c in gone.json()["chapters"]] == ["Mills", "Morelli"]
    copied = get(client, ann, f"/api/studies/{other['id']}/record")
    assert copied.replace('"Copy"', '"Openings"') == text


def test_bad_input_is_refused_and_changes_nothing(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    post(client, None, "/api/studies", 401, title="Mine")
    study = new_study(client, ann)
    change(client, ann, study, op="move", path=[], move="d2")
    before = tree(client, ann, study)
    chapters = f"/api/studies/{study['id']}/chapters"
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"op": "move", "path": [], "move": "z9"}, 400, "z9"),
        ({"op": "move", "path": ["a1"], "move": "d6"}, 400, "this chapter has no move a1"),
        ({"op": "comment", "path": ["d2"], "comment": "x" * 2001}, 400, "at most 2000 characters"),
        (
            {
                "op": "shapes",
                "path": ["d2"],
                "shapes": [{"brush": "red", "orig": "d2", "dest": "h9"}],
            },
            400,
            "'h9' is not a point of this board: no shape there",
        ),
        ({"op": "shapes", "path": [], "shapes": [{"brush": "pink", "orig": "d2"}]}, 400, "brush"),
        ({"op": "mark", "path": ["d2"], "mark": "!!!"}, 400, "mark"),
        ({"op": "delete", "path": []}, 400, "choose a move first"),
        ({"op": "jump", "path": []}, 400, ""),
    ]
    for body, status, sentence in cases:
        answer = change(client, ann, study, status, **body)
        assert sentence in answer["error"], (body, answer)
    change(client, bob, study, 403, op="comment", path=[], comment="hello")
    change(client, None, study, 401, op="comment", path=[], comment="hello")
    assert tree(client, ann, study) == before
    assert get(client, ann, f"/api/studies/{study['id']}")["version"] == 1

    impossible = post(client, ann, chapters, 400, game="morris", position="W" * 24 + " w 0 0 0 1")
    assert impossible["error"]
    bad_record = post(client, ann, chapters, 400, record=RECORD.replace("f4!", "d2"))
    assert "ply 2 (d2)" in bad_record["error"]
    post(client, ann, chapters, 400, record=RECORD, position=".b./..b/./b../w.w w 0 0")
    post(client, ann, chapters, 404, game_id="nothing")
    live = post(client, None, "/api/games", 201, game="morris", opponent="hotseat")
    assert "finished" in post(client, ann, chapters, 400, game_id=live["id"])["error"]
    imported = post(
        client,
        ann,
        f"/api/studies/{study['id']}/import",
        400,
        records=RECORD + "\n" + RECORD.replace("d1 *", "d9 *"),
    )
    assert "d9" in imported["error"]
    post(client, ann, f"/api/studies/{study['id']}/contributors", 404, names=["nobody"])
    assert post(client, ann, f"/api/studies/{study['id']}", 400, title="")["error"]
    assert len(get(client, ann, f"/api/studies/{study['id']}")["chapters"]) == 1
    only = study["chapters"][0]["id"]
    with acting(client, ann) as csrf:
        assert client.delete(f"{chapters}/{only}", headers=csrf).status_code == 400
    assert get(client, ann, f"/api/studies/{study['id']}")["version"] == 1


def test_the_limits_are_told(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = sign_up(client, "Ann")
    monkeypatch.setattr(studies, "MAX_STUDIES", 2)
    monkeypatch.setattr(studies, "MAX_CHAPTERS", 2)
    monkeypatch.setattr(studies, "MAX_NODES", 3)
    study = new_study(client, ann)
    new_study(client, ann)
    flood = post(client, ann, "/api/studies", 429, title="Third")
    assert flood["error"] == "you have 2 studies, the most an account may have: delete one first"
    chapters = f"/api/studies/{study['id']}/chapters"
    post(client, ann, chapters, 201, game="felli")
    assert post(client, ann, chapters, 400, game="felli")["error"] == (
        "a study holds at most 2 chapters"
    )
    for path, move in (([], "d2"), (["d2"], "d6"), (["d2", "d6"], "a1")):
        change(client, ann, study, op="move", path=path, move=move)
    told = change(client, ann, study, 400, op="move", path=["d2"], move="b4")
    assert told["error"] == "a chapter holds at most 3 moves"
    with acting(client, ann) as csrf:
        client.delete(f"/api/studies/{study['id']}", headers=csrf).raise_for_status()
    get(client, ann, f"/api/studies/{study['id']}", 404)
    new_study(client, ann)  # room again


def test_changes_are_told_live_on_the_websocket(client: TestClient) -> None:
    ann, bob = sign_up(client, "Ann"), sign_up(client, "Bob")
    study = new_study(client, ann, visibility="unlisted")
    chapter = study["chapters"][0]["id"]
    client.cookies.clear()
    with client.websocket_connect(f"/ws/studies/{study['id']}") as guest:
        assert guest.receive_json()["study"]["title"] == "Openings"
        guest.send_json({"type": "open", "chapter": chapter})
        assert guest.receive_json()["chapter"]["tree"] == {"moves": []}
        guest.send_json(
            {"type": "change", "chapter": chapter, "change": {"op": "comment", "comment": "x"}}
        )
        assert guest.receive_json() == {"type": "error", "message": "sign in first"}
        client.cookies.set("ludoteca_session", ann.cookie)
        with client.websocket_connect(f"/ws/studies/{study['id']}") as owner:
            assert owner.receive_json()["study"]["editor"] is True
            owner.send_json(
                {"type": "change", "chapter": chapter, "change": {"op": "move", "move": "d2"}}
            )
            told = guest.receive_json()
            assert told["type"] == "change" and told["by"] == "Ann"
            assert told["change"] == {"op": "move", "path": [], "move": "d2"}
            assert told["path"] == ["d2"] and told["version"] == 1
            assert owner.receive_json()["type"] == "change"  # (to its maker too)
            owner.send_json({"type": "where", "chapter": chapter, "path": ["d2"]})
            assert guest.receive_json() == {
                "type": "position",
                "chapter": chapter,
                "path": ["d2"],
                "by": "Ann",
            }
            change(client, ann, study, op="mark", path=["d2"], mark="!")  # through the API too
            assert guest.receive_json()["change"]["mark"] == "!"
            post(client, ann, f"/api/studies/{study['id']}/chapters", 201, game="felli")
            assert len(guest.receive_json()["study"]["chapters"]) == 2
    del bob


@pytest.fixture
def private_study(client: TestClient) -> Iterator[tuple[dict[str, Any], Person]]:
    ann = sign_up(client, "Ann")
    yield new_study(client, ann, visibility="private"), ann


@sqlite_only
def test_a_private_studys_socket_is_refused_to_others(
    client: TestClient, private_study: tuple[dict[str, Any], Person]
) -> None:
    study, _ann = private_study
    client.cookies.clear()
    with (
        client.websocket_connect(f"/ws/studies/{study['id']}") as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_json()
    assert closed.value.code == 1008 and "private" in closed.value.reason
