"""The rule sets of the mill family as MIF ruleset manifests (``MRS/1.0`` of the Mill Interchange
Format 1.0, github.com/calcitem/mill-interchange-format, ``mif-1.0.md`` clause 10), and back.

:func:`manifest` describes one of our rule sets (its settings included) as a manifest of the
``mif-finite-rules-v3`` mechanisms; :func:`rules_of` finds the rule set of ours that plays a
manifest's semantics, or raises :class:`~ludoteca.core.InvalidRecordError` naming the rule options
we do not play.  Two manifests mean the same game when their semantic projections
(:func:`projection`, clause 10.7) are equal; :func:`digest` is the format's ``sha256:`` digest of
a JSON value's RFC 8785 (JCS) bytes (:func:`jcs`).  Only the 24-point boards are expressible
(Six Men's Morris is not), and not one-time mills (MIF's ``once-per-player`` counts lines, ours
points) nor the few combinations :func:`manifest` names.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ...core import Color, InvalidRecordError, LudotecaError, RuleSet
from ...i18n import Text
from .. import family, load
from .board import NINE, TWELVE
from .custom import CUSTOM
from .rules import MorrisRules

__all__ = ["TOPOLOGIES", "digest", "jcs", "manifest", "projection", "rules_of"]

#: our 24-point boards by MIF topology (Annex A: the orthogonal board and the diagonal one)
TOPOLOGIES = {"mill24-orthogonal-v1": NINE, "mill24-diagonal-v1": TWELVE}
_ABSENT = object()
#: the repetition reset events every subset of which plays alike in our rule sets: a position
#: before a placement or a removal can never recur (a hand or a side's men only ever shrink), so
#: they change which observations a record lists, never a result
_NEUTRAL_RESETS = {"board-remove", "hand-remove", "mill-formation", "place"}
#: our ``full_board`` settings by MIF's ``boardFull.action`` (the colours, :func:`_full_board`,
#: are compared by :func:`rules_of`)
_FULL_BOARDS = {
    "draw": "draw",
    "white-loses": "first-loses",
    "active-player-removes": "first-removes",
    "white-then-black-remove": "both-remove",
    "black-then-white-remove": "both-remove",
}
_SETS = ("phases", "countedPrimaryActions", "resetEvents", "semanticState")


def jcs(value: Any) -> bytes:
    """The RFC 8785 canonical UTF-8 bytes of a JSON value: members sorted by their names' UTF-16
    code units, no white space, numbers as ECMAScript writes them."""
    return _jcs(value).encode("utf-8")


def _jcs(value: Any) -> str:
    if isinstance(value, dict):
        names = sorted(value, key=lambda name: name.encode("utf-16-be"))
        return "{" + ",".join(f"{_jcs(name)}:{_jcs(value[name])}" for name in names) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_jcs(item) for item in value) + "]"
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return _number(value)
    raise InvalidRecordError(Text("%(value)s is not a JSON value", value=repr(value)))


def _number(value: float) -> str:
    """A finite float as ECMAScript's ``Number.prototype.toString`` writes it."""
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    text = repr(value)
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    power = int(exponent)
    if -7 < power < 21:
        return format(Decimal(text), "f")
    return f"{mantissa}e{'+' if power > 0 else '-'}{abs(power)}"


def digest(value: Any) -> str:
    """``sha256:`` and the hexadecimal SHA-256 of the value's JCS bytes."""
    return "sha256:" + hashlib.sha256(jcs(value)).hexdigest()


