"""The teaching room: the course and the learner.

Lessons as data (:mod:`.lessons`), the progress store (:mod:`.progress`), reviews scheduled by
FSRS (:mod:`.review`), drills (:mod:`.drills`) and printable worksheets (:mod:`.worksheet`).
Teaching asks the puzzles and the engine; it never imports from the app room.
"""
