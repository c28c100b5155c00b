"""The computer's work: its moves, hints and game reports in worker processes (a pool, or a Redis
queue for ``ludoteca worker``), and the solved tables built in the background."""
