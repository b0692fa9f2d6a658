"""Readiness: whether this process can reach its database."""
from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from app.db.extensions import db


def check_database() -> None:
    """Return once the database has answered a query; raise its SQLAlchemyError when it
    cannot. The session is released either way."""
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError:
        db.session.rollback()
        raise
    finally:
        db.session.remove()
