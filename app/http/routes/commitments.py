"""Commitments: the server binds itself to a match's secret before the creator's seed."""
from __future__ import annotations

from flask import Response
from flask_smorest import Blueprint

from app.play import commitments
from app.http.responses import json_response
from app.http.auth import caller_id, requires_player
from app.infra.problems import PROBLEM_MIMETYPE
from app.http.errors import ProblemSchema, takes_no_body
from app.http.schemas.views import CommitmentSchema

blp = Blueprint("commitments", __name__, url_prefix="/v1",
                description="Commitments to a match's secret (docs/fairness.md)")


@blp.route("/commitments", methods=["POST"])
@requires_player
@blp.response(201, CommitmentSchema)
@blp.alt_response(409, schema=ProblemSchema, content_type=PROBLEM_MIMETYPE,
                  description="you hold 20 unused commitments (code too_many_commitments)")
@blp.doc(operationId="createCommitment")
@takes_no_body
def create() -> Response:
    """A fresh commitment (10 minutes) to name as `commitment` in the body of the match you
    create next: its deals then come from a secret, and its id is `match_id`, both fixed
    before you sent your seed."""
    return json_response(commitments.issue(caller_id()), 201)
