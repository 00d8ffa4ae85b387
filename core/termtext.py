"""Text from a file, made safe to show on a terminal: :func:`safe_text`.

A terminal obeys the control characters and escape sequences in what it is sent: a window title set (``ESC ] 0 ;
... BEL``), the screen cleared (``ESC [ 2 J``), colours and cursor moves, a line rewritten from its start (a
carriage return), text reversed by a bidirectional override (U+202E). Every text that comes from a file (a saved
game's log, a card's name, a scenario's title, a message quoting a value) goes through :func:`safe_text` before a
command prints it, so a shared file can only ever show its words. What wizprint's own code prints (rich's colours,
the play screen's rules) is made after that and is not touched; letters, accents, dashes and symbols are kept.
"""

from __future__ import annotations

import re

# the escape sequences a terminal obeys, each removed whole (not only its ESC): CSI (colours, cursor moves,
# clearing), the strings ended by a string terminator or BEL (OSC: the window title, links; DCS, SOS, PM, APC),
# and the other escapes (ESC c resets the terminal); then every control character left (C0 but tab and line
# feed, DEL, C1), the bidirectional controls that reorder what is shown after them, and the line and paragraph
# separators
_CONTROL = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


def safe_text(text: str) -> str:
    """``text`` without any control sequence or control character a terminal would act on (tabs and line breaks
    are kept): what a file holds can be shown, never obeyed.

    >>> safe_text("P2 \\x1b]0;pwned\\x07casts \\x1b[31mFireball\\x1b[0m")
    'P2 casts Fireball'
    >>> safe_text("Légende — 3\\u202e2\\r")
    'Légende — 32'
    """
    if text.isprintable():  # nearly every text: nothing to remove (every character removed is not printable)
        return text
    return _CONTROL.sub("", text)
