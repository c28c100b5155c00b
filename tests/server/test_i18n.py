"""The translation catalogue: every text of the code translated in each shipped language, with
the same placeholders; the plural forms; the compiled catalogues in step with the translators'
files; how a request's language is chosen; a server refusal and a game's status text read in
French."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from ludoteca import i18n
from ludoteca.core import Color, InvalidRulesError, Outcome, Termination
from ludoteca.games import game_names, load
from ludoteca.i18n import LANGUAGES, LOCALE, SOURCE, Text, _, negotiate, ngettext, use
from ludoteca.server.app import create_app
from ludoteca.server.computer import workers
from ludoteca.server.errors import ActionError
from ludoteca.server.schemas import Message, read_message
from ludoteca.server.settings import Settings
from ludoteca.server.study.explorer import worded
from ludoteca.server.study.schemas import MoveScore

from ..support.same_as_english import SAME_AS_ENGLISH

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [language for language in LANGUAGES if language != SOURCE]
#: the keywords scripts/translations extracts (Python, templates, the pages' scripts)
KEYWORDS = {
    "_": None,
    "N_": None,
    "Text": None,
    "ngettext": (1, 2),
    "t": None,
    "tn": (1, 2),
    "tNodes": None,
}
PLACEHOLDER = re.compile(r"%\((\w+)\)[a-z]")


def code_msgids() -> dict[str, str | None]:
    """Every msgid in the code as it is now (extracted afresh, as ``scripts/translations``
    does), with its plural msgid if it has one."""
    with open(ROOT / "babel.cfg") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: dict[str, str | None] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        if isinstance(message, tuple):
            found[message[0]] = message[1]
        elif message:
            found[message] = None
    return found


def catalogue(language: str) -> object:
    with open(LOCALE / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po, locale=language)


@pytest.fixture(scope="module")
def msgids() -> dict[str, str | None]:
    return code_msgids()


def test_the_code_has_the_texts_of_every_part(msgids: dict[str, str | None]) -> None:
    """The extraction sees templates, scripts, the server and the games (a msgid of each)."""
    for text in (
        "Start the game",  # lobby.html
        "Your move (%(colour)s): %(what)s.",  # status.js
        "the game is over",  # the server's refusal
        "choose a man to move",  # Morris's status text
        "Draw by %(reason)s.",  # Outcome.explain
    ):
        assert text in msgids
    assert msgids["%(num)s move"] == "%(num)s moves"


def variable_texts() -> Iterator[tuple[str, str]]:
    """Each text the code translates from a variable (``_(name)``, ``Text(name)``: the
    sides, the endings, the games' and rule sets' titles, summaries, descriptions, status
    texts, settings and pieces, the computer levels, the lessons, the refusals and reasons
    the server sends), where it comes from: each must be marked (``N_``) where it is
    declared, or the catalogue never sees it."""
    from ludoteca.ai.levels import levels
    from ludoteca.server.community import challenges, moderation
    from ludoteca.server.invalid import FIELDS
    from ludoteca.server.study.puzzles import REFUSALS

    for colour in Color:
        yield "a side", colour.title
    for termination in Termination:
        yield "an ending", termination.value
    for name in game_names():
        game = load(name)
        yield name, game.title
        yield name, game.summary
        yield from ((f"{name}'s option {key}", text) for key, text in game.options.items())
        for key, words in game.setting_words.items():
            yield from ((f"{name}'s setting {key}", text) for text in words_of(words))
        for definition in game.rule_sets:
            rules = load(name, definition.name)
            where = f"{name}'s rule set {definition.name}"
            for text in (definition.description, definition.title, definition.label, rules.title):
                yield where, text
            yield from ((where, text) for text in rules.status_texts.values())
            yield from ((where, style.name) for style in rules.board.styles.values())
            for level in levels(rules.rules):
                yield where, level.name
                yield where, level.description
        for lesson in game.lessons():
            yield f"{name}'s lesson {lesson.key}", lesson.title
            yield f"{name}'s lesson {lesson.key}", lesson.intro
            for step in lesson.steps:
                for text in (step.ask, step.hint, step.explain, step.wrong):
                    yield f"{name}'s lesson {lesson.key}", text
    for where, texts in (
        ("a challenge's reasons", challenges.REASONS.values()),
        ("a report's reasons", moderation.REASONS.values()),
        ("a request's fields", FIELDS.values()),
        ("a puzzle's refusals", REFUSALS.values()),
    ):
        yield from ((where, text) for text in texts)


def words_of(words: object) -> tuple[str, ...]:
    """The texts a setting's words (:class:`ludoteca.core.SettingWords`) are made of."""
    return tuple(getattr(words, name) for name in ("on", "off", "value"))


