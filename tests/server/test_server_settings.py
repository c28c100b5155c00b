"""The server's settings: environment variables feed them, what is given explicitly (a flag of
``ludoteca serve``) wins, and impossible ones are refused before anything starts."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ludoteca.cli import main
from ludoteca.server import Settings


def test_the_environment_feeds_the_settings_and_an_explicit_value_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LUDOTECA_WORKERS", "5")
    monkeypatch.setenv("LUDOTECA_DB", "sqlite+aiosqlite:///elsewhere.db")
    monkeypatch.setenv("LUDOTECA_ORIGINS", '["https://friends.example"]')
    settings = Settings()
    assert settings.workers == 5 and settings.db == "sqlite+aiosqlite:///elsewhere.db"
    assert settings.origins == ("https://friends.example",)
    assert Settings(workers=1).workers == 1


def test_impossible_settings_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    for wrong in ({"port": 0}, {"workers": 0}, {"queue": True}, {"colour": "blue"}):
        with pytest.raises(ValidationError):
            Settings(**wrong)  # type: ignore[arg-type]
    assert Settings(queue=True, redis="redis://127.0.0.1:6379/0").queue
    monkeypatch.setenv("LUDOTECA_PORT", "70000")
    with pytest.raises(ValidationError):
        Settings()


def test_serve_names_the_flag_it_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", "--workers", "0"]) == 2
    said = capsys.readouterr().err
    assert "--port" in said and "--workers" in said
    assert main(["serve", "--queue"]) == 2
    assert "queue needs redis" in capsys.readouterr().err
