"""The web page and its JSON API (issue 11), served by ``kessen serve``; needs the ``web`` extra.

Modules: ``app`` (the FastAPI app: routes, static files, ``/docs``), ``api`` (the JSON API: rulesets, odds,
scenarios), ``errors`` (refusals as ``{"error": line}``), ``limits`` (the body-size limit), ``assets`` (static files
held in memory), ``texts`` (the page's catalogues, ``text/*.toml``), ``store`` (SQLite: matches and simulations),
``server`` (uvicorn). The page itself is ``static/``: HTML, CSS and JavaScript modules, no build step.

It calls what a Python user calls (``kessen.odds``, the ruleset registry, ``kessen.io.scenarios``); no rule is
written here or in the page's JavaScript.
"""
