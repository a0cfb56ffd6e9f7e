"""Playing any ruleset in the browser: `cardrules serve` (needs the `web` extra)."""
