"""``kessen mcp``: kessen's tools for an assistant, over the Model Context Protocol on standard input and output
(issue 25 §4); needs the ``mcp`` extra (the official ``mcp`` SDK).

Modules: ``inputs`` (each tool's input model: its JSON Schema and its description are the tool's), ``scenarios``
(a scenario as a tool names it: a shipped name, a file's path, or TOML text), ``matches`` (the matches a server
holds, a bounded number), ``tools`` (every tool: what it calls and what it answers, refusals as one line),
``server`` (the SDK's server over stdio).

Every answer comes from what a Python user calls: ``kessen.odds``, :class:`kessen.Match`, ``kessen.simulate``, the
ruleset registry; the JSON of a match and of a simulation is the web page's (``kessen.web.views``,
``kessen.sim.report``). Nothing here holds a rule.
"""
