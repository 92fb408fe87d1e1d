# The one entry point: `make run` to play, `make test` to check everything.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 0.0.0.0
PORT ?= 5000

.PHONY: install run test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: install
	$(BIN)/scorekeeper serve --host $(HOST) --port $(PORT)

lint: install
	$(BIN)/ruff check scorekeeper tests
	$(BIN)/mypy --strict scorekeeper/scoring

test: install lint
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