def test_every_text_translated_from_a_variable_is_marked(msgids: dict[str, str | None]) -> None:
    """Each of :func:`variable_texts` (but the empty ones: nothing said) is a msgid of the
    code, so marked where it is declared: the pages would show it in English in every
    language otherwise (tests/web/test_browser_i18n.py finds what the pages show that is not the
    catalogue's)."""
    unmarked = sorted({(w, t) for w, t in variable_texts() if t and t not in msgids})
    assert not unmarked, unmarked


@pytest.mark.parametrize("language", SHIPPED)
def test_every_text_of_the_code_is_translated(language: str, msgids: dict[str, str | None]) -> None:
    """Each msgid in the code has a translation (every plural form of it) in the language."""
    translated = {}
    for message in catalogue(language):  # type: ignore[attr-defined]
        if not message.id:
            continue
        key = message.id[0] if message.pluralizable else message.id
        forms = message.string if message.pluralizable else (message.string,)
        same = forms[0] == key and key not in SAME_AS_ENGLISH[language]  # English left in
        translated[key] = all(forms) and "fuzzy" not in message.flags and not same
    missing = sorted(m for m in msgids if not translated.get(m))
    assert not missing, f"{len(missing)} texts untranslated in {language}: {missing[:10]}"


@pytest.mark.parametrize("language", SHIPPED)
def test_the_translations_listed_as_the_english_text_still_are(language: str) -> None:
    """Each message listed as deliberately the same as English (names, placeholders) is in the
    catalogue and still translated so: a list that cannot rot."""
    strings = {
        (m.id[0] if m.pluralizable else m.id): (m.string[0] if m.pluralizable else m.string)
        for m in catalogue(language)  # type: ignore[attr-defined]
        if m.id
    }
    stale = sorted(m for m in SAME_AS_ENGLISH[language] if strings.get(m) != m)
    assert not stale, f"listed as the English text in {language} but not: {stale}"


@pytest.mark.parametrize("language", SHIPPED)
def test_translations_keep_the_placeholders(language: str) -> None:
    """A translation has exactly its msgid's placeholders (a plural form may leave out the
    number, as in Arabic's "one" and "two": the form says it)."""
    for message in catalogue(language):  # type: ignore[attr-defined]
        if not message.id:
            continue
        if message.pluralizable:
            wanted = set(PLACEHOLDER.findall(message.id[0])) | set(
                PLACEHOLDER.findall(message.id[1])
            )
            for form in message.string:
                found = set(PLACEHOLDER.findall(form))
                assert found - {"num"} == wanted - {"num"}, (message.id, form)
        else:
            found = set(PLACEHOLDER.findall(message.string))
            assert found == set(PLACEHOLDER.findall(message.id)), (message.id, message.string)
            assert message.string.count("%%") == message.id.count("%%"), message.id


@pytest.mark.parametrize("language", SHIPPED)
def test_plural_forms_follow_the_language(language: str) -> None:
    """Each plural message has as many forms as the language's rule (CLDR, via Babel) has
    categories, and the header says the same rule."""
    rule = get_plural(language)
    entries = catalogue(language)
    assert entries.num_plurals == rule.num_plurals  # type: ignore[attr-defined]
    plurals = [m for m in entries if m.id and m.pluralizable]  # type: ignore[attr-defined]
    assert plurals
    for message in plurals:
        assert len(message.string) == rule.num_plurals, message.id


def test_plurals_in_use() -> None:
    """The forms chosen for numbers: independent facts of each language's grammar."""
    with use("de"):
        assert ngettext("%(num)s move", "%(num)s moves", 1) == "1 Zug"
        assert ngettext("%(num)s move", "%(num)s moves", 2) == "2 Züge"
    with use("fr"):  # French counts 0 and 1 as singular
        assert ngettext("%(num)s move", "%(num)s moves", 0) == "0 coup"
        assert ngettext("%(num)s move", "%(num)s moves", 5) == "5 coups"
    with use("ar"):  # Arabic: "two" has a form of its own, 3-10 another, 11-99 another
        two, few, many = (ngettext("%(num)s move", "%(num)s moves", n) for n in (2, 3, 11))
        assert two == "نقلتان"
        assert few == "3 نقلات"
        assert many == "11 نقلة"


