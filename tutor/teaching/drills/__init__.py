"""Timed drills (``laugh drill KIND``, and the home screen's drill menu).

- :mod:`tutor.teaching.drills.registry`: the drills, their settings and menu entries (what
  ``laugh drill`` and the home screen read);
- :mod:`tutor.teaching.drills.base`: what every drill shares
  (:class:`~tutor.teaching.drills.base.Drill`);
- :mod:`tutor.teaching.drills.oversights`: spot and claim, or pass: streak and storm;
- :mod:`tutor.teaching.drills.count`: the card-counting trainer;
- :mod:`tutor.teaching.drills.settle`: rapid settlement arithmetic;
- :mod:`tutor.teaching.drills.weak`: practise weak spots, chosen by FSRS (:mod:`tutor.teaching.spaced_review`).

Every drill talks to the learner through the I/O seam (:mod:`tutor.teaching.io`: its reads and
its clock), so tests inject both, and records each graded answer in the progress store.  This
package imports no drill: each is loaded when it runs (start-up time).
"""
