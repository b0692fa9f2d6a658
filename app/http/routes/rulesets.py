"""The rulesets, their options and raise ladders, from the engine's own tables."""
from __future__ import annotations

from flask import Response
from flask_smorest import Blueprint

from app.http.responses import json_response
from app.play.level_players import LEVEL_PLAYERS
from app.http.schemas.rulesets import RulesetListSchema
from engine import OPTION_CHOICES, OPTION_DEFAULTS, RULESETS
from engine.rules import MAX_IRON_HAND_VALUE
from engine.bots import AVAILABLE_LEVELS

blp = Blueprint("rulesets", __name__, url_prefix="/v1", description="Rulesets and options")


def _options(base: int) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {
        name: {"values": list(values), "default": values[0]}
        for name, values in OPTION_CHOICES.items()}
    out["first_dealer"] = {"values": ["random", "a seat number"],
                           "default": OPTION_DEFAULTS["first_dealer"]}
    out["iron_hand_value"] = {"values": f"an integer from 1 to {MAX_IRON_HAND_VALUE}",
                              "default": base}
    return out


@blp.route("/rulesets")
@blp.response(200, RulesetListSchema)
@blp.doc(operationId="listRulesets")
def rulesets() -> Response:
    """Every ruleset with its constants and options (names, values, defaults), and the
    built-in bot levels with their players (profiles and ratings under those ids)."""
    items = [{"name": r.name, "base_value": r.base, "ladder": list(r.ladder),
              "special_hand_at": r.special_at, "mao_de_onze_stake": r.eleven_stake,
              "mao_de_onze_refused_award": r.eleven_refused_award, "options": _options(r.base)}
             for r in RULESETS.values()]
    bots = [{"level": level, "player_id": LEVEL_PLAYERS[level]} for level in AVAILABLE_LEVELS]
    return json_response({"items": items, "bot_levels": list(AVAILABLE_LEVELS), "bots": bots},
                         headers={"Cache-Control": "public, max-age=3600"})
