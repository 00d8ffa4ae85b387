"""A game's effect vocabulary: the words a card's effects may use, their parameters and their printed text.

``cards/<game>/vocabulary.toml``::

    join = " "                      # how the texts of several effects are joined

    [words.steal]
    doc = "Take a card of the given kind that an opponent controls."
    text = "Steal target {{ what }}."   # jinja2; the parameters are variables
    example = { word = "steal", what = "item" }
    [words.steal.params]
    what = { type = "enum", values = ["item", "follower"] }

Text templates produce wizprint markup: ``**bold**``, ``*italic*``, ``:icon-name:`` and ``\\n`` for a new
paragraph. A parameter of type ``effects`` holds nested effects; ``{{ sub(then) }}`` renders them.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jinja2

from .model import Effect, FieldSpec, Record
from .schema import SpecError, check, parse_spec


@dataclass(frozen=True)
class Word:
    name: str
    params: tuple[FieldSpec, ...]
    required: tuple[str, ...]
    text: str
    doc: str
    example: Mapping[str, Any] | None


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"\u2212{-n}"


def _plural(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _lcfirst(s: str) -> str:
    """Lower-case the first letter, after any leading bold/italic markers ("**Test** ..." -> "**test** ...")."""
    i = 0
    while i < len(s) and s[i] == "*":
        i += 1
    return s[:i] + s[i:i + 1].lower() + s[i + 1:]


def _or_list(items: Any) -> str:
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _an(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


class Vocabulary:
    """The effect words of one game."""

    def __init__(self, game: str, words: dict[str, Word], join: str = " ", names: Mapping[str, str] | None = None):
        self.game = game
        self.words = words
        self.join = join
        self.names = dict(names or {})
        self._env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False)
        self._env.filters.update(signed=_signed, plural=_plural, cap=_cap, an=_an, or_list=_or_list, lcfirst=_lcfirst)
        self._templates: dict[str, jinja2.Template] = {}

    @classmethod
    def from_data(cls, game: str, data: Mapping[str, Any]) -> Vocabulary:
        words: dict[str, Word] = {}
        for name, w in dict(data.get("words", {})).items():
            params_data = dict(w.get("params", {}))
            optional = {k for k, v in params_data.items()
                        if isinstance(v, Mapping) and ("default" in v or v.get("optional"))}
            params = tuple(parse_spec(k, {kk: vv for kk, vv in v.items() if kk != "optional"}
                                      if isinstance(v, Mapping) else v) for k, v in params_data.items())
            required = tuple(k for k in params_data if k not in optional)
            words[name] = Word(name=name, params=params, required=required, text=str(w.get("text", "")),
                               doc=str(w.get("doc", "")), example=w.get("example"))
        return cls(game, words, str(data.get("join", " ")), data.get("names"))

    # -- checking ---------------------------------------------------------------------------------------------
    def check_effects(self, value: Any, where: str) -> tuple[tuple[Effect, ...], list[str]]:
        """Validate a list of effect tables; return the :class:`Effect` tuple and problems."""
        if not isinstance(value, (list, tuple)):
            return (), [f"{where} must be a list of effects like {{ word = \"...\" }}"]
        out: list[Effect] = []
        probs: list[str] = []
        for i, e in enumerate(value):
            here = f"{where}[{i + 1}]"
            if isinstance(e, Effect):
                out.append(e)
                continue
            if not isinstance(e, Mapping) or "word" not in e:
                probs.append(f"{here} must be a table with a 'word'")
                continue
            name = e["word"]
            word = self.words.get(name)
            if word is None:
                close = difflib.get_close_matches(str(name), list(self.words), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                probs.append(f"{here}: unknown effect word '{name}'{hint}")
                continue
            params: dict[str, Any] = {}
            specs = {p.name: p for p in word.params}
            for k, v in e.items():
                if k == "word":
                    continue
                spec = specs.get(k)
                if spec is None:
                    probs.append(f"{here}: '{name}' has no parameter '{k}' (it takes: {', '.join(specs) or 'none'})")
                    continue
                nv, p = check(spec, v, f"{here}.{k}", self.check_effects)
                params[k] = nv
                probs.extend(p)
            for r in word.required:
                if r not in e:
                    probs.append(f"{here}: '{name}' needs parameter '{r}'")
            for spec in word.params:
                if spec.name not in params and spec.default is not None:
                    params[spec.name] = spec.default
            out.append(Effect(str(name), params))
        return tuple(out), probs

    def check_self(self) -> list[str]:
        """Problems in the vocabulary itself: bad templates, examples that do not validate."""
        probs = []
        for w in self.words.values():
            try:
                self._template(w.name)
            except jinja2.TemplateSyntaxError as exc:
                probs.append(f"word '{w.name}': text template error: {exc.message}")
            if w.example is not None:
                effs, p = self.check_effects([w.example], f"word '{w.name}' example")
                probs.extend(p)
                if not p:
                    try:
                        self.render(effs, None)
                    except (jinja2.TemplateError, SpecError, TypeError, KeyError) as exc:
                        probs.append(f"word '{w.name}': example does not render: {exc}")
        return probs

    # -- rendering --------------------------------------------------------------------------------------------
    def _template(self, word: str) -> jinja2.Template:
        t = self._templates.get(word)
        if t is None:
            t = self._env.from_string(self.words[word].text)
            self._templates[word] = t
        return t

    def render_one(self, effect: Effect, record: Record | None = None) -> str:
        ctx: dict[str, Any] = dict(effect.params)
        ctx["card"] = record
        ctx["sub"] = lambda effs, sep=None: self.render(effs, record, sep)
        ctx["name_of"] = lambda cid: self.names.get(cid, cid)
        return self._template(effect.word).render(ctx).strip()

    def render(self, effects: Sequence[Effect], record: Record | None = None, sep: str | None = None) -> str:
        """The markup text of a list of effects."""
        parts = [self.render_one(e, record) for e in effects]
        return (self.join if sep is None else sep).join(p for p in parts if p)


def markdown(vocab: Vocabulary, title: str) -> str:
    """The vocabulary as a Markdown reference: each word's meaning, parameters, an example and its printed text.
    ``cards/<game>/VOCABULARY.md`` is this output (a test keeps it up to date)."""
    from .effects_text import fmt

    out = [f"# {title}", "",
           "Every effect of this game is written with these words (in `vocabulary.toml`); the card's printed text is "
           "rendered from them and the rules engine executes them. Generated by wizprint from `vocabulary.toml`: "
           "edit that file, not this one.", ""]
    for name in sorted(vocab.words):
        w = vocab.words[name]
        out.append(f"## `{name}`")
        out.append("")
        out.append(w.doc)
        out.append("")
        if w.params:
            out.append("| parameter | type | default |")
            out.append("|---|---|---|")
            for p in w.params:
                kind = p.type + (f" ({', '.join(v or '(none)' for v in p.values)})" if p.values else "")
                if p.min is not None or p.max is not None:
                    kind += f", {p.min if p.min is not None else ''}..{p.max if p.max is not None else ''}"
                default = "" if p.default is None else f"`{p.default!r}`"
                out.append(f"| `{p.name}` | {kind} | {default} |")
            out.append("")
        if w.example is not None:
            effs, probs = vocab.check_effects([w.example], "example")
            if not probs:
                out.append(f"Example: `{fmt(effs)}`")
                out.append("")
                out.append("> " + vocab.render(effs).replace("\n", "\n> "))
                out.append("")
    return "\n".join(out).rstrip() + "\n"