def manifest(rules: RuleSet) -> dict[str, Any]:
    """The MRS/1.0 manifest of one of our Morris rule sets (id ``x-ludoteca-NAME``, with a
    digest suffix when its settings are not the rule set's defaults: always for a custom rule
    set), each rule in the words of the format's enumerations (:func:`_mills`,
    :func:`_full_board`, :func:`_placing_end`); :class:`InvalidRecordError` naming the rule
    for a board MIF has no topology for and for the rules it has no value for
    (:func:`_unwritable`)."""
    variant = load(str(rules)).variant  # type: ignore[attr-defined]
    topology = next((name for name, board in TOPOLOGIES.items() if board is variant.board), None)
    if topology is None:
        raise InvalidRecordError(
            Text(
                "the Mill Interchange Format holds games on 24 points, not %(rules)s",
                rules=repr(str(rules)),
            )
        )
    refused = _unwritable(variant)
    if refused is not None:
        raise InvalidRecordError(
            Text(
                "the Mill Interchange Format has no value for a rule of %(rules)s: %(rule)s",
                rules=repr(str(rules)),
                rule=refused,
            )
        )
    settings = rules.settings
    capture = {
        "enabled": False,
        "lines": {"cross": False, "diagonal": False, "squareEdges": False},
        "maximumOwnLivePieces": None,
        "phases": ["moving"],
    }
    document: dict[str, Any] = {
        "format": "MRS/1.0",
        "id": f"x-ludoteca-{rules.name}",
        "version": 1,
        "title": str(rules),
        "status": "experimental",
        "semanticsProfile": "mif-finite-rules-v3",
        "topology": topology,
        "pieces": {"white": variant.men, "black": variant.men, "minimumLive": 3},
        "turn": {
            "initial": "w" if variant.first is Color.WHITE else "b",
            "placingEndActivePlayer": _placing_end(variant),
        },
        "flying": {"enabled": bool(settings["flying"]), "maximumLive": 3},
        "placing": {
            "movementAllowed": variant.lasker,
            "earlyStop": {"emptyPoints": 0, "boundary": "after-unobligated-place-v1"},
            "noLegalPrimaryAction": "loss",
        },
        "mills": _mills(variant),
        "captures": {
            "resolution": "target-commits-v1",
            "custodian": capture,
            "intervention": capture,
            "leap": capture,
        },
        "boardFull": {"action": _full_board(variant)},
        "stalemate": {"action": "loss", "boardRemovalTargets": "adjacent-opponent"},
        "draw": {
            "noProgress": {
                "normalLimit": int(settings["move_rule"]),
                "endgameLimit": int(settings.get("three_men_rule", 0)),
                "endgamePredicate": "either-player-live-equals-3"
                if settings.get("three_men_rule")
                else "none",
                "mode": "automatic",
                "countedPrimaryActions": ["move"],
                "resetEvents": ["board-remove"],
                "evaluationBoundary": "stable-after-primary-sequence-v1",
            },
            "repetition": {
                "count": int(settings["repetition"]),
                "mode": "automatic",
                "observation": "stable-primary-decision-v1",
                "projection": "repetition-observation-v1",
                "summary": "reset-count-smt-v1",
                "resetEvents": ["board-remove", "place"],
            },
            "offers": {"expiry": "explicit-only"},
            "claimRights": {"profile": "stable-claim-rights-v1"},
        },
        "semanticState": [],
    }
    if rules.settings != load(rules.name).rules.settings:
        document["id"] += "-" + digest(projection(document))[7:15]
    return document


def _first_mover(variant: MorrisRules) -> Color:
    """Who moves first once placing ends on a board the men fill (each side placed its men):
    the first player, or the second under the defender moving first."""
    return Color(1 - variant.first) if variant.defender_first else variant.first


def _placing_end(variant: MorrisRules) -> str:
    """MIF's ``turn.placingEndActivePlayer``: the second player's colour under the defender
    moving first, else ``retain`` (the player whose turn it is by alternation, as ours)."""
    return "wb"[1 - variant.first] if variant.defender_first else "retain"


def _mills(variant: MorrisRules) -> dict[str, Any]:
    """MIF's ``mills`` object: what a mill closed while placing does (``placingEffect``: remove
    a man from the board, mark it, take from the opponent's hand then pass the turn, or wait
    for the mill counts when placing ends) and how many men a move's mills take
    (``removalMultiplicity``: one, or one for each new mill)."""
    if variant.mill_counts:
        placing = "remove-by-current-mill-count-at-placing-end"
    elif variant.hand_removal:
        placing = "remove-opponent-hand-change"
    elif variant.marking:
        placing = "mark-opponent-board-until-moving"
    else:
        placing = "remove-opponent-board"
    return {
        "placingEffect": placing,
        "movingEffect": "remove-opponent-board",
        "removalMultiplicity": "one-per-new-line"
        if variant.multiple_removals
        else "one-per-primary",
        "targetProtection": "all-opponent" if variant.remove_from_mills else "outside-mill-first",
        "lineReuse": "unlimited",
        "reverseReformation": "allowed",
        "delayedClearBoundary": "on-enter-moving-v1",
    }


