"""The Mill Interchange Format's game records (``MSTATE/1.0``, MIF 1.0, clause 9;
github.com/calcitem/mill-interchange-format, the format of Sanmill and NMM_LLM), read into native
records and written from them.

An MSTATE is one JSON object: the ruleset (an MRS manifest, :mod:`.mrs`, embedded in
``portable`` mode or named by its digest in ``reference`` mode), the ``origin`` position (an MFEN
line), the ``events`` (``place``, ``move``, ``remove``, draw offers, ``resign``, ``adjudicate``),
the ``current`` position the events lead to, the repetition history and the draw-offer audit.
Reading finds our rule set of the manifest (:func:`.mrs.rules_of`, naming the options we do not
play), joins a board ``remove`` to the ``place``/``move`` before it where that move closed a mill
(our moves carry their removal: ``d6xg7``; replay decides, :func:`.actions.awaits_removal`),
reads any other board ``remove`` as a removal alone (``xg7``, a turn of its own: the second of a
double mill, a full board's, the mill counts'), checks the ``remove`` events from the opponent's
hand a placement's mill brings (Dooz), replays every move through our engine (a bad one named by
its event: ``event 7 (/events/6, place d6): ...``) and checks that the moves lead to ``current``
(with removals due, its obligations: :meth:`_Tracker.obligations`).  Writing gives the
``portable`` form with our manifest, the repetition history and a draw agreement's audit; our
tags and comments travel in ``annotations`` (non-semantic in MIF), so a record comes back as it
went.  Only games from the normal start are held; variations and marks are not written.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ...core import (
    Color,
    InvalidRecordError,
    LudotecaError,
    Outcome,
    RuleSet,
    State,
    Termination,
)
from ...i18n import Text
from ...record import GameRecord, build
from .. import family, load
from . import mrs
from .actions import actions, awaits_removal
from .board import bits

__all__ = ["detect", "dumps", "loads"]

FORMAT = "MSTATE/1.0"
STATE_PROFILE = "mill24-state-v1"
#: the points of an MFEN board, ring by ring (Annex A)
POINT_ORDER = "a7 d7 g7 g4 g1 d1 a1 a4 b6 d6 f6 f4 f2 d2 b2 b4 c5 d5 e5 e4 e3 d3 c3 c4".split()
#: our endings that MIF names (the others, a time forfeit, travel in our tags only)
REASONS = {
    Termination.FEWER_THAN_THREE: "fewer-than-minimum",
    Termination.FULL_BOARD: "board-full",
    Termination.THREEFOLD_REPETITION: "repetition",
    Termination.MOVE_RULE: "no-progress",
    Termination.THREE_MEN_RULE: "no-progress",
    Termination.RESIGNATION: "resignation",
    Termination.DRAW_AGREED: "agreement",
}
_OURS = "ludoteca"  # our member of the annotations
_FOREIGN = "MIF_"  # the prefix of the tags that keep another program's text annotations
_RESULTS = {"w": "1-0", "b": "0-1", "d": "1/2-1/2"}
_DETECT_RE = re.compile(r'"format"\s*:\s*"MSTATE/')


def detect(text: str) -> bool:
    """Whether ``text`` looks like an MSTATE: a JSON object whose ``format`` is an MSTATE's."""
    return text.lstrip("\ufeff \t\r\n").startswith("{") and bool(_DETECT_RE.search(text))


