"""The problems with fields of their own (app.http.errors.problem builds them)."""
from __future__ import annotations

from typing import Any

from marshmallow import fields

from app.http.errors import ProblemSchema
from app.http.schemas.base import Component, tag
from app.http.schemas.views import MatchViewSchema


class ValidationProblemSchema(ProblemSchema):
    code = tag("validation_error")
    errors = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "each invalid field (`_body` for the body as a whole): its messages"})


class IllegalActionProblemSchema(ProblemSchema):
    code = tag("illegal_action")
    reason = fields.String(required=True, metadata={
        "description": "not_your_turn, card_not_in_hand, raise_pending, decision_pending, "
                       "raise_not_allowed, face_down_not_allowed, nothing_to_answer, "
                       "slot_required, must_play_highest..."})
    legal_actions = fields.List(Component("Action"), required=True)


class VersionMismatchProblemSchema(ProblemSchema):
    code = tag("version_mismatch")
    current = fields.Nested(MatchViewSchema, required=True,
                            metadata={"description": "the match as you see it now"})


class RateLimitedProblemSchema(ProblemSchema):
    code = tag("rate_limited")
    retry_after = fields.Integer(required=True,
                                 metadata={"description": "seconds; also in Retry-After"})


def any_problem(*schemas: type[ProblemSchema]) -> dict[str, Any]:
    """The body of an error response that can be any of these problems (the first that
    fits: a generic ``Problem`` last)."""
    return {"anyOf": list(schemas)}


UNPROCESSABLE = any_problem(ValidationProblemSchema, ProblemSchema)