def _full_board(variant: MorrisRules) -> str:
    """MIF's ``boardFull.action`` (fixed colours): ``disabled`` for nothing (the player to move
    cannot move and loses), ``draw``, ``white-loses`` for the first player's loss (White's),
    ``active-player-removes`` for the first mover's removal, and for both removing
    ``white-then-black-remove`` or ``black-then-white-remove``, the first mover first."""
    full = variant.full_board
    if full == "both-remove":
        first, second = ("white", "black")
        if _first_mover(variant) is Color.BLACK:
            first, second = second, first
        return f"{first}-then-{second}-remove"
    return {
        "": "disabled",
        "draw": "draw",
        "first-loses": "white-loses",
        "first-removes": "active-player-removes",
    }[full]


def _unwritable(variant: MorrisRules) -> Text | None:
    """The rule of ``variant`` that MIF's ``mif-finite-rules-v3`` has no value for, in a
    sentence naming our setting, or ``None``."""
    if variant.one_time_mills:
        return Text(
            "one-time mills (one_time_mills): MIF's once-per-player line reuse counts the lines "
            "a player has closed, Ludoteca's one-time mills count their points (a mill all of "
            "whose points were in earlier mills takes nothing)"
        )
    if variant.marking and variant.hand_removal:
        return Text(
            "a mill while placing that both marks and takes from the hand (marking, "
            "hand_removal): MIF's placingEffect is one of them"
        )
    if variant.lasker:
        for setting in ("marking", "hand_removal", "mill_counts"):
            if getattr(variant, setting):
                return Text(
                    "moving while placing with %(setting)s (lasker, %(setting)s): in MIF a mill "
                    "closed by such a move has the placing effect, in Ludoteca it takes a man "
                    "from the board",
                    setting=setting,
                )
    if variant.mill_counts and _first_mover(variant) is Color.BLACK:
        return Text(
            "removals by mill counts where Black moves first (mill_counts with black_first or "
            "defender_first): in MIF White always removes first"
        )
    if variant.full_board == "first-loses" and variant.first is Color.BLACK:
        return Text(
            "a full board that Black, the first player, loses (full_board=first-loses, "
            "black_first): MIF's full board loses for White only (white-loses)"
        )
    return None


def projection(document: dict[str, Any]) -> dict[str, Any]:
    """The ``mrs-semantic-v1`` projection of a manifest (clause 10.7): its semantic members,
    disabled mechanisms folded, set arrays sorted; :class:`InvalidRecordError` for a manifest
    missing a member the projection needs."""
    try:
        out: dict[str, Any] = {"profile": "mrs-semantic-v1"}
        for name in ("semanticsProfile", "topology", "pieces", "turn", "mills", "boardFull"):
            out[name] = _sorted_sets(document[name])
        out["stalemate"] = _sorted_sets(document["stalemate"])
        out["semanticState"] = sorted(set(document["semanticState"]))
        flying = document["flying"]
        out["flying"] = dict(flying) if flying["enabled"] else {"enabled": False}
        placing = _sorted_sets(document["placing"])
        if not placing["earlyStop"]["emptyPoints"]:
            placing["earlyStop"] = {"emptyPoints": 0}
        out["placing"] = placing
        captures = _sorted_sets(document["captures"])
        for name in ("custodian", "intervention", "leap"):
            if not captures[name]["enabled"]:
                captures[name] = {"enabled": False}
        out["captures"] = captures
        draw = _sorted_sets(document["draw"])
        progress = draw["noProgress"]
        if not progress["normalLimit"] and not progress["endgameLimit"]:
            draw["noProgress"] = {"enabled": False}
        if not draw["repetition"]["count"]:
            draw["repetition"] = {"count": 0}
        out["draw"] = draw
        if document.get("extensions"):
            out["extensions"] = document["extensions"]
    except (KeyError, TypeError) as missing:
        raise InvalidRecordError(
            Text("the MIF ruleset manifest is incomplete (%(member)s)", member=str(missing))
        ) from None
    return out


def _sorted_sets(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            name: sorted(set(item))
            if name in _SETS and isinstance(item, list)
            else _sorted_sets(item)
            for name, item in value.items()
        }
    return value