# --- positions --------------------------------------------------------------------------------
class _Tracker:
    """A game replayed with what an MFEN needs and our state does not keep: the delayed-removal
    tokens (a man a mill marks while placing, with its former owner, ``w`` or ``b``; MIF keeps
    them until placing ends, after the removals the last placement's mill brings too), the
    primary plies (placements and moves: a removal alone is none), whether the no-progress
    counter runs, and, while removals are due, their cause and the phase MIF keeps meanwhile
    (:meth:`obligations`)."""

    def __init__(self, state: State) -> None:
        self.state: Any = state
        self.tokens: dict[int, Color] = {}
        self.primary = 0
        settings = state.rules.settings
        #: MIF keeps the no-progress counter only while a limit is set (clause 10.5)
        self.counting = bool(settings["move_rule"] or settings.get("three_men_rule"))
        #: the cause of the removals due (MIF's ``mill``, ``mill-count`` or ``board-full``) and
        #: the phase MIF keeps while they are made
        self.cause, self.phase = "mill", "p"

    def push(self, code: int) -> None:
        state = self.state
        variant = state.variant
        mover = state.turn
        other = Color(1 - mover)
        placing = bool(state.hand[0] or state.hand[1] or state.closing)
        phase = "p" if state.hand[mover] else "m"
        before = state.men[other]
        move = state.move_of(code)
        state.push_code(code)
        if variant.marking and placing:
            for point in bits(before & ~state.men[other]):
                self.tokens[point] = other
        ended = placing and not (state.hand[0] or state.hand[1] or state.closing)
        if ended:
            self.tokens.clear()  # MIF's global placing boundary clears the tokens
        if not move.removal_only:
            self.primary += 1
            self.cause, self.phase = "mill", phase
        if ended and state.due[state.turn]:
            self.cause = "mill-count" if variant.mill_counts else "board-full"
            self.phase = "m"

    def board(self) -> str:
        state = self.state
        index = state.board.index
        chars = []
        for name in POINT_ORDER:
            p = index[name]
            if state.men[0] >> p & 1:
                chars.append("W")
            elif state.men[1] >> p & 1:
                chars.append("B")
            elif p in self.tokens:
                chars.append("wb"[self.tokens[p]])
            else:
                chars.append(".")
        text = "".join(chars)
        return f"{text[:8]}/{text[8:16]}/{text[16:]}"

    def observation(self, semantic_digest: str) -> dict[str, Any]:
        """The ``repetition-observation-v1`` key of the position (clause 12.1)."""
        state = self.state
        phase = "p" if state.hand[state.turn] else "m"
        return {
            "profile": "repetition-observation-v1",
            "stateProfile": STATE_PROFILE,
            "semanticDigest": semantic_digest,
            "board": self.board(),
            "side": "wb"[state.turn],
            "phase": phase,
            "action": phase,
            "hands": [state.hand[0], state.hand[1]],
            "semantic": {},
        }

    def mfen(self, outcome: str | None = None) -> str:
        """The position's canonical MFEN; ``outcome`` (``w:resignation`` …) ends it, else the
        board's own ending does, else it goes on."""
        state = self.state
        if outcome is None and (ended := state.outcome()) is not None:
            outcome = _outcome(state, ended)
        obligations = "-"
        if outcome is not None:
            turn = "- o o"
        elif state.due[state.turn]:
            obligations = self.obligations()
            turn = f"{'wb'[state.turn]} {self.phase} r"
        else:
            phase = "p" if state.hand[state.turn] else "m"
            turn = f"{'wb'[state.turn]} {phase} {phase}"
        hands = f"{state.hand[0]},{state.hand[1]}"
        return (
            f"MFEN/1.0 {STATE_PROFILE} {self.board()} {turn} {hands} {obligations} "
            f"{state.quiet if self.counting else 0} {self.primary} {outcome or '-'}"
        )

    def obligations(self) -> str:
        """The MFEN obligations of the removals due (clause 6.4): the side to move's, then the
        other side's if it has some (a full board's or the mill counts' removals, both sides'),
        each ``actor:cause:b:owner:count:targets:after``, the head's targets the points it may
        take (a bit set in MIF's point order), a later one's ``~``; after the last, the player
        who moves then (the first mover after both removed, else the other player)."""
        state = self.state
        mover = state.turn
        sides = [mover, Color(1 - mover)] if state.due[1 - mover] else [mover]
        names = state.board.points
        targets = sum(
            1 << POINT_ORDER.index(names[state.move_of(code).dst]) for code in state.legal_codes()
        )
        records = []
        for number, side in enumerate(sides):
            due = state.due[side]
            owner = side if due < 0 else 1 - side
            spot = f"{targets:06x}" if number == 0 else "~"
            after = "q" if number + 1 < len(sides) else "wb"[mover if len(sides) > 1 else 1 - mover]
            records.append(f"{'wb'[side]}:{self.cause}:b:{'wb'[owner]}:{abs(due)}:{spot}:{after}")
        return ";".join(records)


def _outcome(state: Any, ended: Outcome) -> str | None:
    """The MFEN outcome of an ending on the board, ``None`` for one MIF does not name."""
    if ended.termination is Termination.NO_LEGAL_MOVES:
        reason = "no-legal-primary-action" if state.hand[state.turn] else "no-legal-move"
    elif ended.termination in REASONS:
        reason = REASONS[ended.termination]
    else:
        return None
    return f"{'d' if ended.winner is None else 'wb'[ended.winner]}:{reason}"


