"""The tutor application (the top room): the command line, its commands, the home screen, the
lesson runner, and the practice, sources and statistics views.

- :mod:`tutor.app.cli`: ``laugh``; the standard streams made safe, one line for every error the
  program raises on purpose, the exit statuses.
- :mod:`tutor.app.commands`: one module per subcommand.  Each builds what it shows (renderables,
  data, or a session run by a function with explicit arguments); its argparse handler prints
  that, and the home screen calls the same functions.
- :mod:`tutor.app.io`: the :class:`~tutor.app.io.TutorAsker` (prompt_toolkit on a terminal with
  completion and history; a refused answer explained whole and asked again on an empty line;
  plain lines when piped), the :class:`~tutor.app.io.Context` every screen shares, and
  :func:`~tutor.app.io.menu` (an entry by its number, letter or word).
- :mod:`tutor.app.clock`: clocks (terminal, virtual for piped input, fake for tests), prompts
  with a time limit, and the live countdown every timed prompt shows.
- :mod:`tutor.app.home`: the home screen and its menu.
- :mod:`tutor.app.runner`: taking a lesson, page by page.
- :mod:`tutor.app.puzzling`: posing one puzzle (hints, grading, explanation, recording).
- :mod:`tutor.app.markdown`: lesson prose (CommonMark, raw HTML off) as rich renderables.
- :mod:`tutor.app.blocks`: the engine blocks of a lesson (quote, rules, odds, simulate, cards).
- :mod:`tutor.app.views`: statistics, practice sets and the sources view.
- :mod:`tutor.app.play`: practice deals against computer players.

The views, the lesson runner, the drills and the play package are imported when first used
(each such import says so), so that the home screen appears quickly.
"""
