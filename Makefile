# kessen: `make run` plays a shipped example, `make test` runs the whole test suite, `make serve` the web page.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXAMPLE ?= examples/song-of-blades/warband-skirmish.toml

.PHONY: run test bench check-odds clean serve browser compiled

$(BIN)/kessen: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[test,web,dask,plot,parquet,mcp,rl]'
	touch $@

$(VENV)/.compile-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[compile]'
	touch $@

# The battle engine compiled with mypyc (setup.py says which modules) into .venv/compiled, where a C compiler is
# present. `import kessen` runs it whenever it is current (src/kessen/bootstrap.py checks the sources it was compiled
# from), so .venv/bin/kessen, the tests, the web app and the sweeps all play with it. Rebuilt when one of those
# sources, or setup.py's list, changed; without a compiler one line says the engine stays pure Python.
COMPILED := $(VENV)/compiled
HAS_CC = $(BIN)/python -c 'import sys; sys.path.insert(0, "."); from setup import c_compiler; sys.exit(c_compiler() is None)'
IS_CURRENT = $(BIN)/python -c 'import sys; sys.path.insert(0, "."); from setup import build_is_current; sys.exit(not build_is_current())'

compiled: $(VENV)/.compile-deps
	@if $(IS_CURRENT); then \
		:; \
	elif $(HAS_CC); then \
		echo "compiling the engine with mypyc (a few minutes)"; \
		rm -rf $(COMPILED) $(VENV)/wheels; \
		KESSEN_COMPILE=1 $(BIN)/pip wheel --quiet --no-deps --no-build-isolation --wheel-dir $(VENV)/wheels . && \
		$(BIN)/pip install --quiet --no-deps --target $(COMPILED) $(VENV)/wheels/kessen-*.whl; \
	else \
		echo "kessen: no C compiler on this machine: the engine runs as pure Python"; \
	fi

$(VENV)/.web-deps: $(BIN)/kessen
	$(BIN)/pip install --quiet -e '.[web]'
	touch $@

# The browser tests drive Debian's Chromium, and the Japanese page needs fonts with its glyphs.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list :lang=ja 2>/dev/null | grep -q .; then \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

run: $(BIN)/kessen compiled
	$(BIN)/kessen odds song-of-blades melee --format table --input examples/song-of-blades/melee.json
	$(BIN)/kessen battle $(EXAMPLE) --seed 7

test: $(VENV)/.test-deps compiled browser
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

serve: $(VENV)/.web-deps
	$(BIN)/kessen serve $(SERVE_ARGS)

# make bench BENCH="--section env": one section (see benchmarks/README.md)
bench: $(VENV)/.test-deps compiled
	$(BIN)/python -m benchmarks $(BENCH)

check-odds: $(BIN)/kessen
	for r in song-of-blades battlehost legions armies-clash; do ../shared/tools/check-odds $$r || exit 1; done

clean:
	rm -rf $(VENV) build src/*.egg-info
