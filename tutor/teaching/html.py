"""Every HTML page the program writes, through one Jinja2 environment with autoescaping on.

The templates are in ``tutor/teaching/templates/`` (shipped in the wheel with the package):
worksheets, the teacher's class pack, the class report and the match score sheets.  Every value
a template shows is escaped by Jinja2 unless it is :class:`markupsafe.Markup`, and only three
helpers make Markup, each from text they have escaped themselves:

- :func:`quote_markup`: a quotation's own bold, emphasis and code as tags, its words escaped
  (:func:`tutor.puzzles.quoted.quote_spans`: nothing else from a source becomes markup);
- :func:`inline_markup`: puzzle text (a question, an answer) with its backtick code spans as
  ``<code>``, everything else escaped;
- :func:`tutor.teaching.prose.prose_html`: a lesson's CommonMark prose rendered by
  markdown-it-py with raw HTML off (a lesson's ``<script>`` is shown as text).

So no name from a progress export, no lesson file and no source file can put markup into a page;
and every value is shown through :func:`shown`, so none can put a control, bidi or format
character into one either.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

from tutor.engine.safetext import printable

__all__ = ["environment", "inline_markup", "paragraphs_markup", "quote_markup", "render", "shown"]

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)


def quote_markup(text: str) -> Markup:
    """A quotation's stored text as HTML: its own bold, emphasis (and cited titles) and code as
    ``<strong>``, ``<em>`` and ``<code>``; its words escaped; no other markup from the source."""
    from tutor.puzzles.quoted import quote_spans

    out = []
    for span in quote_spans(text):
        piece = str(escape(span.text))
        if span.code:
            piece = f"<code>{piece}</code>"
        if span.italic:
            piece = f"<em>{piece}</em>"
        if span.bold:
            piece = f"<strong>{piece}</strong>"
        out.append(piece)
    return Markup("".join(out))


def code_spans(text: str) -> list[tuple[str, bool]]:
    """``text`` split into ``(words, is_code)`` runs at its backtick code spans."""
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in _CODE_SPAN.finditer(text):
        if m.start() > pos:
            out.append((text[pos : m.start()], False))
        out.append((m.group(2).strip() or m.group(2), True))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def inline_markup(text: str) -> Markup:
    """Puzzle text (a question, an answer, an explanation line) as HTML: its code spans as
    ``<code>``, everything else escaped."""
    return Markup(
        "".join(
            f"<code>{escape(w)}</code>" if code else str(escape(w)) for w, code in code_spans(text)
        )
    )


def paragraphs_markup(text: str) -> Markup:
    """Text in blank-line separated paragraphs of lines (code spans as ``<code>``, the rest
    escaped), each paragraph a ``<p>``, its lines joined by ``<br>``."""
    out = []
    for para in str(text).split("\n\n"):
        lines = [str(inline_markup(line)) for line in para.splitlines() if line.strip()]
        if lines:
            out.append("<p>" + "<br>\n".join(lines) + "</p>")
    return Markup("\n".join(out))


def _percent(value: float | None, digits: int = 0) -> str:
    return "" if value is None else f"{100 * value:.{digits}f}%"


def shown(value):
    """Every ``{{ }}`` value of a page as it is shown (the environment's ``finalize``): its
    control, bidi and format characters written as escapes
    (:func:`tutor.engine.safetext.printable`), before autoescaping.  Markup that a helper made
    stays markup: the escapes are letters, digits and backslashes, nothing HTML reads."""
    if isinstance(value, Markup):
        return Markup(printable(str(value)))
    if isinstance(value, str):
        return printable(value)
    return value


@lru_cache(maxsize=1)
def environment():
    """The Jinja2 environment: templates from ``tutor/teaching/templates``, autoescaping on for
    every template, every value shown through :func:`shown` (no control, bidi or format
    character from data reaches a page raw), undefined names an error, and the filters
    ``quote`` (:func:`quote_markup`), ``inline`` (:func:`inline_markup`), ``paragraphs``
    (:func:`paragraphs_markup`) and ``percent`` (a share 0..1 as a whole percentage)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("tutor.teaching", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=shown,
    )
    env.filters.update(
        quote=quote_markup, inline=inline_markup, paragraphs=paragraphs_markup, percent=_percent
    )
    return env


def render(template: str, **context) -> str:
    """The page ``template`` (a file name in ``tutor/teaching/templates``) rendered with
    ``context``.  Raises :class:`jinja2.TemplateError` for a template mistake (a bug)."""
    return environment().get_template(template).render(**context)
