"""Which tests need to run on PostgreSQL as well as on SQLite: the fewest (cheapest first) that
still run, on PostgreSQL, every line the whole PostgreSQL set runs of the modules that talk to
the database (those importing SQLAlchemy).  A greedy set cover over per-test coverage.

    uv pip install --python .venv/bin/python pytest-cov   # (not a dependency of the project)
    .venv/bin/pytest -n 2 --dist loadfile -p no:randomly -k postgres --cov=ludoteca \\
        --cov-context=test --cov-report= --durations=0 -q > /tmp/postgres-tests.log
    .venv/bin/python -m bench.postgres_coverage .coverage /tmp/postgres-tests.log \\
        --keep test_server_store test_server_postgres ...

Contract: reads the coverage data file (its per-test contexts) and the run's ``--durations=0``
output (each test's cost); the tests whose node id contains one of ``--keep`` are kept first
(those whose point is PostgreSQL's own behaviour: migrations, locking, its kills), then, until
the kept tests run every such line, the test giving the most new lines per second.  Prints each
test added with what it gains, then the tests left to SQLite alone with their cost.  Line
coverage is the measure: a line run on PostgreSQL with other data is not seen as new.
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from pathlib import Path

import coverage

DURATION = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(tests/\S+)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="the coverage data file (.coverage)")
    parser.add_argument("durations", type=Path, help="the run's output with --durations=0")
    parser.add_argument("--keep", nargs="*", default=[], help="node id parts always kept")
    args = parser.parse_args()
    cost: dict[str, float] = defaultdict(float)
    for line in args.durations.read_text().splitlines():
        if found := DURATION.match(line):
            cost[found.group(2)] += float(found.group(1))
    data = coverage.CoverageData(str(args.data))
    data.read()
    lines: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for name in data.measured_files():
        if "/ludoteca/" not in name or "sqlalchemy" not in Path(name).read_text():
            continue
        for number, contexts in data.contexts_by_lineno(name).items():
            for context in contexts:
                if "postgres" in context:
                    lines[context.rsplit("|", 1)[0]].add((name, number))
    every = set().union(*lines.values())
    kept = [test for test in lines if any(part in test for part in args.keep)]
    covered = set().union(*(lines[test] for test in kept))
    print(f"{len(lines)} tests on PostgreSQL run {len(every)} lines; {len(kept)} kept first")
    while covered != every:
        best = max(
            (test for test in lines if test not in kept),
            key=lambda test: len(lines[test] - covered) / (cost[test] + 0.5),
        )
        gain = lines[best] - covered
        kept.append(best)
        covered |= gain
        print(f"+ {best}: {len(gain)} lines, {cost[best]:.1f} s")
    left = sorted(set(lines) - set(kept))
    print(f"kept {len(kept)} ({sum(cost[t] for t in kept):.0f} s); on SQLite alone:")
    for test in left:
        print(f"  {test} ({cost[test]:.1f} s)")
    print(f"{len(left)} tests, {sum(cost[t] for t in left):.0f} s")


if __name__ == "__main__":
    main()
