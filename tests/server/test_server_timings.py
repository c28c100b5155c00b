"""Where a move's time goes, as ``/metrics`` tells it (docs/web.md): every stage of a websocket
move is counted once per move, the commits carry exactly the moves played, and the event loop's
lag histogram sees the loop held up."""

from __future__ import annotations

import re
import time

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry, Histogram, generate_latest

from ludoteca.server.timings import STAGES, Timings

from ..support.postgres import sqlite_only

MOVES = ["d6", "f4", "d2", "f6"]  # four placements of Nine Men's Morris, no mill


def metric(text: str, name: str, **labels: str) -> float:
    """The value of the sample ``name{labels}`` in a Prometheus text page (0 when absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pattern = rf"^{re.escape(name)}(?:\{{([^}}]*)\}})? (\S+)$"
    for line in text.splitlines():
        found = re.match(pattern, line)
        if found and (found.group(1) or "") == wanted:
            return float(found.group(2))
    return 0.0


@sqlite_only
def test_every_stage_of_a_move_is_counted(client: TestClient) -> None:
    game = client.post("/api/games", json={"game": "morris", "opponent": "hotseat"}).json()
    before = client.get("/metrics").text
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": game["tokens"]["white"]})
        assert ws.receive_json()["type"] == "state"
        for ply, move in enumerate(MOVES):
            ws.send_json({"type": "move", "move": move, "ply": ply})
            while (update := ws.receive_json())["type"] != "update":
                pass  # (a watcher count or chat note may come first)
            # the answer is this move's: appended at its ply, the game one ply further
            assert (update["moves_from"], update["append"], update["ply"]) == (
                ply,
                [move],
                ply + 1,
            )
    after = client.get("/metrics").text

    def grew(name: str, **labels: str) -> float:
        return metric(after, name, **labels) - metric(before, name, **labels)

    for stage in ("parse", "check", "batch", "apply", "fanout"):
        assert grew("ludoteca_stage_seconds_count", stage=stage) >= len(MOVES), stage
    # each move's update was written to the socket (and the greeting's whole view)
    assert grew("ludoteca_stage_seconds_count", stage="send") >= len(MOVES) + 1
    commits = grew("ludoteca_stage_seconds_count", stage="commit")
    assert 1 <= commits <= len(MOVES)
    # the commits carried the moves played, each once, however they were batched
    assert grew("ludoteca_commit_moves_sum") == len(MOVES)
    assert grew("ludoteca_commit_moves_count") == commits
    assert set(STAGES) == {"parse", "check", "batch", "commit", "apply", "fanout", "send"}


@sqlite_only
def test_the_event_loop_lag_histogram_sees_the_loop_held(client: TestClient) -> None:
    def held() -> tuple[float, float]:
        """Samples over 0.25 s (and at most 1 s), and the sum of all samples."""
        page = client.get("/metrics").text
        name = "ludoteca_event_loop_lag_seconds"
        return (
            metric(page, f"{name}_bucket", le="1.0") - metric(page, f"{name}_bucket", le="0.25"),
            metric(page, f"{name}_sum"),
        )

    long_before, sum_before = held()
    # hold the server's event loop for 0.6 s (the portal runs a plain function in its thread):
    # the watcher's timer, due every 0.05 s, runs 0.55-0.6 s late
    client.portal.call(time.sleep, 0.6)  # type: ignore[union-attr]
    deadline = time.monotonic() + 30
    while held()[0] == long_before and time.monotonic() < deadline:
        time.sleep(0.05)  # polling /metrics: the sample lands when the loop's timer runs
    long_after, sum_after = held()
    # the hold's own sample, in its bucket (a busy machine's lags are a few tens of ms), and
    # the lag it added to the sum
    assert long_after >= long_before + 1
    assert sum_after - sum_before >= 0.5


def samples(page: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """The samples of a Prometheus text page: (name, labels) to value (no ``_created``)."""
    found = {}
    for line in page.splitlines():
        match = re.match(r"^(\w+)(?:\{([^}]*)\})? (\S+)$", line)
        if match and not match.group(1).endswith("_created"):
            labels = frozenset(re.findall(r'(\w+)="([^"]*)"', match.group(2) or ""))
            found[match.group(1), labels] = float(match.group(3))
    return found


@given(st.lists(st.sampled_from([0.0, 0.0001, 0.001, 1.0]) | st.floats(0, 2), max_size=50))
def test_the_histograms_write_what_prometheus_clients_own_writes(values: list[float]) -> None:
    """The lock-free histograms write the samples prometheus_client's own histogram writes for
    the same observations (bounds inclusive, cumulative counts, count, sum)."""
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    timings = Timings(ours)
    reference = Histogram(
        "ludoteca_stage_seconds", "x", ["stage"], buckets=timings.bounds, registry=theirs
    ).labels(stage="commit")
    for value in values:
        timings.observe("commit", value)
        reference.observe(value)
    mine = samples(generate_latest(ours).decode())
    expected = samples(generate_latest(theirs).decode())
    assert expected and all(mine[key] == pytest.approx(value) for key, value in expected.items())