def rules_of(document: dict[str, Any]) -> RuleSet:
    """Our rule set whose manifest has the semantics of ``document``: the custom rule set of
    the manifest's options (:func:`_custom`; a named rule set where it plays as one), else a
    named rule set with its draw limits and flying as settings; :class:`InvalidRecordError`
    naming the options of the nearest rule set of ours that differ
    (``captures.custodian.enabled=true`` …) when none has."""
    wanted = _comparable(projection(document))
    best: list[str] | None = None
    for name in [CUSTOM, *family("morris").rule_set_names()]:
        try:
            spec = _custom(document) if name == CUSTOM else None
            if spec is None:
                spec = _spec(name, load(name).rules.settings, document)
            candidate = load(spec).rules
            ours = manifest(candidate)
        except LudotecaError:
            continue
        have = _comparable(projection(ours))
        differ = sorted(
            f"{path}={json.dumps(wanted.get(path, None))}"
            for path in set(wanted) | set(have)
            if wanted.get(path, _ABSENT) != have.get(path, _ABSENT)
        )
        if not differ:
            return candidate
        if best is None or len(differ) < len(best):
            best = differ
    raise InvalidRecordError(
        Text(
            "the MIF ruleset %(ruleset)s has rule options Ludoteca does not play: %(options)s",
            ruleset=repr(f"{document.get('id')}@{document.get('version')}"),
            options=", ".join(best or ["?"]),
        )
    )


def _spec(name: str, defaults: Mapping[str, Any], document: dict[str, Any]) -> str:
    """Our rule-set spec ``name:setting=value,...`` taking the manifest's flying and draw
    limits for the settings the rule set has."""
    draw = document.get("draw", {})
    found = {
        "flying": bool(document.get("flying", {}).get("enabled")),
        "repetition": draw.get("repetition", {}).get("count"),
        "move_rule": draw.get("noProgress", {}).get("normalLimit"),
        "three_men_rule": draw.get("noProgress", {}).get("endgameLimit"),
    }
    settings = {
        key: found[key]
        for key in defaults
        if key in found and isinstance(found[key], int) and found[key] != defaults[key]
    }
    words = ",".join(f"{key}={str(value).lower()}" for key, value in settings.items())
    return f"{name}:{words}" if words else name


def _custom(document: dict[str, Any]) -> str | None:
    """The custom rule-set spec (``morris-custom:...``) of a manifest's options, each read
    where the manifest writes it as :func:`manifest` does (its other options are compared by
    :func:`rules_of`), or ``None`` for a manifest whose board, men or limits are none of
    ours."""
    draw = document.get("draw", {})
    progress, repetition = draw.get("noProgress", {}), draw.get("repetition", {})
    mills = document.get("mills", {})
    pieces = document.get("pieces", {})
    board = {NINE: 9, TWELVE: 12}.get(TOPOLOGIES.get(document.get("topology", "")))  # type: ignore[arg-type]
    turn = document.get("turn", {})
    other = {"w": "b", "b": "w"}.get(turn.get("initial"))
    placing = mills.get("placingEffect")
    settings = {
        "board": board,
        "men": pieces.get("white") if pieces.get("white") == pieces.get("black") else None,
        "black_first": turn.get("initial") == "b",
        "flying": document.get("flying", {}).get("enabled") is True,
        "lasker": document.get("placing", {}).get("movementAllowed") is True,
        "marking": placing == "mark-opponent-board-until-moving",
        "remove_from_mills": mills.get("targetProtection") == "all-opponent",
        "full_board": _FULL_BOARDS.get(document.get("boardFull", {}).get("action"), "none"),
        "multiple_removals": mills.get("removalMultiplicity") == "one-per-new-line",
        "defender_first": turn.get("placingEndActivePlayer") == other,
        "hand_removal": placing == "remove-opponent-hand-change",
        "mill_counts": placing == "remove-by-current-mill-count-at-placing-end",
        "repetition": repetition.get("count"),
        "move_rule": progress.get("normalLimit"),
        "three_men_rule": progress.get("endgameLimit"),
    }
    numbers = [settings[k] for k in ("board", "men", "repetition", "move_rule", "three_men_rule")]
    if not all(type(n) is int and n >= 0 for n in numbers):
        return None
    return CUSTOM + ":" + ",".join(f"{k}={str(v).lower()}" for k, v in settings.items())


def _comparable(semantics: dict[str, Any]) -> dict[str, Any]:
    """The projection flattened to ``path: value``, without a repetition reset set that plays
    alike (:data:`_NEUTRAL_RESETS`)."""
    flat = _flat(semantics)
    resets = flat.get("draw.repetition.resetEvents")
    if (
        isinstance(resets, list)
        and all(isinstance(e, str) for e in resets)
        and set(resets) <= _NEUTRAL_RESETS
    ):
        del flat["draw.repetition.resetEvents"]
    return flat


def _flat(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for name, item in value.items():
            flat.update(_flat(item, f"{path}.{name}" if path else name))
        return flat
    return {path: value}
