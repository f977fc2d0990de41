"""kessen's benchmarks: speed measured side by side with a reference, reported as ratios (`make bench`).

Modules: harness (timing, cases, tables), odds (exact odds against an expert's icepool expression),
sampling (batched draws against numpy's raw dice), limits (worst valid inputs: seconds and memory, each
in a fresh subprocess), and one module per ruleset named after its package (``song_of_blades``) that
supplies that ruleset's cases. A ruleset without such a module is listed as having no cases yet.

Nothing here asserts a timing; the only failure is a reference that disagrees with kessen's exact odds.
"""
