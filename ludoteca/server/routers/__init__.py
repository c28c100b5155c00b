"""The server's routes, by concern: pages, the JSON API, game websockets, operations."""
