"""The tutor application: the home screen, the lesson runner, and the practice, sources and
statistics views.

Modules (each imported only when needed, so the home screen opens quickly):

- :mod:`tutor.app.io`: the :class:`~tutor.app.io.TutorAsker` (prompt_toolkit on a terminal with
  completion, validation in place and history; plain lines when piped) and :class:`Context`.
- :mod:`tutor.app.home`: the home screen and its menu.
- :mod:`tutor.app.runner`: taking a lesson, page by page.
- :mod:`tutor.app.puzzling`: posing one puzzle (hints, grading, explanation, recording).
- :mod:`tutor.app.markdown`: lesson prose (CommonMark, raw HTML off) as rich renderables.
- :mod:`tutor.app.blocks`: the engine blocks of a lesson (quote, rules, odds, simulate, cards).
- :mod:`tutor.app.views`: statistics, practice sets and the sources view.
"""
