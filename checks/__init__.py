"""Second implementations and cross-checks, shared by the test suite and the benchmarks.

The rules written again from docs/rules.md alone (``felli_reference``, ``morris_reference``,
``morelli_reference``), a plain retrograde solver (``retro_reference``), OpenSpiel's Nine Men's
Morris board in our point names (``openspiel_morris``), and the move-for-move comparisons of the
compiled kernels and the batched environments with the engines (``kernel_check``,
``vector_check``).  They share no code with what they check (the references) or only call its
public entry points (the comparisons), so agreement is evidence about both.

Not part of the installed package (``pyproject.toml`` ships ``ludoteca*`` only): they are
oracles for the project's own tests (``tests/``) and long runs (``bench/``), run from the
repository root, not an API for users.  ``tests/support`` keeps what only the tests need
(throw-away services, fixtures, :func:`tests.support.need.need`).
"""
