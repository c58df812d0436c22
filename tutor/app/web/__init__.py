"""The course in a browser: ``laugh web`` (one learner, their own progress) and ``laugh class
serve`` (a class joining by a short code), served by Starlette on uvicorn.

- :mod:`tutor.app.web.webio`: the I/O seam (:class:`tutor.teaching.io.LearnerIO`) for a page:
  what the lesson runner says becomes the items of the page, and each question it asks waits
  for the page's form to answer it;
- :mod:`tutor.app.web.lesson`: a lesson taken on a page, by the terminal's own runner
  (:class:`tutor.app.runner.LessonRunner`, so :func:`tutor.teaching.loop.ask` grades every
  answer on the server) in a thread of its own per learner;
- :mod:`tutor.app.web.server`: the pages and their routes, the learners and the class.

Nothing about a puzzle reaches the page but what the runner has said: its question and the
options to answer it with before an answer, the grade and the explanation after.
"""
