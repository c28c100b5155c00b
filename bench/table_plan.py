"""The plan for Morris endgame tables past what one machine builds: for each size (men a side),
its classes' index entries, and the memory and processor time each takes, scaled from a build
that was measured (``bench/solve_bench.py``), without building anything.

    .venv/bin/python -m bench.table_plan --measured-men 6 --cpu 2400 --peak-mb 9000 --upto 9

A class ``A-B`` (the side to move's men, the opponent's) has one index entry for each canonical
set of the side to move's men (one per orbit of the board's 16 symmetries, counted by Burnside's
lemma from the symmetries' cycles) times every set of the opponent's men on the other points; the
table keeps two bytes an entry.  A build holds the whole table of its size in memory (two bytes
an entry) and works on one pair of classes (``A-B`` with ``B-A``) at a time with the scratch the
measured build used per entry of its largest pair: its peak memory less its table, over the
largest pair's entries.  Processor time is the measured build's per entry, times the entries
(the work of a position grows with its moves: a larger class costs a little more per entry, so
the figures are a lower bound).  On a Ray cluster (``ludoteca solve --ray``) the pairs of a stage
are solved at once, one task a pair, each node holding the table of the earlier stages and its
pair's scratch: the memory per node is the table of the sizes below plus the largest pair's.
"""

from __future__ import annotations

import argparse
import math

from ludoteca.games.morris.board import NINE, TWELVE, MorrisBoard, symmetries


def canonical_sets(board: MorrisBoard, men: int) -> int:
    """How many sets of ``men`` points there are up to the board's symmetries (Burnside: the
    mean over the symmetries of the sets each leaves unchanged, read off its cycles)."""
    total = 0
    for perm in symmetries(board):
        seen, cycles = set(), []
        for p in range(board.size):
            if p not in seen:
                length, q = 0, p
                while q not in seen:
                    seen.add(q)
                    q = perm[q]
                    length += 1
                cycles.append(length)
        counts = [1] + [0] * men  # sets fixed by this symmetry, by size: whole cycles chosen
        for length in cycles:
            for k in range(men, length - 1, -1):
                counts[k] += counts[k - length]
        total += counts[men]
    return total // len(symmetries(board))


def entries(board: MorrisBoard, own: int, opp: int) -> int:
    """The index entries of the class ``own-opp``."""
    return canonical_sets(board, own) * math.comb(board.size - own, opp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", choices=["24", "24d"], default="24")
    parser.add_argument("--measured-men", type=int, required=True, help="the measured build")
    parser.add_argument("--cpu", type=float, required=True, help="its processor seconds")
    parser.add_argument("--peak-mb", type=float, required=True, help="its peak memory, MB")
    parser.add_argument("--upto", type=int, default=9, help="plan the sizes up to this many men")
    args = parser.parse_args()
    board = NINE if args.board == "24" else TWELVE

    def size(men: int) -> int:
        return sum(entries(board, a, b) for a in range(3, men + 1) for b in range(3, men + 1))

    def largest_pair(men: int) -> int:
        return max(
            entries(board, a, b) + (entries(board, b, a) if a != b else 0)
            for a in range(3, men + 1)
            for b in range(a, men + 1)
        )

    measured = size(args.measured_men)
    per_entry_cpu = args.cpu / measured
    scratch = (args.peak_mb * 1e6 - 2 * measured) / largest_pair(args.measured_men)
    print(
        f"measured: {args.measured_men} men a side, {measured:,} entries, {args.cpu:,.0f} CPU s "
        f"({per_entry_cpu * 1e6:.2f} us an entry), peak {args.peak_mb:,.0f} MB "
        f"({scratch:.0f} bytes of scratch an entry of the largest pair)"
    )
    print(
        f"{'men':>3} {'entries':>16} {'table GB':>9} {'largest pair':>15} "
        f"{'memory GB':>10} {'CPU hours':>10}  classes added (entries)"
    )
    for men in range(3, args.upto + 1):
        total, pair = size(men), largest_pair(men)
        memory = (2 * total + scratch * pair) / 1e9
        hours = per_entry_cpu * total / 3600
        added = ", ".join(
            f"{a}-{b} ({entries(board, a, b):,})"
            for a in range(3, men + 1)
            for b in range(3, men + 1)
            if max(a, b) == men
        )
        print(
            f"{men:>3} {total:>16,} {2 * total / 1e9:>9.1f} {pair:>15,} {memory:>10.1f} "
            f"{hours:>10.1f}  {added}"
        )


if __name__ == "__main__":
    main()
