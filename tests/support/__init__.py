"""The tests' only shared helpers; test modules and conftest fixtures import from here.

database: the run's PostgreSQL, fresh databases, migrations, a private server, direct looks.
servers: real gunicorn servers (devtools.servers) in testing or production mode.
player: the test player. api: calls through the Flask test client and looks at stored rows.
remote: play on a real server over HTTP. sse, rawhttp, webhook_receiver, browser: clients
and a receiver (with the docs' signature check). scenarios, scenario_runner, spec,
match_configs: rules and contract data.
engine_steps: engine matches driven in RULES.md §14's step notation.
"""
