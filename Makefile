# The README's two commands. Both build .venv themselves when it is missing or older than
# pyproject.toml, so a fresh machine needs only python3 (3.11+) and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play check test lint typecheck unit fast bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## make run: the main job: the web server on http://127.0.0.1:8000 (see README)
run: $(STAMP)
	$(BIN)/robinson serve

## make play: a game in the terminal
play: $(STAMP)
	$(BIN)/robinson play

## make check: lint, types and the fast tier: every test but the `system`, `browser` and `slow` ones
check: lint typecheck fast

## make test: lint, types (strict on the engine), the whole suite
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools

typecheck: $(STAMP)
	$(BIN)/mypy src/robinson

unit: $(STAMP)
	$(BIN)/pytest -q

# The fast tier (tests/tiers.py) on every core: no test in it starts a server or a browser.
# Bytecode is kept even where PYTHONDONTWRITEBYTECODE is set (containers): each worker would
# otherwise compile every module and rewrite every test module's asserts on every run (about
# 2.5 s of CPU a process); __pycache__ is ignored by git and holds numba's caches anyway.
fast: $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -q -n auto --dist worksteal -m "not system and not browser and not slow"

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_games.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
