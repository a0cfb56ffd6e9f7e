"""Any cardrules ruleset as an OpenSpiel game: importing this registers "cardrules" with
pyspiel (the optional extra `cardrules[openspiel]`). See cardrules.adapters.openspiel and
docs/adapters.md."""

from cardrules.adapters.openspiel import (  # noqa: F401 - the public names
    GAME_TYPE,
    SHORT_NAME,
    CardrulesGame,
    CardrulesState,
    load,
    register,
)
