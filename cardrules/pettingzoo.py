"""Any cardrules ruleset as a PettingZoo AEC environment: `env("golf6", players=4)` (the
optional extra `cardrules[pettingzoo]`). See cardrules.adapters.pettingzoo and
docs/adapters.md."""

try:
    import pettingzoo  # noqa: F401 - checked first, to say which extra is missing
except ImportError:
    raise ImportError("cardrules.pettingzoo needs PettingZoo, which is not installed: "
                      "pip install 'cardrules[pettingzoo]'") from None

from cardrules.adapters.pettingzoo import CardrulesEnv, env, raw_env  # noqa: E402, F401
