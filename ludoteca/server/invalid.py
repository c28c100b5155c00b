"""A malformed request in the reader's words: each of pydantic's validation errors as a
sentence of the catalogue naming the field ("name: at most 40 characters"), never pydantic's
own English ("String should have at most 40 characters")."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from ..i18n import N_, _, ngettext

__all__ = ["FIELDS", "describe", "problem"]

#: the bodies' fields as a sentence names them (any other field by its name in the API)
FIELDS: Mapping[str, str] = {
    "game": N_("game"),
    "rules": N_("rule set"),
    "opponent": N_("opponent"),
    "colour": N_("colour"),
    "level": N_("level"),
    "position": N_("position"),
    "clock": N_("clock"),
    "name": N_("name"),
    "rated": N_("rated"),
    "token": N_("seat token"),
    "type": N_("type"),
    "move": N_("move"),
    "ply": N_("ply"),
    "room": N_("room"),
    "text": N_("text"),
    "password": N_("password"),
    "claims": N_("claimed seats"),
    "old": N_("old password"),
    "new": N_("new password"),
    "min_rating": N_("lowest rating"),
    "max_rating": N_("highest rating"),
    "comment": N_("comment"),
    "title": N_("title"),
    "visibility": N_("who may see it"),
    "shapes": N_("shapes"),
    "mark": N_("mark"),
}
#: where a field of a request is (the first part of a request's error location)
PLACES = frozenset({"body", "query", "path", "header", "cookie"})
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _field(loc: tuple[int | str, ...], ctx: Mapping[str, Any]) -> str:
    """The field an error is about, in words: the last name of its location (a list's index
    and where in the request aside), the discriminator of a message's kind, else the
    request."""
    names = [p for i, p in enumerate(loc) if isinstance(p, str) and not (i == 0 and p in PLACES)]
    if not names and "discriminator" in ctx:
        names = _QUOTED.findall(str(ctx["discriminator"]))
    if not names:
        return _("request")
    name = names[-1]
    return _(FIELDS[name]) if name in FIELDS else name


def _choices(ctx: Mapping[str, Any], key: str = "expected") -> str:
    """The values a field takes, from pydantic's quoted list ("'a', 'b' or 'c'")."""
    # TRANSLATORS: what separates the values of a list
    return _(", ").join(_QUOTED.findall(str(ctx.get(key, ""))))


def _at_most(field: str, ctx: Mapping[str, Any]) -> str:
    limit = int(ctx["max_length"])
    if ctx.get("field_type") is not None:  # a list
        return ngettext(
            "%(field)s: at most %(num)s item",
            "%(field)s: at most %(num)s items",
            limit,
            field=field,
        )
    return ngettext(
        "%(field)s: at most %(num)s character",
        "%(field)s: at most %(num)s characters",
        limit,
        field=field,
    )


def _at_least(field: str, ctx: Mapping[str, Any]) -> str:
    limit = int(ctx["min_length"])
    if ctx.get("field_type") is not None:  # a list
        return ngettext(
            "%(field)s: at least %(num)s item",
            "%(field)s: at least %(num)s items",
            limit,
            field=field,
        )
    return ngettext(
        "%(field)s: at least %(num)s character",
        "%(field)s: at least %(num)s characters",
        limit,
        field=field,
    )


def _fixed(msgid: str) -> Callable[[str, Mapping[str, Any]], str]:
    return lambda field, ctx: _(msgid, field=field)


def _bounded(msgid: str, key: str) -> Callable[[str, Mapping[str, Any]], str]:
    return lambda field, ctx: _(msgid, field=field, limit=ctx[key])


def _one_of(field: str, ctx: Mapping[str, Any]) -> str:
    return _("%(field)s: one of %(choices)s", field=field, choices=_choices(ctx))


def _unknown_kind(field: str, ctx: Mapping[str, Any]) -> str:
    return _(
        "%(field)s: %(value)s is unknown (known: %(choices)s)",
        field=field,
        value=ctx.get("tag", ""),
        choices=_choices(ctx, "expected_tags"),
    )


_WHOLE = _fixed(N_("%(field)s: a whole number is expected"))
_YES_NO = _fixed(N_("%(field)s: true or false is expected"))
_OBJECT = _fixed(N_("%(field)s: a JSON object is expected"))
_REQUIRED = _fixed(N_("%(field)s: required"))
#: the sentence of each kind of pydantic error (by its ``type``), from the field and the context
SENTENCES: Mapping[str, Callable[[str, Mapping[str, Any]], str]] = {
    "missing": _REQUIRED,
    "union_tag_not_found": _REQUIRED,
    "string_too_long": _at_most,
    "too_long": _at_most,
    "string_too_short": _at_least,
    "too_short": _at_least,
    "less_than_equal": _bounded(N_("%(field)s: at most %(limit)s"), "le"),
    "less_than": _bounded(N_("%(field)s: less than %(limit)s"), "lt"),
    "greater_than_equal": _bounded(N_("%(field)s: at least %(limit)s"), "ge"),
    "greater_than": _bounded(N_("%(field)s: more than %(limit)s"), "gt"),
    "string_type": _fixed(N_("%(field)s: a text is expected")),
    "int_type": _WHOLE,
    "int_parsing": _WHOLE,
    "int_from_float": _WHOLE,
    "bool_type": _YES_NO,
    "bool_parsing": _YES_NO,
    "enum": _one_of,
    "literal_error": _one_of,
    "union_tag_invalid": _unknown_kind,
    "model_attributes_type": _OBJECT,
    "model_type": _OBJECT,
    "dict_type": _OBJECT,
    "list_type": _fixed(N_("%(field)s: a list is expected")),
    "json_invalid": _fixed(N_("%(field)s: not valid JSON")),
    "extra_forbidden": _fixed(N_("%(field)s: not a field of this request")),
}
_INVALID = _fixed(N_("%(field)s: not a valid value"))


def problem(error: Mapping[str, Any]) -> str:
    """One of pydantic's errors (an item of ``errors()``) as a sentence in the current
    language."""
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    field = _field(tuple(error.get("loc", ())), ctx)
    return SENTENCES.get(str(error.get("type")), _INVALID)(field, ctx)


def describe(error: ValidationError | RequestValidationError) -> str:
    """A validation error as one sentence for the user, in the current language: what is wrong
    with each field."""
    # TRANSLATORS: what separates the problems of a malformed request
    problems = _("; ").join(problem(item) for item in error.errors())
    return _("bad request: %(problems)s", problems=problems)
