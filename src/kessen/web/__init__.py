"""The web page and its JSON API (issue 11), served by ``kessen serve``; needs the ``web`` extra.

Modules: ``app`` (the FastAPI app: routes, pages, static files, ``/docs``, its lifespan), ``api`` (rulesets, odds,
scenarios), ``match_api`` (matches: start, state, choose, undo, save, load, replay, events files), ``simulation_api``
(simulations), ``playing`` (matches kept as saves in the store and live in memory), ``replays`` (a save replayed into
boards), ``views`` (a match as JSON, with the catalogues' words), ``simulations`` (the background runner and its
results), ``scenarios`` (a request's scenario: a shipped name or TOML text), ``errors`` (refusals as
``{"error": line}``), ``limits`` (the body-size limit), ``assets`` (static files held in memory), ``texts`` (the
page's catalogues, ``text/*.toml``), ``store`` (SQLite: matches and simulations), ``server`` (uvicorn).

The page itself is ``static/``: HTML, CSS and JavaScript modules, no build step: ``js/odds.js`` (the calculator),
``js/viewer.js``, ``js/play.js`` and ``js/simulate.js`` (the battle pages), ``js/board.js`` (the board as SVG).

It calls what a Python user calls (``kessen.odds``, :class:`kessen.Match`, ``kessen.sim``'s simulation, the ruleset
registry); no rule, turn sequence or odds is computed here or in the page's JavaScript.
"""
