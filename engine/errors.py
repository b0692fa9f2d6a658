"""The three ways the engine says no."""
from __future__ import annotations


class IllegalAction(Exception):
    """A well-formed action that the rules refuse now; `reason` is a stable code (RULES.md §11)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class InvalidAction(Exception):
    """An action body that is not an action at all (unknown type, bad card code, stray field)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidConfig(Exception):
    """Bad arguments for a new match; `errors` maps each bad field to a sentence."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors
