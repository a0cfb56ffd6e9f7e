"""`cardrules lsp`: a language server for rule files, over stdio (the `lsp` extra, pygls).

It runs the compiler's own stages on the text being edited and answers an editor's
questions from what they found: diagnostics, hover, completion, definitions, references,
renames and an outline. It never runs a game.
"""