# --- writing ----------------------------------------------------------------------------------
def dumps(record: GameRecord) -> str:
    """The record of a game of the mill family as an MSTATE (portable: our manifest embedded);
    :class:`InvalidRecordError` for a game it cannot hold (a board without 24 points, a set-up
    start)."""
    rules = record.state.rules
    manifest = mrs.manifest(rules)
    semantic = mrs.digest(mrs.projection(manifest))
    start = record.start()
    if start.position_code() != start.game.new().position_code():
        raise InvalidRecordError(
            Text("a game from a set-up position cannot be written as a MIF record")
        )
    track = _Tracker(start)
    repeating = bool(rules.settings["repetition"])
    window: list[dict[str, Any]] = (
        [{"source": "origin", "key": track.observation(semantic)}] if repeating else []
    )
    origin = track.mfen()
    events: list[dict[str, Any]] = []
    comments = record.comments
    for number, move in enumerate(record.state.moves, start=1):
        mover = track.state.turn
        actor = "wb"[mover]
        for index, text in enumerate(actions(str(move))):
            event: dict[str, Any] = {"seq": len(events) + 1, "actor": actor}
            if text.startswith("x"):
                event |= {"type": "remove", "target": {"zone": "board", "at": text[1:]}}
            elif "-" in text:
                source, destination = text.split("-")
                event |= {"type": "move", "from": source, "to": destination}
            else:
                event |= {"type": "place", "at": text}
            if index == 0 and number in comments:
                event["annotations"] = {"comment": comments[number]}
            events.append(event)
        hand = track.state.hand[1 - mover]
        track.push(move.code)
        for _ in range(hand - track.state.hand[1 - mover]):  # taken from the opponent's hand
            target = {"zone": "hand", "player": "wb"[1 - mover]}
            events.append(
                {"seq": len(events) + 1, "actor": actor, "type": "remove", "target": target}
            )
        if move.src is None or move.remove is not None:  # type: ignore[attr-defined]
            window = []  # a placement or a removal resets the repetition window
        ended = track.state.outcome()
        if ended is None:
            observed = not track.state.due[track.state.turn]  # never while removals are due
        else:
            observed = ended.termination in (
                Termination.THREEFOLD_REPETITION,
                Termination.MOVE_RULE,
                Termination.THREE_MEN_RULE,
            )
        if repeating and observed:
            key = track.observation(semantic)
            window.append({"source": "event", "eventSeq": len(events), "key": key})
    outcome, claims = _ending(record, track, events)
    tags = {name: value for name, value in record.tags.items() if name not in ("Game", "Rules")}
    ours: dict[str, Any] = {"tags": {k: v for k, v in tags.items() if not k.startswith(_FOREIGN)}}
    if 0 in comments:
        ours["comment"] = comments[0]
    annotations: dict[str, Any] = {
        name[len(_FOREIGN) :]: value for name, value in tags.items() if name.startswith(_FOREIGN)
    }
    annotations[_OURS] = ours
    document = {
        "format": FORMAT,
        "positionFormat": "MFEN/1.0",
        "stateProfile": STATE_PROFILE,
        "ruleset": {
            "mode": "portable",
            "id": manifest["id"],
            "version": manifest["version"],
            "semanticDigest": semantic,
            "documentDigest": mrs.digest(manifest),
            "manifest": manifest,
        },
        "origin": origin,
        "events": events,
        "current": track.mfen(outcome),
        "repetitionHistory": window,
        "preOriginClaims": [],
        "claims": claims,
        "annotations": annotations,
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _ending(
    record: GameRecord, track: _Tracker, events: list[dict[str, Any]]
) -> tuple[str | None, list[dict[str, Any]]]:
    """The events of an ending off the board (a resignation, a draw agreed) appended to
    ``events``; its MFEN outcome and the draw-offer audit."""
    if track.state.outcome() is not None:
        return None, []
    if record.termination is Termination.RESIGNATION and record.result in ("1-0", "0-1"):
        loser = "b" if record.result == "1-0" else "w"
        events.append({"seq": len(events) + 1, "actor": loser, "type": "resign"})
        return f"{'wb'[loser == 'w']}:resignation", []
    if record.termination is Termination.DRAW_AGREED:
        offerer = "wb"[track.state.turn]
        other = "wb"[1 - track.state.turn]
        offer = len(events) + 1
        events.append({"seq": offer, "actor": offerer, "type": "offer-draw"})
        events.append(
            {"seq": offer + 1, "actor": other, "type": "accept-draw", "offerEventSeq": offer}
        )
        audit = {
            "source": "event",
            "actor": offerer,
            "eventSeq": offer,
            "kind": "draw-offer",
            "status": "accepted",
            "resolvedEventSeq": offer + 1,
        }
        return "d:agreement", [audit]
    return None, []


# --- reading ----------------------------------------------------------------------------------
def loads(text: str, rules: str | None = None) -> GameRecord:
    """The native record of an MSTATE, every move replayed by our engine.

    ``rules`` (a rule-set spec), when given, must be the one the record's manifest describes.
    :class:`InvalidRecordError` names what is wrong: bad JSON, another format, a ruleset whose
    digests do not match or whose options Ludoteca does not play (named), a set-up origin, an
    event that is not legal (its number and place), or moves that do not lead to ``current``."""
    document = _json(text)
    ruleset = _ruleset(document)
    if rules is not None and str(load(rules).rules) != str(ruleset):
        raise InvalidRecordError(
            Text(
                "the MIF record is played under %(ours)s, not %(rules)s",
                ours=repr(str(ruleset)),
                rules=repr(rules),
            )
        )
    track = _Tracker(load(str(ruleset)).new())
    if document.get("origin") != track.mfen():
        raise InvalidRecordError(
            Text(
                "MIF records that start from a set-up position are not supported "
                "(origin %(origin)s)",
                origin=repr(document.get("origin")),
            )
        )
    words, ending = _replay(track, document.get("events"))
    annotations = document.get("annotations")
    ours = annotations.get(_OURS) if isinstance(annotations, dict) else None
    if isinstance(ours, dict) and isinstance(ours.get("comment"), str):
        words.insert(0, _comment(ours["comment"]))
    expected = track.mfen(ending[2] if ending else None)
    if document.get("current") != expected:
        raise InvalidRecordError(
            Text(
                "the MIF record's current position %(current)s is not where its events lead "
                "(%(expected)s)",
                current=repr(document.get("current")),
                expected=repr(expected),
            )
        )
    tags = _tags(document)
    if ending:
        tags["Result"] = ending[0]
        tags.pop("Termination", None)
        if ending[1] is not None:
            tags["Termination"] = ending[1].label
    return build(
        {"Game": "morris", "Rules": str(ruleset), **tags}, [(1, " ".join(words))], open_result=True
    )


def _json(text: str) -> dict[str, Any]:
    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        names = [name for name, _ in pairs]
        if len(set(names)) != len(names):
            raise InvalidRecordError(Text("the MIF record repeats a member name"))
        return dict(pairs)

    try:
        document = json.loads(text.lstrip("\ufeff"), object_pairs_hook=unique)
    except json.JSONDecodeError as error:
        raise InvalidRecordError(
            Text("the MIF record is not JSON: %(error)s", error=str(error))
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else None
        raise InvalidRecordError(
            Text(
                "a MIF record is an %(format)s object, not %(found)s",
                format=FORMAT,
                found=repr(found),
            )
        )
    for name, value in (("positionFormat", "MFEN/1.0"), ("stateProfile", STATE_PROFILE)):
        if document.get(name) != value:
            raise InvalidRecordError(
                Text(
                    "the MIF record's %(name)s is %(found)s; Ludoteca reads %(value)s",
                    name=name,
                    found=repr(document.get(name)),
                    value=value,
                )
            )
    return document


def _ruleset(document: dict[str, Any]) -> RuleSet:
    """Our rule set of the record's ruleset envelope (clause 8.1): a portable manifest checked
    against both digests, or a reference resolved among our rule sets' manifests."""
    envelope = document.get("ruleset")
    if not isinstance(envelope, dict):
        raise InvalidRecordError(Text("the MIF record has no ruleset"))
    manifest = envelope.get("manifest")
    if envelope.get("mode") == "portable" and isinstance(manifest, dict):
        for name, value in (
            ("documentDigest", mrs.digest(manifest)),
            ("semanticDigest", mrs.digest(mrs.projection(manifest))),
        ):
            if envelope.get(name) != value:
                raise InvalidRecordError(
                    Text(
                        "the MIF ruleset's %(name)s %(found)s does not match its manifest "
                        "(%(value)s)",
                        name=name,
                        found=repr(envelope.get(name)),
                        value=value,
                    )
                )
        if manifest.get("format") != "MRS/1.0" or (manifest.get("id"), manifest.get("version")) != (
            envelope.get("id"),
            envelope.get("version"),
        ):
            raise InvalidRecordError(Text("the MIF ruleset's manifest is not the one it names"))
        return mrs.rules_of(manifest)
    if envelope.get("mode") == "reference":
        for ruleset, ours in _family_rules():
            if mrs.digest(mrs.projection(ours)) == envelope.get("semanticDigest"):
                return ruleset
        raise InvalidRecordError(
            Text(
                "the MIF ruleset %(ruleset)s is named by reference and is none of Ludoteca's; "
                "export the record with its manifest (portable mode)",
                ruleset=repr(f"{envelope.get('id')}@{envelope.get('version')}"),
            )
        )
    raise InvalidRecordError(Text("the MIF record's ruleset is neither portable nor a reference"))


def _family_rules() -> list[tuple[RuleSet, dict[str, Any]]]:
    """Our named rule sets of the mill family that MIF can hold, with their default settings,
    each with its manifest (those :func:`.mrs.manifest` writes: 24 points, none of the rules
    it refuses)."""
    found = []
    for name in family("morris").rule_set_names():
        rules = load(name).rules
        try:
            found.append((rules, mrs.manifest(rules)))
        except InvalidRecordError:
            continue
    return found


def _replay(
    track: _Tracker, events: Any
) -> tuple[list[str], tuple[str, Termination | None, str] | None]:
    """Play the events on ``track``: the movetext words (moves and comments) and the ending off
    the board (result, termination, MFEN outcome) if one came.  A ``place``/``move`` takes
    the board ``remove`` after it into our move when every legal form of it takes a man
    (:func:`.actions.awaits_removal`), and the hand ``remove`` events of the men its mill takes
    from the opponent's hand; any other board ``remove`` is a removal alone (``xd2``), played
    as our engine allows it."""
    if not isinstance(events, list):
        raise InvalidRecordError(Text("the MIF record's events are not a list"))
    words: list[str] = []
    ending: tuple[str, Termination | None, str] | None = None
    index = 0
    while index < len(events):
        event = events[index]
        where = _where(index, event)
        if not isinstance(event, dict) or event.get("seq") != index + 1:
            raise InvalidRecordError(Text("%(where)s: events are numbered 1, 2, 3 …", where=where))
        kind = event.get("type")
        if ending is not None and kind not in ("offer-draw", "decline-draw", "withdraw-draw"):
            raise InvalidRecordError(Text("%(where)s: the game has already ended", where=where))
        if kind not in ("place", "move", "remove"):
            ending = _off_board(event, kind, where)
            index += 1
            continue
        mover = track.state.turn
        hand = track.state.hand[1 - mover]
        text = _action(event, where)
        index += 1
        if not text.startswith("x") and awaits_removal(track.state, text) and index < len(events):
            removal = events[index]
            if isinstance(removal, dict) and removal.get("type") == "remove":
                text += _action(removal, _where(index, removal), event.get("actor"))
                index += 1
        words.append(_play(track, text, event, where))
        if isinstance(event.get("annotations"), dict) and "comment" in event["annotations"]:
            words.append(_comment(str(event["annotations"]["comment"])))
        index = _hand_removals(track, mover, hand, events, index, where)
    return words, ending


def _action(event: dict[str, Any], where: Text, joined: Any = None) -> str:
    """Our notation of a ``place`` (``d6``), ``move`` (``a1-a4``) or board ``remove``
    (``xd2``) event; ``joined``, the actor of the move a removal joins, when it does.
    :class:`InvalidRecordError` for a removal from a hand here (none is due) or one by
    another player than the move's."""
    kind = event.get("type")
    if kind == "place":
        return str(event.get("at"))
    if kind == "move":
        return f"{event.get('from')}-{event.get('to')}"
    target = event.get("target")
    if not (isinstance(target, dict) and target.get("zone") == "board"):
        raise InvalidRecordError(
            Text("%(where)s: a removal from a hand that no mill allows", where=where)
        )
    if joined is not None and event.get("actor") != joined:
        raise InvalidRecordError(
            Text("%(where)s: a removal by another player than the move's", where=where)
        )
    return f"x{target.get('at')}"


def _hand_removals(
    track: _Tracker, mover: Color, hand: int, events: list[Any], index: int, where: Text
) -> int:
    """Check the ``remove`` events from the opponent's hand that follow a move at ``index``
    (one for each man its mill took from that hand, ``hand`` the men it held before, by the
    same player); the index after them."""
    for _ in range(hand - track.state.hand[1 - mover]):
        removal = events[index] if index < len(events) else None
        target = removal.get("target") if isinstance(removal, dict) else None
        if not (
            isinstance(removal, dict)
            and removal.get("type") == "remove"
            and removal.get("seq") == index + 1
            and removal.get("actor") == "wb"[mover]
            and target == {"zone": "hand", "player": "wb"[1 - mover]}
        ):
            raise InvalidRecordError(
                Text(
                    "%(where)s: its mill takes a man from %(side)s's hand, so a removal from "
                    "that hand by the same player follows it",
                    where=where,
                    side=Text(Color(1 - mover).title),
                )
            )
        index += 1
    return index


def _comment(text: str) -> str:
    return "{" + text.replace("{", "(").replace("}", ")") + "}"


def _where(index: int, event: Any) -> Text:
    kind = event.get("type") if isinstance(event, dict) else None
    detail = ""
    if isinstance(event, dict):
        target = event.get("target")
        fields = {**event, **target} if isinstance(target, dict) else event
        detail = " ".join(str(fields[k]) for k in ("at", "from", "to", "player") if k in fields)
    return Text(
        "event %(seq)s (/events/%(index)s, %(what)s)",
        seq=index + 1,
        index=index,
        what=f"{kind} {detail}".strip(),
    )


def _play(track: _Tracker, text: str, event: dict[str, Any], where: Text) -> str:
    """Our move ``text`` (the action of ``event`` and the removal joined to it), played; its
    notation."""
    state = track.state
    if "interventionLine" in event:
        raise InvalidRecordError(
            Text("%(where)s: Ludoteca's rule sets have no intervention capture", where=where)
        )
    ended = state.outcome()
    if ended is not None:
        raise InvalidRecordError(
            Text("%(where)s: the game is over (%(outcome)s)", where=where, outcome=ended.explain())
        )
    try:
        move = state.read_move(text)
    except LudotecaError as error:
        reason = str(error)
    else:
        legal = state.legal_codes()
        if move.code in legal and event.get("actor") != "wb"[state.turn]:
            raise InvalidRecordError(
                Text("%(where)s: it is %(side)s's turn", where=where, side=Text(state.turn.title))
            )
        if move.code in legal:
            track.push(move.code)
            return str(move)
        reason = state.why_illegal(move, legal)
    raise InvalidRecordError(
        Text(
            "%(where)s: %(error)s",
            where=where,
            error=Text("%(move)s: %(reason)s", move=text, reason=reason),
        )
    )


def _off_board(
    event: dict[str, Any], kind: Any, where: Text
) -> tuple[str, Termination | None, str] | None:
    """The ending of a resignation, an accepted draw or an adjudication; ``None`` for the other
    draw-offer events; :class:`InvalidRecordError` for a draw claim (our rule sets draw by
    themselves) or an unknown event."""
    actor = event.get("actor")
    if kind in ("offer-draw", "decline-draw", "withdraw-draw"):
        return None
    if kind == "accept-draw":
        return "1/2-1/2", Termination.DRAW_AGREED, "d:agreement"
    if kind == "resign" and actor in ("w", "b"):
        winner = "b" if actor == "w" else "w"
        return _RESULTS[winner], Termination.RESIGNATION, f"{winner}:resignation"
    if kind == "adjudicate" and event.get("result") in _RESULTS:
        return _RESULTS[event["result"]], None, f"{event['result']}:adjudication"
    if kind == "claim-draw":
        message = Text(
            "%(where)s: a draw claim, but Ludoteca's rule sets draw by themselves", where=where
        )
    else:
        message = Text("%(where)s: an event Ludoteca does not read", where=where)
    raise InvalidRecordError(message)


def _tags(document: dict[str, Any]) -> dict[str, str]:
    """Our tags from the record's annotations (ours, and another program's text annotations as
    ``MIF_NAME``), the comment before the first move aside."""
    annotations = document.get("annotations")
    if not isinstance(annotations, dict):
        return {}
    tags: dict[str, str] = {}
    for name, value in annotations.items():
        if name != _OURS and isinstance(value, str) and re.fullmatch(r"[A-Za-z0-9_]+", name):
            tags[_FOREIGN + name] = value
    ours = annotations.get(_OURS)
    if isinstance(ours, dict) and isinstance(ours.get("tags"), dict):
        for name, value in ours["tags"].items():
            if name not in ("Game", "Rules") and isinstance(value, str):
                tags[name] = value
    return tags
