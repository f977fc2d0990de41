# kessen: `make run` plays a shipped example, `make test` runs the whole test suite, `make serve` the web page.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXAMPLE ?= examples/song-of-blades/warband-skirmish.toml

.PHONY: run test bench check-odds clean serve browser

$(BIN)/kessen: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[test,web,dask,plot,parquet]'
	touch $@

$(VENV)/.web-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[web]'
	touch $@

# The browser tests drive Debian's Chromium, and the Japanese page needs fonts with its glyphs.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list :lang=ja 2>/dev/null | grep -q .; then \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

run: $(BIN)/kessen
	$(BIN)/kessen odds song-of-blades melee --format table --input examples/song-of-blades/melee.json
	$(BIN)/kessen battle $(EXAMPLE) --seed 7

test: $(VENV)/.test-deps browser
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

serve: $(VENV)/.web-deps
	$(BIN)/kessen serve $(SERVE_ARGS)

bench: $(VENV)/.test-deps
	$(BIN)/python -m benchmarks

check-odds: $(BIN)/kessen
	for r in song-of-blades battlehost legions armies-clash; do ../shared/tools/check-odds $$r || exit 1; done

clean:
	rm -rf $(VENV) build src/*.egg-info
