# Dealer Trainer: `make run` opens the app, `make test` runs every check headless,
# `make test-engine` the engine's own tests alone (no Qt, no PostgreSQL; well under a minute).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test test-engine lint bench fuzz screenshots readme-screenshots bundle test-bundle clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[class-server]'
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/dealer-trainer

lint: $(TEST_STAMP)
	$(BIN)/ruff check trainer ui tests
	$(BIN)/lint-imports
	$(BIN)/python .ci/mypy_baseline.py
	$(BIN)/python .ci/subjects.py

# Every core runs tests (pytest-xdist, a worker more than the cores: tests/conftest.py; one test
# at a time to whichever worker is free; a module marked xdist_group stays in one worker). Compiled modules are kept in the venv even where
# PYTHONDONTWRITEBYTECODE is set: without them every worker, and every program a test starts,
# compiles each module it imports again. `$(BIN)/python -m pytest` alone runs the suite in one
# process, in order: for debugging (docs/ARCHITECTURE.md, Tests).
# A worker that crashes is not replaced: the run ends, failed, naming the test it crashed in
# (pytest-xdist 3.8 with --dist loadgroup waits for ever after replacing one).
XDIST := -n auto --dist loadgroup --max-worker-restart 0
TEST_ENV := QT_QPA_PLATFORM=offscreen PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache

test: lint
	$(TEST_ENV) $(BIN)/python -m pytest $(XDIST)

# the markers are given by what each test uses (tests/support/markers.py); left out here: the
# tests of the screens, of the class server, of the program run as a command, and the slowest
test-engine: $(TEST_STAMP)
	$(TEST_ENV) $(BIN)/python -m pytest $(XDIST) -m "not qt and not postgres and not cli and not slow"

bench: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest tests/benchmarks --benchmark-only -p no:randomly
	$(BIN)/python tests/benchmarks/settle_throughput.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python tests/benchmarks/results_import.py

# 5,000 hostile inputs for each command and import (tests/support/fuzz.py): none may end in exit 70
fuzz: $(TEST_STAMP)
	$(BIN)/python tests/benchmarks/fuzz_hostile.py

# every screen (ui.shell.app.SCREENS) in both themes on a laptop's 1366x768, to look at before a change
# to a screen is merged: screenshots-local/1366x768/NAME-light.png and NAME-dark.png, git-ignored
LAPTOP_SHOTS := screenshots-local/1366x768

screenshots: $(STAMP)
	mkdir -p $(LAPTOP_SHOTS)
	for s in $$($(BIN)/python -c 'from ui.shell.app import SCREENS; print(*SCREENS)'); do \
		for t in light dark; do \
			QT_QPA_PLATFORM=offscreen $(BIN)/dealer-trainer --screenshot $(LAPTOP_SHOTS)/$$s-$$t.png \
				--screen $$s --theme $$t --size 1366x768 || exit 1; \
		done; \
	done

README_SHOTS := practice table-props-and-hops table-three-dice-football table-high-roll-dice \
	table-pai-gow-dice drill scenarios rules progress class class-live exam exam-result

# the README's pictures, 1440x900: the light theme (resources/screenshots/<name>.png) and the dark
# (<name>-dark.png)
readme-screenshots: $(STAMP)
	for s in $(README_SHOTS); do \
		QT_QPA_PLATFORM=offscreen $(BIN)/dealer-trainer --screenshot resources/screenshots/$$s.png --screen $$s --reproducible || exit 1; \
		QT_QPA_PLATFORM=offscreen $(BIN)/dealer-trainer --screenshot resources/screenshots/$$s-dark.png --screen $$s --reproducible --theme dark || exit 1; \
	done

# The desktop bundle for this OS (packaging/dealer-trainer.spec): dist/dealer-trainer/, with
# dealer-trainer-app (the app) and dealer-trainer (the engine's commands). Built from the project
# installed, as a wheel is, in a venv of its own (build/bundle-venv), with the icons drawn
# and the third-party notices written from that venv. On Windows and macOS the same spec is
# built by packaging/windows/build.ps1 and packaging/macos/make-dmg.sh. $(PYTHON) is 3.11 or
# 3.12 here: the class server's packaged PostgreSQL (pgserver) has no wheel for a later one.
BUNDLE_VENV := build/bundle-venv
BUNDLE_BIN := $(BUNDLE_VENV)/bin

$(BUNDLE_VENV)/.installed: pyproject.toml
	test -x $(BUNDLE_BIN)/python || $(PYTHON) -m venv $(BUNDLE_VENV)
	$(BUNDLE_BIN)/python -m pip install --quiet '.[class-server,bundle]'
	touch $@

bundle: $(BUNDLE_VENV)/.installed
	$(BUNDLE_BIN)/python -m pip install --quiet --no-deps --no-build-isolation --force-reinstall .
	$(BUNDLE_BIN)/python packaging/icons.py build/icons
	$(BUNDLE_BIN)/python packaging/notices.py build/THIRD-PARTY-NOTICES
	DEALER_TRAINER_ICONS=build/icons DEALER_TRAINER_NOTICES=build/THIRD-PARTY-NOTICES \
		$(BUNDLE_BIN)/pyinstaller --noconfirm --log-level WARN --distpath dist \
		--workpath build/pyinstaller packaging/dealer-trainer.spec
	du -sh dist/dealer-trainer

# after `make bundle`: starts the bundle headless, renders every screen and compares each with
# the venv's, byte for byte (`--screenshot --reproducible`: a stopped clock, a seeded
# demonstration), runs its commands and its class server (tests/bundle; outside `make test`, like
# the benchmarks); then its start time against the venv's, and its size
test-bundle: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest tests/bundle -p no:randomly
	$(BIN)/python tests/bundle/start_time.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis .benchmarks build dist
