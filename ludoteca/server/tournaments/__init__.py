"""Tournaments between accounts: Swiss (FIDE Dutch, through ``pairing-core``), round robin
(Berger tables) and arena (lichess's rules), live or by correspondence.  The pure parts
(pairing: :mod:`.swiss`, :mod:`.berger`, :mod:`.arena`; points and tie-breaks:
:mod:`.scoring`) know nothing of the server; :mod:`.service` keeps the tournaments in the
store, opens their games through the hub and pairs the next round when a game ends."""