@pytest.mark.parametrize("language", SHIPPED)
def test_compiled_catalogues_match_the_translators_files(language: str) -> None:
    """The committed .mo file is the .po file compiled (``scripts/translations compile``)."""
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(language))  # type: ignore[arg-type]
    committed = (LOCALE / language / "LC_MESSAGES" / "messages.mo").read_bytes()
    assert _entries(compiled.getvalue()) == _entries(committed)


def _entries(mo: bytes) -> dict[object, str]:
    import gettext

    return dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("cookie", "header", "expected"),
    [
        (None, None, "en"),
        (None, "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        (None, "sv, de;q=0.5, es;q=0.9", "es"),  # the first shipped one by preference
        (None, "ar-MA", "ar"),
        (None, "sv-FI, ko", "en"),  # none shipped
        (None, "de;q=0, fr;q=0.1", "fr"),  # q=0: not acceptable
        (None, "garbage;;q=x, de", "de"),
        ("es", "fr", "es"),  # the switcher's choice first
        ("xx", "de", "de"),  # an unknown cookie is ignored
    ],
)
def test_the_language_of_a_request(cookie: str | None, header: str | None, expected: str) -> None:
    assert negotiate(cookie, header) == expected


def test_texts_outside_a_request_are_english_and_lazy_texts_follow_the_language() -> None:
    outcome = Outcome(Termination.RESIGNATION, Color.BLACK)
    assert outcome.explain() == "Black wins: resignation."
    with use("fr"):
        assert outcome.explain() == "Les Noirs gagnent : abandon."
        assert i18n.direction() == "ltr"
    with use("ar"):
        assert i18n.direction() == "rtl"
    lazy = Text("%(point)s is occupied", point="d6")
    assert str(lazy) == "d6 is occupied"
    with use("de"):
        assert str(lazy) == "d6 ist besetzt"
        assert _("the game is over") == "die Partie ist vorbei"


def test_a_refused_move_reads_in_the_players_language() -> None:
    """The engine's reason, made while a French request is served, is French."""
    state = load("morris").new()
    with use("fr"), pytest.raises(ValueError) as refused:
        state.push("a1-a4")
    assert "Les Blancs ont encore des pions en main et doivent en poser un" in str(refused.value)


def test_the_flying_notice_in_french() -> None:
    """One side flying (French), then both (the plural form, the names joined as German
    joins them)."""
    one = load("morris").from_position_code("W.W/.B./.../.....W/.../B../BB. w 0 0 0 40")
    with use("fr"):
        assert one.notice() == (
            "Les Blancs n'ont plus que trois pions et peuvent sauter "
            "sur n'importe quel point libre."
        )
    both = load("morris").from_position_code("W.W/.B./.../.....W/.../B../B.. w 0 0 0 40")
    assert both.notice() == "White and Black have three men left and may fly to any empty point."
    with use("de"):
        assert both.notice() == (
            "Weiß und Schwarz haben nur noch drei Steine "
            "und dürfen auf jeden freien Punkt springen."
        )


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        Settings(db=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", workers=1, warm=False)
    )
    with TestClient(app) as client:
        yield client


def test_a_server_message_and_a_status_text_come_out_in_french(app_client: TestClient) -> None:
    french = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
    refused = app_client.post(
        "/api/games",
        json={"game": "morris", "opponent": "computer", "colour": "mauve"},
        headers=french,
    )
    assert refused.status_code == 400
    assert refused.json()["error"] == "la couleur est white, black ou random, pas 'mauve'"
    made = app_client.post(
        "/api/games",
        json={"game": "morris", "opponent": "hotseat", "colour": "white"},
        headers=french,
    ).json()
    view = app_client.get(f"/api/games/{made['id']}", headers=french).json()
    assert view["texts"]["place"] == "choisissez un point où poser un pion"
    assert view["title"] == "Jeu du moulin"
    assert view["board"]["styles"]["w"]["name"] == "pion"
    english = app_client.get(f"/api/games/{made['id']}").json()
    assert english["texts"]["place"] == "choose a point to place a man"
    switched = app_client.get(
        "/language", params={"lang": "de", "back": "/review"}, follow_redirects=False
    )
    assert switched.status_code == 303 and switched.headers["location"] == "/review"
    page = app_client.get("/review", headers=french)  # the cookie now says German
    assert '<html lang="de" dir="ltr">' in page.text
    assert "Partienotation durchsehen" in page.text
    assert app_client.get("/language", params={"lang": "xx"}).status_code == 400


