"""The simulators `robinson simulate --engine` can run (kept apart so the CLI can list them
without loading the compiled one)."""

ENGINES = ("fast", "python")
