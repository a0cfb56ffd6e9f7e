"""Games as people and programs hold them: playing a game to its end with bots, saved games
as replay records, simulations of many games, and event logs that keep little."""
