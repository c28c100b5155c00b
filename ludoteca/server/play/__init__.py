"""Games in play: the hub of live games, their rules of conduct, views and clocks."""
