"""The learner's progress: an SQLite file that lasts across runs.

The file is ``progress.sqlite3`` in :func:`tutor.engine.data.laugh_home` (``$LAUGH_HOME`` or the
platform's user data directory).  Its schema version is SQLite's ``PRAGMA user_version``
(:data:`SCHEMA_VERSION`); older files are migrated when opened.

- Every answer is one row of ``answers`` (a unique ``uid``, puzzle id, kind, themes, right or
  wrong, seconds taken, hints used, the puzzle's difficulty band, whether the answer was
  revealed), committed in its own transaction the moment it is graded, so a crash or Ctrl-C
  loses nothing already answered.  ``seconds`` is NULL when the answer was not typed at a
  terminal (piped input, an answer revealed): a missing time is missing, never 0.
- ``ratings`` keeps every Glicko-2 rating (:mod:`tutor.teaching.ratings`): the learner overall,
  per kind and per theme, and every puzzle band (kind x difficulty); ``rating_history`` each
  rating after every rated answer.  Both follow from the answers (:meth:`recompute_ratings`);
  :meth:`record_answer` updates them in the answer's own transaction.
- ``lessons`` keeps each lesson's state: the seed of the current attempt, the page reached, the
  answers given so far (so a lesson resumes with the same puzzles), and when it was completed.
- ``meta`` keeps small settings (the last lesson opened, the drills' best scores).

Schema 2 (this version) added the ``uid``, ``difficulty`` and ``revealed`` columns, a nullable
``seconds``, and the rating tables.  Migrating a schema 1 file keeps every answer: each gets a
``uid`` made from its contents (so two copies of one old file migrate to the same uids and
merge without duplicates), and a time under 0.2 s (a piped or revealed answer, which schema 1
recorded as about 0 s) becomes NULL.  Answers of schema 1 have no difficulty band and so move
no rating.

:meth:`merge` takes another store's answers, lessons and settings (``laugh progress import``):
answers are keyed by ``uid`` and never duplicated, and the ratings are recomputed from the
merged answers.

A file that is not a database, fails SQLite's integrity check, lacks a table or column, or holds a
value of the wrong type or invalid JSON in a column, is damaged: it is moved aside (nothing is
deleted) to ``progress.sqlite3.corrupt-<timestamp>`` beside it and a fresh one started;
:attr:`ProgressStore.notice` says so in one line for the caller to show.

A file that cannot be written (a read-only file or folder, a folder that cannot be created) is
never a Python error: the store reads what it can into memory and goes on without saving, and
:attr:`ProgressStore.notice` says in one line that progress cannot be saved and why.  Opened
with ``read_only=True`` (statistics), the store never writes to the file or its folder at all:
it works on a copy in memory.
"""

from tutor.teaching.progress._records import (Answer, LessonState, RatingChange, RatingPoint,
                                              SubjectRating, Tally)
from tutor.teaching.progress._schema import (FILE_NAME, LATEST_TIME, LONGEST_ANSWER,
                                             SCHEMA_VERSION)
from tutor.teaching.progress._store import ProgressStore, default_path

__all__ = ["FILE_NAME", "LATEST_TIME", "LONGEST_ANSWER", "SCHEMA_VERSION", "Answer",
           "LessonState", "ProgressStore", "RatingChange", "RatingPoint", "SubjectRating", "Tally",
           "default_path"]
