"""One module per puzzle kind, each holding one :class:`~tutor.puzzles.base.PuzzleKind`
subclass: its generator, its grader, its completion words, its wrong-answer example and the facts
its explanation is filled with.  The kinds never import one another; :mod:`tutor.puzzles.registry`
lists them.  Their wording is in ``puzzles/<kind>.yaml``.
"""
