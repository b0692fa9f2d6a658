"""The building blocks of every schema: strict fields, the response base class, and the
enumerations and unions that become named components of openapi.yaml."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar

from marshmallow import EXCLUDE, INCLUDE, Schema, fields, validate

from engine import PLAYER_COUNTS

MAX_TURN_TIMEOUT = 1_209_600
MAX_OFFSET = 2**31 - 1  # PostgreSQL's OFFSET is a bigint: a larger number would be a 500
MAX_WAIT_SECONDS = 60  # the longest long poll (`wait`)
STRICT_INT: dict[str, Any] = {"strict": True}
SEAT_RANGE = validate.Range(0, max(PLAYER_COUNTS) - 1)  # the match's own limit is checked later


BLANK_LOOKING = frozenset("\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0")
"""Letters and symbols that print as nothing (Hangul fillers, the blank Braille pattern...)."""


def visible(char: str) -> bool:
    """True for a character that shows as a mark: not a space, control, format or combining
    character, nor one of the blank-looking letters."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK_LOOKING


class StrictBoolean(fields.Boolean):
    """A JSON ``true`` or ``false``, nothing else (marshmallow alone takes ``1``, ``"yes"``...)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class QueryInteger(fields.Integer):
    """An integer in a query string: ASCII digits with an optional minus sign, nothing else
    (Python's int() also takes "1_000", " 7 " and other scripts' digits)."""

    _FORM = re.compile(r"-?[0-9]{1,18}")
    LIMIT = 10**18 - 1
    """The largest it can be (18 digits): a Range stated in the spec, so that no value the
    spec allows is refused as not an integer (`after`, `step` had no maximum)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.validators.insert(0, validate.Range(-self.LIMIT, self.LIMIT))

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, str) and not self._FORM.fullmatch(value):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class QuerySchema(Schema):
    """Query strings ignore parameters they do not know (cache busters, tracing)."""

    class Meta:
        unknown = EXCLUDE


ENUMS: dict[str, list[Any]] = {}
"""Enumerations that are components of the spec, by name, so that generators give each one
class with good names; a nullable one is ``allOf: [$ref]`` + ``nullable``."""
INT_NAMES = {1: "one", 2: "two", 4: "four", 6: "six", 12: "twelve"}
"""The member names of integer enumerations (``x-enum-varnames``): ``PlayerCount.FOUR``."""


def named_enum(component: str, values: Any, field: type[fields.Field[Any]] | None = None,
               **kwargs: Any) -> fields.Field[Any]:
    """A field that takes one of ``values``, documented as the component ``component``."""
    values = list(values)
    assert ENUMS.setdefault(component, values) == values, component
    ints = isinstance(values[0], int)
    cls = field or (fields.Integer if ints else fields.String)
    metadata = {**kwargs.pop("metadata", {}), "component": component}
    return cls(validate=validate.OneOf(values), metadata=metadata,
               **(STRICT_INT if ints and cls is fields.Integer else {}), **kwargs)


def pascal(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


class ResponseSchema(Schema):
    """A body the server sends (documentation only: handlers build the JSON themselves).

    Every field is always sent, so the spec marks each one required, except those named in
    ``OPTIONAL``. Clients must accept fields they do not know yet (additive changes are free).
    """

    class Meta:
        unknown = INCLUDE

    OPTIONAL: ClassVar[frozenset[str]] = frozenset()


class Component(fields.Raw):
    """A value described by a hand-written component of the spec (a ``oneOf`` of
    :data:`UNIONS`, an enumeration of :data:`ENUMS`): documented as its ``$ref``
    (``allOf: [$ref]`` + ``nullable`` when it may be null)."""

    def __init__(self, component: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.component = component


def tag(value: str) -> fields.String:
    """The field that tells the variants of a ``oneOf`` apart: exactly ``value``."""
    return fields.String(required=True, validate=validate.Equal(value))


def enum(values: Any, **kwargs: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(list(values)), **kwargs)


@dataclass(frozen=True)
class OneOf:
    """A spec component that is one of several schemas, told apart by the field ``key``
    (an OpenAPI ``discriminator``); registered by ``app.db.extensions.ProblemApi``."""

    key: str
    variants: dict[str, type[Schema]]


def one_of(key: str, *schemas: type[Schema]) -> OneOf:
    """The ``OneOf`` of ``schemas``, each mapped by the value of its ``tag`` field ``key``."""
    return OneOf(key, {s._declared_fields[key].validators[0].comparable: s  # type: ignore
                       for s in schemas})
