"""Who sits in a seat when no person does: bots (random, greedy, ismcts) that choose among the
legal actions from what their seat may know, programs speaking JSON lines, and the samplers of
what a seat does not know that the searches play in."""
