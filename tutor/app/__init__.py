"""The tutor application (the top room): the command line, its commands, the home screen, the
lesson runner, and the practice, sources and statistics views.

- :mod:`tutor.app.cli`: ``laugh``; the standard streams made safe, one line for every error the
  program raises on purpose, the exit statuses.
- :mod:`tutor.app.commands`: one module per subcommand, imported by the command line alone.
  Each parses its arguments and calls a function of the room that owns the work (a session of
  :mod:`tutor.app.sessions` or :mod:`tutor.app.matches`, a view), the function the home screen
  calls too.
- :mod:`tutor.app.sessions`: a drill, practice deals, and the ruleset, seed and store a session
  starts with; :mod:`tutor.app.matches`: a saved, resumable match; :mod:`tutor.app.source_pages`:
  what ``laugh sources`` shows.
- :mod:`tutor.app.std_streams`: the standard streams made safe (closed, full, ``| head``, ASCII
  fallback), the rich console, whether suit symbols can be shown.
- :mod:`tutor.app.learner_io`: the two implementations of the I/O seam
  (:class:`tutor.teaching.io.LearnerIO`): :class:`~tutor.app.learner_io.TerminalIO` (rich and
  prompt_toolkit: completion, history, timed prompts with a live countdown, the claim key) and
  :class:`~tutor.app.learner_io.ScriptedIO` (piped standard input, or a test's script).
- :mod:`tutor.app.clock`: the clocks (terminal, virtual for piped input, fake for tests) and
  the countdown line every timed prompt shows.
- :mod:`tutor.app.context`: the :class:`~tutor.app.context.Context` every screen shares (the
  seam, the progress store, glyphs), :func:`~tutor.app.context.menu` (an entry by its number,
  letter or word) and :func:`~tutor.app.context.run_guarded`.
- :mod:`tutor.app.home`: the home screen and its menu.
- :mod:`tutor.app.runner`: taking a lesson, page by page.
- :mod:`tutor.app.puzzling`: posing one puzzle on a screen (the learner loop of
  :mod:`tutor.teaching.loop` with the screen's store, lesson and slot).
- :mod:`tutor.app.markdown`: lesson prose (CommonMark, raw HTML off) as rich renderables.
- :mod:`tutor.app.blocks`: the engine blocks of a lesson (quote, rules, odds, simulate, cards).
- :mod:`tutor.app.views`: statistics, practice sets and the sources view.
- :mod:`tutor.app.play`: practice deals against computer players.

The views, the lesson runner, the drills and the play package are imported when first used
(each such import says so), so that the home screen appears quickly.
"""
