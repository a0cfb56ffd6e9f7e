"""cardrules for other frameworks: any ruleset as an OpenSpiel game or a PettingZoo environment.

`table` fixes, for one ruleset at one table size, the table of action ids (every action is
chosen in parts, each part an id of that table); `match` plays one game in those parts;
`observe` encodes what a seat may see as text and as a tensor. `openspiel` and `pettingzoo`
wrap these for their frameworks (the optional extras `cardrules[openspiel]` and
`cardrules[pettingzoo]`); docs/adapters.md describes the encodings.
"""
