"""The ``kessen`` console script with the toy race of tests/toy registered as ruleset ``toy`` (``kessen.rulesets.
register``, as a plug-in would), for CLI tests that must not depend on any real ruleset's notation: ``python -m
tests.cli.toy_cli play race.toml ...``. Its words are its own catalogues (tests/toy/i18n)."""

from __future__ import annotations

import sys

from kessen.rulesets import register

if __name__ == "__main__":
    register("toy", "tests.toy")
    from kessen.cli.main import main

    sys.argv[0] = "kessen"
    main()
