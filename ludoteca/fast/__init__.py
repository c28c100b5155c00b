"""Compiled random-playout kernels (numba; the optional extra ``ludoteca[fast]``).

Each kernel plays whole random games inside compiled code with exactly the move generation order
of the pure engine, so a game it plays can be replayed move for move by the engine (the tests do
that).  They serve benchmarks and bulk random playouts; the engines stay the source of truth.
"""
