"""Write openapi.yaml from the code's schemas (flask-smorest): `python scripts/gen_openapi.py`.

`--check` exits 1 when the committed file differs from what the code generates.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def generate() -> str:
    from app import create_app
    from app.http.api_spec import api

    # No connection is made: the spec needs the app, not the database.
    app = create_app({"DATABASE_URL": "postgresql+psycopg2://unused@localhost/unused"})
    with app.app_context():
        return str(api.spec.to_yaml())


def main() -> int:
    text = generate()
    target = ROOT / "openapi.yaml"
    if "--check" in sys.argv[1:]:
        if target.read_text() != text:
            print("openapi.yaml is out of date: run python scripts/gen_openapi.py")
            return 1
        return 0
    target.write_text(text)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
