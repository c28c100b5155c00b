"""People: accounts and sessions, ratings (Glicko-2), seeks, chat and finished games."""
