"""The JSON contract: every JSON route has a response model in the OpenAPI document (a route
kept out of it answers something other than JSON), the game websocket's and the analysis
board's messages are among its components, the messages a game sends validate against their
models, and the view the server builds as JSON values has the fields of its models."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.datastructures import DefaultPlaceholder
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from ludoteca.server import Settings, create_app
from ludoteca.server.play.views import SeatValues, SharedValues
from ludoteca.server.schemas import Plain, SeatView, ServerMessage, SharedView


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    database = tmp_path_factory.mktemp("contract") / "games.db"
    return create_app(Settings(db=f"sqlite+aiosqlite:///{database}", workers=1, warm=False))


def _is_model(schema: dict[str, Any]) -> bool:
    """Whether a response schema names models: a model, a list of them, or one or none."""
    if "$ref" in schema:
        return True
    if schema.get("type") == "array":
        return _is_model(schema.get("items", {}))
    choices = schema.get("anyOf") or schema.get("oneOf")
    if choices:
        return all(_is_model(one) or one.get("type") == "null" for one in choices)
    return False


def test_every_json_route_has_a_response_model(app: FastAPI) -> None:
    untyped = set()
    for path, operations in app.openapi()["paths"].items():
        for method, operation in operations.items():
            answers = [
                content["application/json"].get("schema", {})
                for status, answer in operation["responses"].items()
                if status.startswith("2") and "application/json" in (content := answer["content"])
            ]
            assert answers or any(
                status.startswith("2") and answer.get("content")
                for status, answer in operation["responses"].items()
            ), f"{method} {path} documents no successful answer"
            if not all(map(_is_model, answers)):
                untyped.add(f"{method} {path}")
    assert not untyped, f"routes without a response model: {untyped}"


def test_a_route_left_out_of_the_document_answers_no_json(app: FastAPI) -> None:
    for route in app.routes:
        if isinstance(route, APIRoute) and not route.include_in_schema:
            kind = route.response_class
            kind = kind.value if isinstance(kind, DefaultPlaceholder) else kind
            assert not issubclass(kind, JSONResponse), f"{route.path} answers JSON undocumented"


def test_the_websocket_messages_are_in_the_document(app: FastAPI) -> None:
    schemas = app.openapi()["components"]["schemas"]
    sent = schemas["ServerMessage"]["discriminator"]["mapping"]
    assert set(sent) == {"state", "update", "error", "hint", "chat", "chat_history", "chat_removed"}
    assert set(schemas["ClientMessage"]["discriminator"]["mapping"]) == {
        "hello",
        "move",
        "chat",
        "hint",
        *typing.get_args(Plain.model_fields["type"].annotation),
    }
    for ref in sent.values():
        assert ref.rsplit("/", 1)[1] in schemas


def test_the_analysis_boards_messages_are_in_the_document(app: FastAPI) -> None:
    schemas = app.openapi()["components"]["schemas"]
    sent = schemas["AnalysisServerMessage"]["discriminator"]["mapping"]
    assert set(sent) == {"line", "position", "lines", "done", "error"}
    asked = schemas["AnalysisClientMessage"]["discriminator"]["mapping"]
    assert set(asked) == {"show", "open", "stop"}
    for ref in [*sent.values(), *asked.values()]:
        assert ref.rsplit("/", 1)[1] in schemas


def test_the_views_values_have_the_models_fields() -> None:
    assert set(typing.get_type_hints(SharedValues)) == set(SharedView.model_fields)
    assert set(typing.get_type_hints(SeatValues)) == set(SeatView.model_fields)


def test_a_games_messages_validate_against_their_models(tmp_path: Path) -> None:
    database = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(Settings(db=database, workers=1, warm=False))) as client:
        answer = client.post("/api/games", json={"game": "morris", "opponent": "hotseat"})
        game_id, token = answer.json()["id"], answer.json()["tokens"]["white"]
        texts = []
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            texts.append(ws.receive_text())  # state
            ws.send_json({"type": "move", "move": "d6", "ply": 0})
            texts.append(ws.receive_text())  # update
            ws.send_json({"type": "move", "move": "d6", "ply": 0})
            texts.append(ws.receive_text())  # error
            ws.send_json({"type": "chat", "room": "players", "text": "hello"})
            texts.append(ws.receive_text())  # chat
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            texts += [ws.receive_text(), ws.receive_text()]  # state, chat_history
    kinds = [ServerMessage.validate_json(text).type for text in texts]
    assert kinds == ["state", "update", "error", "chat", "state", "chat_history"]