def test_a_websocket_opens_in_the_language_its_page_asks_for(app_client: TestClient) -> None:
    """A page opens its websockets with its own language in the address (Chromium sends its
    own Accept-Language when it opens a websocket, not the page's): that language wins over the
    header; an unknown one is ignored."""
    made = app_client.post("/api/games", json={"game": "morris", "opponent": "hotseat"}).json()
    english = {"Accept-Language": "en-US,en;q=0.9"}

    def place_text(query: str) -> str:
        with app_client.websocket_connect(f"/ws/games/{made['id']}{query}", headers=english) as ws:
            ws.send_json({"type": "hello"})
            state = ws.receive_json()
            assert state["type"] == "state"
            return str(state["texts"]["place"])

    assert place_text("?lang=fr") == "choisissez un point où poser un pion"
    assert place_text("?lang=xx") == place_text("") == "choose a point to place a man"


def test_the_scripts_catalogue(app_client: TestClient) -> None:
    arabic = app_client.get("/i18n/ar.json").json()
    assert arabic["dir"] == "rtl"
    assert arabic["tags"] == ["zero", "one", "two", "few", "many", "other"]
    assert arabic["messages"]["Resign"] == "استسلم"
    assert len(arabic["plurals"]["%(num)s move"]) == 6
    assert app_client.get("/i18n/klingon.json").status_code == 404


def test_a_rule_sets_title_says_its_settings_in_the_readers_language() -> None:
    """Each setting that differs from its rule set's default, in the title's language (the
    separator too)."""
    assert load("morris:flying=false,move_rule=50").rules_title == (
        "Nine Men's Morris (no flying, move rule 50)"
    )
    with use("fr"):
        assert load("felli:multi_capture").rules_title == "Felli (prise multiple)"
        assert load("morris:flying=false,move_rule=50").rules_title == (
            "Jeu du moulin (sans saut libre, règle des coups : 50)"
        )
        assert load("felli:mullah,repetition=0").rules_title == (
            "Felli (avec Mollahs, sans nulle par répétition)"
        )
    with use("ar"):
        assert load("felli:forced_capture,multi_capture").rules_title == (
            "فيلي (الأخذ الإلزامي، الأخذ المتعدد)"
        )


#: what a spec changes beside the setting it tries, where the title would not say it otherwise:
#: a custom mill game with a three men rule is no named rule set (it would be one); its board of
#: 16 points holds at most 8 men a side, a full board's action needs men that fill the board
WITH = {
    ("morris-custom", ""): "three_men_rule=1,",
    ("morris-custom", "board"): "three_men_rule=1,men=6,",
    ("morris-custom", "full_board"): "three_men_rule=1,men=12,",
}


def test_every_setting_of_every_rule_set_has_translated_words() -> None:
    """A title with any one setting changed (true and false, a number and 0, each value of a
    setting of a few, each other choice) says the setting's words, and in French none of them; a
    value that makes no game is skipped, but every setting is said with one value at least."""
    for name in game_names():
        game = load(name)
        for definition in game.rule_sets:
            for key, default in definition.defaults.items():
                words = game.setting_words[key]
                values: list[bool | int | str]
                if isinstance(default, str):
                    values = [c for c in words.values if c != default]
                else:
                    values = [v for v in words.values if v != default] or (
                        [not default] if isinstance(default, bool) else [0, default + 1]
                    )
                said = 0
                for value in values:
                    if value == default:
                        continue
                    beside = WITH.get((definition.name, key), WITH.get((definition.name, "")))
                    spec = f"{definition.name}:{beside or ''}{key}={str(value).lower()}"
                    try:
                        english = load(spec).rules_title
                    except InvalidRulesError:
                        continue  # (a custom mill game's 0 men a side)
                    with use("fr"):
                        french = load(spec).rules_title
                    said_so = words.say(value)
                    assert said_so in english, (spec, english)
                    assert said_so not in french, (spec, english, french)
                    said += 1
                assert said, (definition.name, key)


