"""``python -m ludoteca``: the command line (see ``ludoteca --help``)."""

from .cli import main

raise SystemExit(main())
