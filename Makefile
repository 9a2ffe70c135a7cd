# Two entry points, each self-sufficient on a fresh machine with Python >= 3.11 and make:
#   DISCORD_TOKEN=... make run    create .venv if missing, install what running needs, start
#   make test                     create .venv if missing, install with dev extras, run all tests
#   make play                     no token needed: Cover Your Assets against three bots
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed-dev

.PHONY: run test play lint format bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Running needs only the package's own dependencies; the test tools come with `make test`.
$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/python -m bot

play: $(RUN_STAMP)
	$(BIN)/python -m games play cover_your_assets --players 4 --bots 3

# Test databases live in RAM where the machine has it: what the store tests prove (a move
# kept across a killed process) needs no disk, and fsync waits were a sixth of the run.
TEST_TMP := $(if $(wildcard /dev/shm/.),/dev/shm,/tmp)

# Work stealing: a worker that runs out takes half of what another still holds. Plain load
# scheduling hands out the last tests in batches, and one worker was seen chewing through
# the contract tests' batch for three minutes while the other sat idle.
# Compiled modules are kept (PYTHONDONTWRITEBYTECODE emptied, as some machines set it): the
# suite starts dozens of Python processes (workers, picture drawers, shard processes, signal
# tests), and each compiled every module and rewrote every test's asserts anew, 8 s of a
# worker's collection alone.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	@dir=$$(mktemp -d $(TEST_TMP)/cookie-jar-tests-XXXXXX); \
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n auto --dist worksteal --basetemp=$$dir; \
	status=$$?; \
	rm -rf $$dir; exit $$status

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) *.egg-info