def test_a_malformed_request_is_refused_in_the_readers_language(app_client: TestClient) -> None:
    """Validation errors are the catalogue's sentences, not pydantic's English."""
    too_long = app_client.post(
        "/api/signup",
        json={"name": "x" * 41, "password": "a long password"},
        headers={"Accept-Language": "fr"},
    )
    assert too_long.status_code == 400
    assert too_long.json()["error"] == "requête incorrecte : nom : 40 caractères au plus"
    arabic = app_client.post(
        "/api/games",
        json={"game": "morris", "opponent": "alien", "name": "x" * 70},
        headers={"Accept-Language": "ar"},
    )
    assert arabic.json()["error"] == (
        "طلب غير صالح: الخصم: إحدى القيم computer، hotseat، online؛ الاسم: 64 حرفًا على الأكثر"
    )
    english = app_client.post("/api/signup", json={"name": "x" * 41, "password": "p" * 9})
    assert english.json()["error"] == "bad request: name: at most 40 characters"


@pytest.mark.parametrize(
    ("message", "french"),
    [
        (
            {"type": "chat", "room": "players", "text": "x" * 1001},
            "texte : 1000 caractères au plus",
        ),
        (
            {"type": "chat", "room": "kitchen", "text": "hi"},
            "salon : une des valeurs players, spectators",
        ),
        ({"type": "move", "move": "d6"}, "demi-coup : obligatoire"),
        ({"type": "move", "move": "d6", "ply": "x"}, "demi-coup : un nombre entier est attendu"),
        ({"type": "teleport"}, "type : teleport est inconnu (connus : hello, move, resign,"),
        ([1], "requête : un objet JSON est attendu"),
    ],
)
def test_a_malformed_websocket_message_is_refused_in_french(message: object, french: str) -> None:
    with use("fr"), pytest.raises(ActionError) as refused:
        read_message(orjson.dumps(message).decode(), Message, 10_000, "{}")
    assert refused.value.message.startswith("requête incorrecte : " + french)


def test_a_bad_record_position_or_game_is_refused_in_the_readers_language(
    app_client: TestClient,
) -> None:
    """The engine's sentences on a malformed record (worked out in the analysis process, told
    the language), an impossible position code and an unknown game read in the requester's
    language."""
    record = workers.record_line('[Game "morris"]\n\n1. a7 a7 *\n', "fr")
    assert record == {"error": "ligne 3 : demi-coup 2 (a7) : a7 : a7 est occupé"}
    position = app_client.post(
        "/api/games",
        json={"game": "felli", "opponent": "hotseat", "position": "bbb/www w 0 0"},
        headers={"Accept-Language": "fr"},
    )
    assert position.status_code == 400
    assert position.json()["error"] == (
        "le champ du plateau demande 5 rangées de la rangée 5 vers le bas, de 3,3,1,3,3 "
        "points : 'bbb/www'"
    )
    game = app_client.post("/api/games", json={"game": "chess"}, headers={"Accept-Language": "ar"})
    assert game.json()["error"] == "لعبة غير معروفة 'chess' (المعروفة: morris, felli, morelli)"


def test_the_puzzles_themes_read_in_the_readers_language(app_client: TestClient) -> None:
    """The themes of the shipped puzzles are offered in the reader's words."""
    sets = app_client.get("/api/puzzles/sets", headers={"Accept-Language": "fr"}).json()
    themes = {name: words for s in sets for name, words in s["themes"].items()}
    assert themes["mill"] == "moulin" and themes["quiet move"] == "coup tranquille"
    assert themes["capture chain"] == "prise en chaîne" and themes["frame"] == "cadre"
    arabic = app_client.get("/api/puzzles/sets", headers={"Accept-Language": "ar"}).json()
    assert {n: w for s in arabic for n, w in s["themes"].items()}["mill"] == "طاحونة"


def test_the_explorers_values_are_worded_for_each_reader() -> None:
    """The explorer keeps its moves' values in no language and words them for each reader: an
    exact draw, and a search's score (for Black, who plays the move) on White's bar."""
    draw: MoveScore = {"score": 0, "exact": True}
    assert worded(draw, Color.WHITE).bar == "Draw"
    with use("fr"):
        assert worded(draw, Color.WHITE).model_dump() == {
            **draw,
            "bar": "Nulle",
            "text": "une nulle avec le meilleur jeu",
        }
        better = worded({"score": 150, "exact": False}, Color.BLACK)
        assert (better.bar, better.text) == (
            "-1,5",
            "les Noirs sont mieux",
        )  # a French decimal comma
    with use("ar"):
        assert worded(draw, Color.BLACK).bar == "تعادل"
