# kessen: `make run` plays a shipped example, `make test` runs the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXAMPLE ?= examples/song-of-blades/warband-skirmish.toml

.PHONY: run test bench check-odds clean

$(BIN)/kessen: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[test,dask,plot,parquet]'
	@# Japanese plot titles need a font with Japanese glyphs (kessen sweep --plot DIR --lang ja)
	fc-list :lang=ja 2>/dev/null | grep -q . || (apt-get update -qq && apt-get install -y -qq fonts-noto-cjk) || echo "no Japanese font: ja plots fall back to English titles"
	touch $@

run: $(BIN)/kessen
	$(BIN)/kessen odds song-of-blades melee --format table --input examples/song-of-blades/melee.json
	$(BIN)/kessen battle $(EXAMPLE) --seed 7

test: $(VENV)/.test-deps
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

bench: $(VENV)/.test-deps
	$(BIN)/python -m benchmarks

check-odds: $(BIN)/kessen
	for r in song-of-blades battlehost legions armies-clash; do ../shared/tools/check-odds $$r || exit 1; done

clean:
	rm -rf $(VENV) build src/*.egg-info
