"""What every front end shows, made once: cards, tables, views, standings and round accounts
as text (render.py), and the lines a seat reads of its choices, the round and the rules
(lines.py). The terminal (cli/), the browser (web/) and the golden games lay these out; none
formats a rule or a standing of its own."""
