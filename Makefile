# The one entry point: `make run` to play, `make test` to check everything.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
HOST ?= 0.0.0.0
PORT ?= 5000

CHROMIUM := /usr/lib/chromium/chromium
WEBKIT_DRIVER := /usr/bin/WebKitWebDriver

.PHONY: install install-test run test check lint typecheck bench bench-quick mutation clean system-deps fonts shots

# The suite runs on every core this machine kind has (2), tests handed out as workers free up.
# Four workers kept the cores busier (70% where two keep 60%: a browser test waits on its server and
# its browser) and ran the parallel part in 10:56 where two take 12:15, but once a WebKit window did
# not open within 60 s beside three other workers: `make test WORKERS=4` where it holds.
WORKERS ?= 2

# The sheets need DejaVu (suit symbols) to look the same on every machine.
fonts:
	@fc-list 2>/dev/null | grep -q "DejaVu Sans" || tools/apt-install fonts-dejavu-core fontconfig

# `make run` installs what serving needs; the test tools (Playwright alone is 165 MB) come
# with `make test`, `make lint` and `make bench`.
install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

install-test: $(TEST_STAMP)

$(TEST_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	# A developer's commits: tools/hooks/commit-msg keeps each subject to 72 characters.
	git rev-parse --git-dir >/dev/null 2>&1 && git config core.hooksPath tools/hooks || true
	touch $(TEST_STAMP)

# The type checker of the phone's scripts: TypeScript from the npm registry, at the version
# package-lock.json pins, installed again when the lock changes; Node.js and npm from Debian.
NODE_STAMP := node_modules/.installed
TSC := node_modules/.bin/tsc

$(NODE_STAMP): package.json package-lock.json
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
		echo "Installing nodejs and npm, to check the phone's scripts (apt-get)"; \
		tools/apt-install nodejs npm; \
	fi
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

# The phone's scripts, type-checked as they run (`// @ts-check`, JSDoc types; no build step): the
# page's scripts, the service worker with a worker's globals, the Node tests with Node's.
TYPECHECK = $(TSC) --noEmit -p tsconfig.json && $(TSC) --noEmit -p tsconfig.sw.json \
	&& $(TSC) --noEmit -p tests/phone/tsconfig.json
typecheck: $(NODE_STAMP)
	$(TYPECHECK)

run: install fonts
	$(BIN)/scorekeeper serve --host $(HOST) --port $(PORT)

PYTHON_LINT = $(BIN)/ruff check scorekeeper tests bench && $(BIN)/ruff format --check scorekeeper tests bench \
	&& $(BIN)/mypy --strict scorekeeper
lint: install-test typecheck
	$(PYTHON_LINT)

# The browser tests drive Debian's Chromium, and WebKit (Safari's engine: WebKitGTK's MiniBrowser
# through its WebDriver, on an Xvfb display); pdftoppm reads PDFs back; the sheets print in
# DejaVu (it has the suit symbols). Installed when missing (as root or through sudo), waiting
# for any other install that holds apt's lock. Node.js runs the phone's scorer against the engine.
system-deps:
	@if [ ! -x $(CHROMIUM) ] || ! command -v pdftoppm >/dev/null || ! fc-list | grep -q "DejaVu Sans"; then \
		echo "Installing chromium, poppler-utils and fonts-dejavu-core (apt-get)"; \
		tools/apt-install chromium poppler-utils fonts-dejavu-core fontconfig; \
	fi
	@if [ ! -x $(WEBKIT_DRIVER) ] || ! command -v Xvfb >/dev/null; then \
		echo "Installing webkit2gtk-driver and xvfb (apt-get)"; \
		tools/apt-install webkit2gtk-driver xvfb; \
	fi
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
		echo "Installing nodejs and npm, to check the phone's scorer against the engine (apt-get)"; \
		tools/apt-install nodejs npm; \
	fi

# The lint runs beside the suite's parallel part (its output printed after it; either failing
# fails `make test`). The tests that hold a server to a time limit run last, one at a time, with
# the cores to themselves: beside another worker's browser they measure the machine, not the
# server. The twenty slowest tests are listed at the end of the first run.
test: install-test system-deps $(NODE_STAMP)
	@(set -x; $(TYPECHECK) && $(PYTHON_LINT)) > .lint.log 2>&1 & linting=$$!; \
	$(BIN)/python -m pytest -n $(WORKERS) --dist worksteal -m "not timed" --durations=20; tested=$$?; \
	wait $$linting; linted=$$?; echo "== make lint (beside the tests):"; cat .lint.log; \
	test $$linted -eq 0 || echo "make lint failed"; test $$tested -eq 0 && test $$linted -eq 0
	$(BIN)/python -m pytest -m timed

# The browser tests again, keeping their screenshots (360 and 390 px wide, light and dark, WebKit's
# too) in SHOTS to look at; the suite takes none.
SHOTS ?= /tmp/scorekeeper-shots
shots: install-test system-deps
	SCOREKEEPER_SHOTS=$(SHOTS) $(BIN)/python -m pytest -n $(WORKERS) --dist worksteal tests/browser
	@echo "The screenshots are in $(SHOTS)"

# A developer's quick loop: everything but the tests marked slow (browsers, servers killed, the
# quick bench, thousands of random games); `make test` and CI run them all.
check: install-test lint
	$(BIN)/python -m pytest -n $(WORKERS) --dist worksteal -m "not slow"

bench: install-test system-deps
	$(BIN)/python -m bench

# Every part of the bench end to end with a handful of rounds (seconds; the figures mean nothing).
bench-quick: install-test system-deps
	$(BIN)/python -m bench --quick

# Mutation testing (docs/quality.md): each module of tools/mutation-map.txt changed one way at a time
# and run against its own tests; fails below 95% killed in any module. Slow (minutes a module): not part
# of `make test`. One module: `make mutation MODULE=scorekeeper/scoring/pressures.py`.
mutation: install-test system-deps
	$(BIN)/python tools/mutation.py $(if $(MODULE),--module $(MODULE))

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis .lint.log
