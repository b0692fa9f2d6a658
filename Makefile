# Thin wrappers around scripts/dev.py (which creates .venv on first use).
PYTHON ?= python3
ARGS ?=

.PHONY: serve test bench

serve:
	$(PYTHON) scripts/dev.py serve

test:
	$(PYTHON) scripts/dev.py test $(ARGS)

bench:
	$(PYTHON) scripts/dev.py bench $(ARGS)
