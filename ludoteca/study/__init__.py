"""Study material made from what the engines know exactly: puzzles (:mod:`.puzzles`), with the
shipped sets in ``data/``.  Nothing here names a game: each game declares its own knowledge
(its solver, its kernel, its puzzle themes)."""
