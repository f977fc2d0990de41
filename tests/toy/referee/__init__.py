"""The toy's engine: the race's state, its steps and their step table, notation and odds, and its Game."""
