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
- ``meta`` keeps small settings (the last lesson opened, the drills' best scores: keys ending
  ``.best``, such as ``drill.oversights.storm.parlett.best``, which a merge keeps the higher of).
- ``sightings`` keeps the signal-detection figures of spotting oversights, one row each (a
  ``uid``, the context: ``play``, ``match`` or ``drill``, the oversight kind, the outcome:
  ``hit``, ``miss`` or ``false_claim``, a hit's seconds from claimable to named when typed at a
  terminal, the ruleset and the deal or puzzle it came from); :meth:`spotting` counts them per
  kind.  Schema 3 added it (an older file migrates with none).

Schema 2 (this version) added the ``uid``, ``difficulty`` and ``revealed`` columns, a nullable
``seconds``, and the rating tables.  Migrating a schema 1 file keeps every answer: each gets a
``uid`` made from its contents (so two copies of one old file migrate to the same uids and
merge without duplicates), and a time under 0.2 s (a piped or revealed answer, which schema 1
recorded as about 0 s) becomes NULL.  Answers of schema 1 have no difficulty band and so move
no rating.

:meth:`merge` takes another store's answers, lessons and settings (``laugh progress import``):
answers are keyed by ``uid`` and never duplicated, and the ratings are recomputed from the
merged answers.

A theme is kept in its one spelling (:func:`tutor.puzzles.themes.theme_id`) wherever an answer
comes in (recorded, merged, replayed from the journal, salvaged), and a file written before
that is respelled once when opened, its ratings rebuilt (:mod:`tutor.teaching.theme_names`),
so ``laid_down_dead_pair`` and ``laid-down-dead-pair`` are one theme with one rating.

Every value handed to the store is checked at its edge (:mod:`._values`): one SQLite cannot hold
(a 40-digit seed) or that the damage checks would later call damage (a time past the year 3000)
raises :class:`StoreValueError` in one line and nothing is written.

A file that is not a database, fails SQLite's integrity check, lacks a table or column, or holds a
value of the wrong type or invalid JSON in a column, is damaged: it is moved aside (nothing is
deleted) to ``progress.sqlite3.corrupt-<timestamp>`` beside it, a fresh one started, and every
answer, lesson state and setting that can still be read salvaged into it, the ratings recomputed
(:mod:`._salvage`); :attr:`ProgressStore.notice` says so in one line, with how many were kept
and how many could not be read, for the caller to show.

A file that is busy (another program holds its lock) or full loses nothing: each change that
cannot be written is kept in the journal ``progress.sqlite3.pending`` beside it and written, in
order, as soon as the file is free (:mod:`._keeping`, :mod:`._pending`); the store says so in
one line through :attr:`ProgressStore.notify`, and :meth:`ProgressStore.saved_since` tells how
many answers reached the file.  A file that cannot be written at all (a read-only file or
folder, a folder that cannot be created) is never a Python error: the store reads what it can
into memory and goes on without saving, and :attr:`ProgressStore.notice` says in one line that
progress cannot be saved and why.  Opened with ``read_only=True`` (statistics), the store never
writes to the file or its folder at all: it works on a copy in memory.

The package's modules: ``_store`` (the store and its opening), ``_reading`` (what it answers),
``_tallies`` (counts in SQL), ``_writes`` (every change as a record and its SQL), ``_keeping``
and ``_pending`` (changes kept while the file is busy), ``_merge``, ``_values`` (the edge),
``_schema`` (tables and migrations), ``_damage`` (the checks), ``_salvage`` (moving aside and
salvaging), ``_store_rows`` (what it hands out), ``_incoming`` (what comes in from outside: an
export's answers and the journal's lines, checked alike; offered as ``incoming``).
"""

from tutor.teaching.progress import _incoming as incoming
from tutor.teaching.progress._schema import (
    CONTEXTS,
    FILE_NAME,
    LATEST_TIME,
    LONGEST_ANSWER,
    OUTCOMES,
    SCHEMA_VERSION,
)
from tutor.teaching.progress._store import ProgressStore, SavedCount, default_path
from tutor.teaching.progress._store_rows import (
    Answer,
    LessonState,
    RatingChange,
    RatingPoint,
    Sighting,
    SpotFigures,
    SubjectRating,
    Tally,
)
from tutor.teaching.progress._values import StoreValueError

__all__ = [
    "CONTEXTS",
    "FILE_NAME",
    "LATEST_TIME",
    "LONGEST_ANSWER",
    "OUTCOMES",
    "SCHEMA_VERSION",
    "Answer",
    "LessonState",
    "ProgressStore",
    "RatingChange",
    "RatingPoint",
    "SavedCount",
    "Sighting",
    "SpotFigures",
    "StoreValueError",
    "SubjectRating",
    "Tally",
    "default_path",
    "incoming",
]
