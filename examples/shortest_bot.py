"""A cardrules seat in ten lines: --seats "cmd:python examples/shortest_bot.py,random"."""
import json
import sys

for line in sys.stdin:  # one JSON object a line: "start", then "decide"s, then "end"
    message = json.loads(line)
    if message["type"] == "decide":  # the only message that wants an answer
        # No search, no dice: the tersest action that names no card it cannot see.
        pick = min(message["legal"], key=lambda a: (None in a["args"], len(a["text"])))
        texts = [t["letters"][0] * t["shortest"] for t in pick.get("fill", [])]
        print(json.dumps({"index": pick["index"], "fill": texts}), flush=True)
