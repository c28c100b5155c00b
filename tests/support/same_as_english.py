"""The translations that are deliberately the English text itself, per language: a message
translated so counts as translated only when it is listed here (tests/server/test_i18n.py), and a
listed one must still be identical (the list cannot rot).

What they are: names (the games, Felli's Mullah, Morelli's bands where the word is the same,
board sizes), placeholders only (a layout of other texts: "%(game)s %(label)s"), punctuation a
language shares with English, and words the language uses as they are ("Normal", "Chat",
French "position", "5 minutes", "Blitz")."""

from __future__ import annotations

#: placeholders, separators and names that read the same in every shipped language
_EVERYWHERE = {
    "%(game)s %(label)s",
    "%(name)s (%(settings)s)",
    "11x11",
    "9x9",
    "%(wrong)s %(hint)s",
    "%(white)s / %(draws)s / %(black)s",
    "…",
    "%(number)s. %(name)s — %(description)s",
}
#: layouts of other texts around a colon, where the language writes the colon as English does
_COLON_LAYOUTS = {
    "%(side)s: %(pieces)s.",
    "%(what)s: %(moves)s.",
    "%(where)s: %(path)s",
    "%(game)s: %(outcome)s",
    "%(move)s: %(reason)s",
    "%(where)s: %(error)s",
    "%(where)s: %(what)s",
    "%(colour)s: ",
}
#: the names of games that keep their English name in a language written in Latin letters
_GAME_NAMES = {
    "Felli",
    "Morelli",
    "Morabaraba",
    "Cheng San Qi",
    "Cham Gonu",
    "Zhi Qi",
    "Da San Qi",
    "El Filja",
    "Dooz",
}
#: the separators of a list and of a malformed request's problems, as English writes them
_SEPARATORS = {", ", "; "}
#: two texts after each other, with a comma written as English writes it (a level, its share of
#: moves that keep the value), in the languages written in Latin or Cyrillic letters
_COMMA_LAYOUTS = {"%(level)s, %(kept)s"}
#: the tie-breaks of the tournaments' standings, named after their authors
_TIE_BREAKS = {"Buchholz", "Sonneborn-Berger"}
#: the mark beside a bot account's name, as lichess writes it in these languages too
_BOT = {"BOT"}

