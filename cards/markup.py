"""wizprint markup: ``**bold**``, ``*italic*``, ``:icon:``, ``\\n`` paragraphs, ``\\`` escapes.

>>> [w for w in words("**Ward 2.** Stops :d6: damage")][0]
[Frag(text='Ward', bold=True, italic=False, icon='')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

_ICON = re.compile(r":([a-z0-9][a-z0-9-]*):")


@dataclass(frozen=True)
class Frag:
    """A piece of a word: styled text, or an icon (``icon`` set, ``text`` empty)."""

    text: str
    bold: bool = False
    italic: bool = False
    icon: str = ""


def fragments(markup: str) -> Iterator[Frag | None]:
    """Yield fragments; ``None`` marks a paragraph break. Spaces come as their own fragments."""
    bold = italic = False
    buf: list[str] = []
    i, n = 0, len(markup)

    def flush() -> Iterator[Frag]:
        if buf:
            text = "".join(buf)
            buf.clear()
            for part in re.split(r"( +)", text):
                if part:
                    yield Frag(" " if part.startswith(" ") else part, bold, italic)

    while i < n:
        ch = markup[i]
        if ch == "\\" and i + 1 < n:
            buf.append(markup[i + 1])
            i += 2
            continue
        if ch == "\n":
            yield from flush()
            yield None
            i += 1
            continue
        if markup.startswith("**", i):
            yield from flush()
            bold = not bold
            i += 2
            continue
        if ch == "*":
            yield from flush()
            italic = not italic
            i += 1
            continue
        if ch == ":":
            m = _ICON.match(markup, i)
            if m:
                yield from flush()
                yield Frag("", bold, italic, icon=m.group(1))
                i = m.end()
                continue
        if ch in "\t\r":
            ch = " "
        buf.append(ch)
        i += 1
    yield from flush()


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
WIDTH = 70  # a card's rules text inline, on one line of a terminal
_COUNTED = re.compile(r"\b(\d+|an?)( extra)? $")


def plural(n: int, word: str, many: str = "") -> str:
    """``1 card``, ``2 cards``, ``0 cards`` (``many``: an irregular plural)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def dice(n: int) -> str:
    """``a die``, ``two dice``, ``three dice``."""
    return "a die" if n == 1 else f"{NUMBERS[n] if n < len(NUMBERS) else n} dice"


def short(text: str, width: int = WIDTH) -> str:
    """``text`` on one line of at most ``width`` characters, cut at a word and ending in "…" when cut."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[:width - 1]
    if " " in cut[width // 2:]:
        cut = cut[:cut.rindex(" ")]
    return cut.rstrip(" ,;:.") + "…"


def spoken(markup: str) -> str:
    """Markup as words on one line (for a terminal): styling dropped; an icon the next word already names is dropped
    (``:life: Life``), one that stands for its word is spelt out (``spend 2 :influence: each``, ``Roll :die:.``)."""
    frags = list(fragments(markup))
    out: list[str] = []
    dropped = False  # an icon was just dropped: the space after it goes too
    run = 0  # die icons side by side: ":die::die::die:" reads "three dice"
    for i, f in enumerate(frags):
        if f is not None and f.icon == "die" and i + 1 < len(frags) and (nxt := frags[i + 1]) is not None \
                and nxt.icon == "die":
            run += 1
            continue
        if f is None:
            out.append(" ")
        elif not f.icon:
            if not (dropped and f.text == " "):
                out.append(f.text)
            dropped = False
        else:
            n, run = run + 1, 0
            word = dice(n) if f.icon == "die" else f.icon.split("-")[-1]
            counted = _COUNTED.search("".join(out)) if f.icon == "die" else None
            if counted:  # "Roll 3 :die:", "1 extra :die:", "an extra :die:": the number is said already
                word = "die" if counted.group(1) in ("1", "a", "an") else "dice"
            after = ""  # the next word's text, if a word follows in the paragraph
            for g in frags[i + 1:]:
                if g is None or g.text != " ":
                    after = g.text if g is not None else ""
                    break
            dropped = bool(after) and after.lower().startswith(word)
            if not dropped:
                out.append(word)
    return " ".join("".join(out).split())


def paragraphs(markup: str) -> list[list[list[Frag]]]:
    """Markup as paragraphs of words; each word is a list of fragments with no space between them."""
    paras: list[list[list[Frag]]] = [[]]
    word: list[Frag] = []
    for f in fragments(markup):
        if f is None:
            if word:
                paras[-1].append(word)
                word = []
            paras.append([])
        elif f.text == " " and not f.icon:
            if word:
                paras[-1].append(word)
                word = []
        else:
            word.append(f)
    if word:
        paras[-1].append(word)
    return paras


def words(markup: str) -> Iterator[list[Frag]]:
    for p in paragraphs(markup):
        yield from p


def plain(markup: str) -> str:
    """Markup without styling; icons as their names in brackets (for CSV and logs)."""
    out = []
    for f in fragments(markup):
        if f is None:
            out.append("\n")
        elif f.icon:
            out.append(f"[{f.icon}]")
        else:
            out.append(f.text)
    return "".join(out)
