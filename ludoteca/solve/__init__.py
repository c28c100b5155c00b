"""Solved games: retrograde analysis with numpy (the optional extra ``ludoteca[solve]``)."""