SAME_AS_ENGLISH: dict[str, set[str]] = {
    "fr": _EVERYWHERE
    | _GAME_NAMES
    | _TIE_BREAKS
    | _BOT
    | {"%(minutes)s minutes", "Place", "Points", "Performance", "Minutes"}
    | {
        "Action",
        "Minutes",
        "Push",
        "E-mail",
        "Notifications",
        "Blitz",
        ", ",
        "promotion",
        "sacrifice",
        "violet",
        "indigo",
        "orange",
        "conversion",
        "Novice",
        "Expert",
        "position",
        "type",
        "Site",
        "Date",
        "%(minutes)s min + %(seconds)s s",
        "5 minutes",
        "10 minutes",
        "30 minutes",
        "Normal",
    },
    "de": _EVERYWHERE
    | _GAME_NAMES
    | _TIE_BREAKS
    | _BOT
    | {"Arena", "Name", "System"}
    | {
        "Moderator",
        "%(where)s: %(path)s",
        "%(game)s: %(outcome)s",
        "Push",
        "Blitz",
        ", ",
        "; ",
        "%(move)s: %(reason)s",
        "%(where)s: %(error)s",
        "%(where)s: %(what)s",
        "%(side)s: %(pieces)s.",
        "%(what)s: %(moves)s.",
        "%(colour)s: ",
        "Mullah",
        "Mullahs",
        "indigo",
        "orange",
        "Computer (%(level)s)",
        "Chat",
        "Normal",
    },
    "es": _EVERYWHERE
    | _GAME_NAMES
    | _TIE_BREAKS
    | _BOT
    | {"Arena"}
    | {
        "%(where)s: %(path)s",
        "%(game)s: %(outcome)s",
        "Push",
        "Blitz",
        ", ",
        "; ",
        "%(move)s: %(reason)s",
        "%(where)s: %(error)s",
        "%(where)s: %(what)s",
        "%(side)s: %(pieces)s.",
        "%(what)s: %(moves)s.",
        "%(colour)s: ",
        "%(minutes)s min + %(seconds)s s",
        "Chat",
        "Normal",
    },
    "it": _EVERYWHERE
    | _GAME_NAMES
    | _COLON_LAYOUTS
    | _TIE_BREAKS
    | _BOT
    | {"Arena", "Performance", "Password", "password"}
    | {
        "Push",
        "E-mail",
        "Blitz",
        "Chat",
        ", ",
        "; ",
        "Mullah",
        "Computer (%(level)s)",
        "%(minutes)s min + %(seconds)s s",
    },
    "pt": _EVERYWHERE
    | _GAME_NAMES
    | _COLON_LAYOUTS
    | _TIE_BREAKS
    | _BOT
    | {"Arena", "Performance", "Site", "Normal"}
    | {
        "Push",
        "E-mail",
        "Blitz",
        "Chat",
        ", ",
        "; ",
        "Mullah",
        "%(minutes)s min + %(seconds)s s",
    },
    "nl": _EVERYWHERE
    | _GAME_NAMES
    | _COLON_LAYOUTS
    | _TIE_BREAKS
    | _BOT
    | {"Arena", "Blitz", "Rapid", "Chat", "Push", "E-mail", "Moderator", "Detail"}
    | {"Beginner", "Expert", "Perfect", "Rating", "Ratings", "blunder", "Blunders"}
    | {"Studies", "studies", "violet", "indigo"}
    | {
        ", ",
        "; ",
        "Mullah",
        "Mullahs",
        "Computer (%(level)s)",
        "%(minutes)s min + %(seconds)s s",
    },
    "pl": _EVERYWHERE
    | _GAME_NAMES
    | _COLON_LAYOUTS
    | _TIE_BREAKS
    | _BOT
    | {"Arena", "Blitz", "Rapid", "Push", "E-mail", "Moderator", "System"}
    | {
        ", ",
        "; ",
        "Mullah",
        "%(minutes)s min + %(seconds)s s",
    },
    "hu": _EVERYWHERE
    | _COLON_LAYOUTS
    | _SEPARATORS
    | _TIE_BREAKS
    | _BOT
    | _GAME_NAMES
    | {"Mullah"}
    | {"%(colour)s %(piece)s", "Rapid", "E-mail"},
    "ru": _EVERYWHERE | _COLON_LAYOUTS | _SEPARATORS,
    "tr": _EVERYWHERE
    | _GAME_NAMES
    | _TIE_BREAKS
    | _BOT
    | {"Arena", "Blitz", "Normal", "Site"}
    | {
        "%(where)s: %(path)s",
        "%(game)s: %(outcome)s",
        "%(move)s: %(reason)s",
        "%(where)s: %(error)s",
        "%(where)s: %(what)s",
        "%(side)s: %(pieces)s.",
        "%(what)s: %(moves)s.",
        "%(colour)s: ",
        "%(colour)s %(piece)s",
        ", ",
        "; ",
    },
    "ar": _EVERYWHERE | _COLON_LAYOUTS,
    "fa": _EVERYWHERE | _COLON_LAYOUTS,
    # Chinese: full-width punctuation and no spaces between Chinese words, so only what
    # has neither (a layout of placeholders, board sizes, the ellipsis) reads the same
    "zh": {"%(game)s %(label)s", "11x11", "9x9", "%(white)s / %(draws)s / %(black)s", "…"},
    # Japanese: the same, for the same reasons
    "ja": {"%(game)s %(label)s", "11x11", "9x9", "%(white)s / %(draws)s / %(black)s", "…"},
}
for _language in ("fr", "de", "es", "it", "pt", "nl", "pl", "hu", "ru", "tr"):
    SAME_AS_ENGLISH[_language] |= _COMMA_LAYOUTS
