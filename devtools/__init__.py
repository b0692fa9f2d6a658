"""Development tools outside the service: the embedded PostgreSQL and the servers that
``scripts/dev.py serve``, the tests and the benchmarks start and stop."""
