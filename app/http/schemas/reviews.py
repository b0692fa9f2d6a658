"""Reviews of finished matches: the response schema (app/play/reviews.py)."""
from __future__ import annotations

from marshmallow import fields

from app.http.schemas.base import Component, ResponseSchema, enum


class ReviewedOptionSchema(ResponseSchema):
    action = Component("Action")
    chance = fields.Float(metadata={"description": (
        "the estimated chance that the seat's team wins the match after this action, from "
        "what the seat could see then (0 to 1)")})


class ReviewedDecisionSchema(ResponseSchema):
    action_number = fields.Integer(metadata={
        "description": "the action's number in the match (1 for the first)"})
    step = fields.Integer(allow_none=True, metadata={"description": (
        "the replay step that shows the table as the seat saw it when it decided "
        "(GET /v1/matches/{id}/replay?step=N)")})
    seat = fields.Integer()
    hand = fields.Integer(metadata={"description": "the hand's number (1 for the first)"})
    trick = fields.Integer(metadata={"description": "the trick it was taken in (1 to 3)"})
    auto_played = fields.Boolean(metadata={"description": (
        "true when a built-in bot acted for the seat's absent player (a turn deadline): "
        "left out of `seats`")})
    cards = fields.List(fields.String(), metadata={"description": (
        "the cards the seat held when it decided (a finished match's players see them all)")})
    played = Component("Action", metadata={"description": "the action taken"})
    best = Component("Action", metadata={
        "description": "the action the review values most (the one taken when it ties)"})
    loss = fields.Float(metadata={"description": "best's chance minus played's (0 to 1)"})
    mistake = fields.Boolean(metadata={"description": "loss is at least `mistake_loss`"})
    options = fields.List(fields.Nested(ReviewedOptionSchema), metadata={
        "description": "every action the seat could take, in the view's order"})


class ReviewedSeatSchema(ResponseSchema):
    seat = fields.Integer()
    decisions = fields.Integer(metadata={
        "description": "the seat's reviewed decisions (not auto-played)"})
    mistakes = fields.Integer()
    loss = fields.Float(metadata={"description": "the sum of its decisions' losses"})


class ReviewProgressSchema(ResponseSchema):
    reviewed = fields.Integer(metadata={"description": "the match's actions looked at so far"})
    actions = fields.Integer(metadata={"description": "the match's recorded actions"})


class ReviewSchema(ResponseSchema):
    match_id = fields.String()
    status = enum(["pending", "done"], metadata={"description": (
        "pending: queued or under way (`decisions` holds those reviewed so far); done: "
        "complete")})
    requested_at = fields.DateTime()
    completed_at = fields.DateTime(allow_none=True)
    progress = fields.Nested(ReviewProgressSchema)
    playouts = fields.Integer(metadata={"description": "playouts spent on each decision"})
    mistake_loss = fields.Float(metadata={
        "description": "the least loss of winning chance called a mistake"})
    seats = fields.List(fields.Nested(ReviewedSeatSchema), metadata={
        "description": "a tally per seat that decided something, by seat"})
    decisions = fields.List(fields.Nested(ReviewedDecisionSchema), metadata={
        "description": "every decision with a choice, in the order taken (a seat with one "
                       "legal action is left out)"})
