"""What the tests share that is not a test: throw-away services, Ludoteca's own processes,
second implementations of the rules and the solvers, and :func:`need`."""
