"""Any cardrules ruleset as a PettingZoo AEC environment: `env("golf6", players=4)` (the
optional extra `cardrules[pettingzoo]`). See cardrules.adapters.pettingzoo and
docs/adapters.md."""

from cardrules.adapters.pettingzoo import CardrulesEnv, env, raw_env  # noqa: F401
