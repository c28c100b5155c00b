"""What the tests share that is not a test: throw-away services, Ludoteca's own processes, a
second Glicko-2 and :func:`need` (the second implementations of the rules and the solvers,
shared with the benchmarks, are in ``checks/``)."""
