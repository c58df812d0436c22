"""What a lesson's ``coach`` block says of each situation, held to the course: the situations
a stop may name (:data:`SITUATIONS`), a :class:`Stop` (the lesson page that teaches it, the
words on that page the coach shows, the quotations it may quote), a page's words from a phrase
(:func:`page_words`) and its quotations (:func:`page_quotes`), and what is wrong with a stop
against the course (:func:`stop_problems`, said by ``laugh lessons check``).  The situations
themselves are found by :mod:`tutor.teaching.coach`, which re-exports these names."""

from __future__ import annotations

import re

from tutor.teaching.lessons._model import Block, Segment, Stop, page_heading

#: The situations in the order a deal usually meets them: id -> the coach's heading (ours).
SITUATIONS: dict[str, str] = {
    "table-mournival": "A mournival dealt to the table",
    "declare": "A prial or a mournival in hand",
    "capture": "Your first capture",
    "table-prial": "A prial on the table",
    "dead-pair": "A dead pair",
    "lie-down": "Lying down",
    "claim": "An oversight to claim",
    "end": "The end of play",
    "settlement": "The settlement",
}


def page_words(lesson, heading: str, phrase: str) -> tuple[int, str] | None:
    """``(page, words)``: the page of ``lesson`` (a :class:`tutor.teaching.lessons.Lesson`)
    whose first heading is ``heading`` (0-based), and its prose from ``phrase`` to the end of
    the paragraph that holds it, with the list that follows it if one does (CommonMark, as
    written).  None when there is no such page or the phrase is not in its prose."""
    for i, page in enumerate(lesson.pages):
        if page_heading(page) != heading:
            continue
        for item in page:
            if not isinstance(item, Segment):
                continue
            paras = item.text.split("\n\n")
            for k, para in enumerate(paras):
                flat = " ".join(para.split())
                at = flat.find(phrase)
                if at < 0:
                    continue
                words = [flat[at:]]
                for nxt in paras[k + 1 :]:
                    if not _LIST.match(nxt.lstrip()):
                        break
                    words.append(nxt.strip("\n"))
                return i, "\n\n".join(words)
        return None
    return None


_LIST = re.compile(r"(\d+\.|[-*+]) ")


def page_quotes(lesson, page: int) -> set[str]:
    """The quotations (``source:id``) quoted on ``page`` of ``lesson``."""
    return {
        r
        for item in lesson.pages[page]
        if isinstance(item, Block) and item.kind == "quote"
        for r in item.quote()["refs"]
    }


def stop_problems(stop: Stop, lessons: dict) -> list[str]:
    """What is wrong with ``stop`` against the course (``lessons``: id -> loaded lesson), each
    in a few words: an unknown lesson, a page it does not have, a phrase not on that page, a
    quotation not quoted there, an advice quoted in no lesson."""
    lesson = lessons.get(stop.lesson)
    if lesson is None:
        return [f"'{stop.lesson}' is not a lesson of the course (lessons: {', '.join(lessons)})"]
    pages = [h for h in (page_heading(p) for p in lesson.pages) if h]
    if stop.page not in pages:
        return [f"lesson '{stop.lesson}' has no page '{stop.page}' (pages: {'; '.join(pages)})"]
    got = page_words(lesson, stop.page, stop.phrase)
    if got is None:
        return [f"the page '{stop.page}' of lesson '{stop.lesson}' has no words '{stop.phrase}'"]
    quoted = page_quotes(lesson, got[0])
    out = [
        f"'{r}' is not quoted on the page '{stop.page}' of lesson '{stop.lesson}'"
        for r in stop.quotes
        if r not in quoted
    ]
    if stop.advice and not any(stop.advice in x.quotes for x in lessons.values()):
        out.append(f"the advice '{stop.advice}' is quoted in no lesson of the course")
    return out
