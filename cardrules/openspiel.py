"""Any cardrules ruleset as an OpenSpiel game: importing this registers "cardrules" with
pyspiel (the optional extra `cardrules[openspiel]`). See cardrules.adapters.openspiel and
docs/adapters.md."""

try:
    import pyspiel  # noqa: F401 - checked first, to say which extra is missing
except ImportError:
    raise ImportError("cardrules.openspiel needs OpenSpiel, which is not installed: "
                      "pip install 'cardrules[openspiel]'") from None

from cardrules.adapters.openspiel import (  # noqa: E402, F401 - the public names
    GAME_TYPE,
    SHORT_NAME,
    CardrulesGame,
    CardrulesState,
    RoundRollouts,
    load,
    register,
)
