"""Time to a ready game report: a 150-ply Morris game and a 100-ply Morelli game, each sent as
a record to a fresh server (SQLite in a temporary folder, the default limit a position), timed
from the request until the report is ready.

    .venv/bin/python -m bench.report_bench [--out bench/results/report.txt]

(The server is otherwise idle: the same figures while 200 live games are played, beside the
computer's move latency, are still to be measured.)
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

import ludoteca
from ludoteca import record
from ludoteca.ai import make_agent
from ludoteca.server import Settings, create_app


def game_of(name: str, plies: int, spec: str, skip: int = 0) -> str:
    """The record of the first ``plies`` moves of a game the agent ``spec`` plays against
    itself from the rule set's start of seed 0 (Morelli's starts are random) (the first seed
    of the agent, past ``skip`` seeds, whose game lasts that long): the same game in every
    run."""
    for seed in range(skip, skip + 100):
        state = ludoteca.load(name).new(seed=0)
        agent = make_agent(spec, state.rules, seed)
        while len(state.move_stack) < plies and state.outcome() is None:
            state.push(agent.choose(state))
        if len(state.move_stack) == plies:
            return record.dumps(state)
    raise RuntimeError(f"no {name} game of {plies} plies")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db=f"sqlite+aiosqlite:///{folder}/games.db", workers=1)
        with TestClient(create_app(settings)) as client:
            lines.append(f"limit a position: {settings.report_limit}")
            # noisy shallow searches in Morris; random moves in Morelli (a noisy search scores
            # every root move, too slow to make the game)
            games = (("morris", 150, "search:depth=2,noise=300"), ("morelli", 100, "random"))
            for name, plies, spec in games:
                text = game_of(name, plies, spec)
                started = time.monotonic()
                key = client.post("/api/records/report", json={"text": text}).json()["key"]
                while (report := client.get(f"/api/reports/{key}").json())["status"] != "ready":
                    time.sleep(0.05)  # polling, as the pages do
                took = time.monotonic() - started
                judged = sum(bool(m["judgement"]) for m in report["moves"])
                lines.append(
                    f"{name} ({spec}): {plies} plies, {report['total']} positions, ready in "
                    f"{took:.1f} s ({took / report['total'] * 1000:.0f} ms a position); "
                    f"{judged} moves marked"
                )
                print(lines[-1], flush=True)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
