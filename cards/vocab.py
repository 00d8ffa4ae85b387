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

Every template that comes from data (these texts, layout values, reference sheets) renders in a
:class:`SafeEnvironment`: jinja2's sandbox with no globals, only the filters the layouts use, a short list of
methods that may be called, and limits on loops, output, sizes and nesting. A template that reaches a name
starting with ``_`` (``__class__``, ``__globals__``), a name the template cannot see (``os``), loads another
template or defines a macro is refused when it is compiled, before anything runs.
"""

from __future__ import annotations

import difflib
import re
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.exceptions import SecurityError, TemplateRuntimeError, TemplateSyntaxError
from jinja2.filters import make_attrgetter
from jinja2.sandbox import SandboxedEnvironment

from wizprint.errors import DataErrors, Issue, quote

from .lines import TomlLines
from .model import Effect, FieldSpec, Record
from .schema import (
    FIELD_NAME,
    MAX_EFFECT_DEPTH,
    Anything,
    Doc,
    SpecError,
    Str,
    Table,
    TableOf,
    check,
    check_data,
    field_name_key,
    parse_spec,
    schema_issues,
)

# -- the sandbox for templates from data ----------------------------------------------------------------------

MAX_TEMPLATE_LEN = 20_000  # characters of one template
MAX_TEMPLATE_DEPTH = 30  # nesting of a template's blocks and expressions
MAX_LOOP_STEPS = 200_000  # loop iterations of one render (nested renders included)
MAX_OUTPUT = 200_000  # characters a render may produce, or any string or list it builds
MAX_ITEMS = 10_000  # items a template may add to a list or a table
MAX_RENDER_DEPTH = 16  # templates rendering templates (an effect's text rendering nested effects)
MAX_INT_BITS = 4096  # the size of a whole number a template may compute

# the filters the shipped layouts use (jinja2's own that are kept, then wizprint's); nothing else is available
KEPT_FILTERS = frozenset({"capitalize", "first", "format", "groupby", "join", "last", "length", "list", "map",
                          "reverse", "selectattr", "string", "sum", "upper"})
# the methods a template may call, by the type of the object they belong to; nothing else of Python is callable
SAFE_METHODS: tuple[tuple[type, frozenset[str]], ...] = (
    (str, frozenset({"split", "rsplit", "replace", "strip", "lstrip", "rstrip", "lower", "upper", "title",
                     "capitalize", "startswith", "endswith", "count", "find", "rfind", "join", "splitlines",
                     "isdigit", "isalpha", "isupper", "islower", "partition", "rpartition"})),
    (dict, frozenset({"get", "items", "keys", "values", "setdefault"})),
    (list, frozenset({"append", "index", "count"})),
    (tuple, frozenset({"index", "count"})),
)
_WIDE_FORMAT = re.compile(r"%[-#0 +]*(\*|\d{4,}|\d*\.(\*|\d{4,}))|\{[^{}]*:[^{}]*\d{4,}")


class _Budget(threading.local):
    depth = 0
    steps = 0

    def __init__(self) -> None:
        self.words: list[str] = []  # the effect words being rendered, outermost first (to name a loop)


class RenderLoop(TemplateRuntimeError):
    """Templates rendering templates too deep; ``words``: the effect words being rendered then, outermost first."""

    def __init__(self, message: str, words: tuple[str, ...]):
        super().__init__(message)
        self.words = words


_budget = _Budget()


def _check_format(fmt: str) -> None:
    if _WIDE_FORMAT.search(fmt):
        raise SecurityError("a format with a width or precision of more than 3 digits is not allowed")


def _each(seq: Any) -> Iterator[Any]:
    """The items of ``seq``, each counted against the render's loop budget."""
    for x in seq:
        _budget.steps += 1
        if _budget.steps > MAX_LOOP_STEPS:
            raise SecurityError(f"the template loops more than {MAX_LOOP_STEPS:,} times")
        yield x


def _size(value: Any, budget: int = MAX_OUTPUT) -> int:
    """About how many characters ``str(value)`` would take, counted only up to a little over ``budget`` (so that a
    list of a thousand long texts is refused before it is written out, not after)."""
    total = 0
    stack = [value]
    while stack and total <= budget:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v) + 2
        elif isinstance(v, Mapping):
            total += 2 * len(v) + 2
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple, set, frozenset)):
            total += 2 * len(v) + 2
            stack.extend(v)
        else:
            total += 24
    return total


def _check_size(value: Any) -> Any:
    if not isinstance(value, (str, int, float)) and _size(value) > MAX_OUTPUT:
        raise _too_long("a text")
    return value


def _format_filter(value: Any, *args: Any, **kwargs: Any) -> str:
    _check_format(str(value))
    _check_size(list(args))
    result: str = jinja2.filters.do_format(value, *args, **kwargs)
    return result


@jinja2.pass_eval_context
def _join_filter(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> str:
    items = list(_each(value))
    if attribute is not None:
        items = [make_attrgetter(eval_ctx.environment, attribute)(x) for x in items]
    if _size(items) + len(str(d)) * len(items) > MAX_OUTPUT:
        raise _too_long("a text")
    result: str = jinja2.filters.sync_do_join(eval_ctx, items, d)
    return result


@jinja2.pass_environment
def _sum_filter(env: Any, value: Any, attribute: Any = None, start: Any = 0) -> Any:
    items = list(_each(value))
    if attribute is not None:
        items = [make_attrgetter(env, attribute)(x) for x in items]
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (*items, start)):
        raise TemplateRuntimeError("sum adds numbers only")
    return sum(items, start)


def _string_filter(value: Any) -> str:
    return str(_check_size(value))


def _bounded(node: nodes.Node) -> nodes.Node:
    """``a ~ b`` as ``[a, b]|_cat``: a join that counts against the render's budget."""
    if isinstance(node, nodes.Concat):
        return nodes.Filter(nodes.List(list(node.nodes), lineno=node.lineno), "_cat", [], [], None, None,
                            lineno=node.lineno)
    return node


def _check_tree(tree: nodes.Node, known: frozenset[str] | None) -> None:
    """Refuse what a template from data may not do, before it is compiled to code (TemplateSyntaxError), and
    rewrite its loops and ``~`` (in place) so that they count against the render's budget."""
    assigned: set[str] = set()
    loads: list[nodes.Name] = []
    stack: list[tuple[nodes.Node, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        line = getattr(node, "lineno", 1) or 1
        if depth > MAX_TEMPLATE_DEPTH:
            raise TemplateSyntaxError(f"the template nests more than {MAX_TEMPLATE_DEPTH} deep", line)
        attr = None
        if isinstance(node, nodes.Getattr):
            attr = node.attr
        elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            attr = node.arg.value
        if attr is not None and attr.startswith("_"):
            raise TemplateSyntaxError(f"the template reaches {quote(attr)}: names starting with _ are not allowed",
                                      line)
        if isinstance(node, (nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
            raise TemplateSyntaxError("a template may not load other templates", line)
        if isinstance(node, (nodes.Macro, nodes.CallBlock)):
            raise TemplateSyntaxError("a template may not define macros", line)
        if isinstance(node, nodes.For):
            if node.recursive:
                raise TemplateSyntaxError("recursive loops are not allowed", line)
            node.iter = nodes.Filter(node.iter, "_each", [], [], None, None, lineno=node.lineno)
        if isinstance(node, nodes.Name):
            if node.ctx == "load":
                loads.append(node)
            else:
                assigned.add(node.name)
        for field in node.fields:
            value = getattr(node, field, None)
            if isinstance(value, nodes.Node):
                value = _bounded(value)
                setattr(node, field, value)
                stack.append((value, depth + 1))
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, nodes.Node):
                        value[i] = item = _bounded(item)
                        stack.append((item, depth + 1))
    if known is not None:
        for name in loads:
            if name.name not in known and name.name not in assigned and name.name != "loop":
                raise TemplateSyntaxError(f"unknown name {quote(name.name)} (a template here sees only "
                                          f"{', '.join(sorted(known))})", name.lineno or 1)


def _too_long(what: str) -> SecurityError:
    return SecurityError(f"a template may not build {what} of more than {MAX_OUTPUT:,} items")


class SafeEnvironment(SandboxedEnvironment):
    """jinja2's sandbox for templates that come from data (see the module's docstring). ``known`` names the
    variables a template may use (None: any), checked when a template is compiled."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, known: Iterable[str] | None = None, **options: Any):
        options.setdefault("undefined", jinja2.StrictUndefined)
        super().__init__(autoescape=False, optimized=False, finalize=_check_size, **options)
        self.globals.clear()
        self.filters = {k: v for k, v in self.filters.items() if k in KEPT_FILTERS}
        self.filters.update(format=_format_filter, join=_join_filter, sum=_sum_filter, string=_string_filter,
                            signed=_signed, plural=_plural, cap=_cap, an=_an, or_list=_or_list, lcfirst=_lcfirst,
                            _each=_each, _cat=self._cat)
        self.known = frozenset(known) if known is not None else None
        self.concat = self._concat  # type: ignore[method-assign]

    # -- compiling: refuse before anything runs --------------------------------------------------------------
    def compile(self, source: str | nodes.Template, name: str | None = None, filename: str | None = None,
                raw: bool = False, defer_init: bool = False) -> Any:
        """jinja2's compile, through which every template and expression passes (from_string,
        compile_expression): a template too long, nesting too deeply or reaching what it may not is refused
        (TemplateSyntaxError) before any code is made, and its loops and ``~`` are bounded (see _check_tree)."""
        source_hint = source if isinstance(source, str) else None
        try:
            if isinstance(source, str):
                if len(source) > MAX_TEMPLATE_LEN:
                    raise TemplateSyntaxError(f"the template is {len(source):,} characters long, more than "
                                              f"{MAX_TEMPLATE_LEN:,}", 1, name, filename)
                try:
                    source = self.parse(source, name, filename)
                except RecursionError:
                    raise TemplateSyntaxError("the template nests too deeply", 1, name, filename) from None
            _check_tree(source, self.known)  # refuses, and bounds loops and ~ in place
            try:
                if raw:  # jinja2's Python code (its two overloads)
                    return super().compile(source, name, filename, True, defer_init)
                return super().compile(source, name, filename, False, defer_init)
            except (RecursionError, SyntaxError, MemoryError):
                raise TemplateSyntaxError("the template nests too deeply", 1) from None
        except TemplateSyntaxError:
            self.handle_exception(source=source_hint)

    def compile_expression(self, source: str, undefined_to_none: bool = True
                           ) -> jinja2.environment.TemplateExpression:
        if len(source) > MAX_TEMPLATE_LEN:
            raise TemplateSyntaxError(f"the expression is {len(source):,} characters long, more than "
                                      f"{MAX_TEMPLATE_LEN:,}", 1)
        try:
            return super().compile_expression(source, undefined_to_none)
        except RecursionError:
            raise TemplateSyntaxError("the expression nests too deeply", 1) from None

    # -- running: only listed methods, bounded work ------------------------------------------------------------
    def wrap_str_format(self, value: Any) -> None:
        return None  # str.format is not among the methods a template may call

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(__obj, type):
            raise SecurityError("a template may not call a class")
        if isinstance(__obj, types.BuiltinMethodType):
            owner = getattr(__obj, "__self__", None)
            name = __obj.__name__
            allowed = next((names for t, names in SAFE_METHODS if isinstance(owner, t)), frozenset())
            if owner is None or isinstance(owner, types.ModuleType) or name not in allowed:
                raise SecurityError(f"a template may not call {name}() of {type(owner).__name__}")
            if name in ("append", "setdefault") and len(owner) >= MAX_ITEMS:
                raise SecurityError(f"a template may not build a list or table of more than {MAX_ITEMS:,} items")
            if name == "replace" and len(args) > 1 and isinstance(args[0], str) and isinstance(args[1], str):
                hits = owner.count(args[0]) if args[0] else len(owner) + 1
                if len(owner) + hits * len(args[1]) > MAX_OUTPUT:
                    raise _too_long("a text")
            if name == "join" and args:
                items = list(_each(args[0]))
                if _size(items) + len(owner) * len(items) > MAX_OUTPUT:
                    raise _too_long("a text")
                args = (items, *args[1:])
        return super().call(__context, __obj, *args, **kwargs)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        seq = (str, list, tuple)
        if operator == "*":
            if isinstance(left, seq) or isinstance(right, seq):
                n, s = (right, left) if isinstance(left, seq) else (left, right)
                if isinstance(n, int) and isinstance(s, seq) and len(s) * max(n, 0) > MAX_OUTPUT:
                    raise _too_long("a text or list")
            elif isinstance(left, int) and isinstance(right, int) and (
                    left.bit_length() + right.bit_length() > MAX_INT_BITS):
                raise SecurityError("a template may not compute a number that large")
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and (
                    left.bit_length() * right > MAX_INT_BITS):
                raise SecurityError("a template may not compute a number that large")
        elif operator == "+":
            if isinstance(left, seq) and isinstance(right, seq) and len(left) + len(right) > MAX_OUTPUT:
                raise _too_long("a text or list")
        elif operator == "%" and isinstance(left, str):
            _check_format(left)
            _check_size(right)
        return super().call_binop(context, operator, left, right)

    @staticmethod
    def _cat(parts: Iterable[Any]) -> str:
        texts = [str(_check_size(p)) for p in parts]
        if sum(map(len, texts)) > MAX_OUTPUT:
            raise _too_long("a text")
        return "".join(texts)

    @staticmethod
    def _concat(pieces: Iterable[str]) -> str:
        out: list[str] = []
        append = out.append
        n = 0
        for piece in pieces:
            n += len(piece)
            if n > MAX_OUTPUT:
                raise SecurityError(f"the template writes more than {MAX_OUTPUT:,} characters")
            append(piece)
        return "".join(out)

    def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call a compiled template or expression: loop steps count from the outermost render, nested renders
        are limited, and an error of Python inside the template becomes a :class:`TemplateRuntimeError`."""
        budget = _budget
        depth = budget.depth
        if depth == 0:
            budget.steps = 0
        elif depth >= MAX_RENDER_DEPTH:
            raise RenderLoop(f"templates render templates more than {MAX_RENDER_DEPTH} deep (does a text render "
                             "itself?)", tuple(budget.words))
        budget.depth = depth + 1
        try:
            return fn(*args, **kwargs)
        except jinja2.TemplateError:
            raise
        except RecursionError:
            raise TemplateRuntimeError("templates nest too deeply (does a text render itself?)") from None
        except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as exc:
            raise TemplateRuntimeError(str(exc) or type(exc).__name__) from None
        finally:
            budget.depth = depth

    def render(self, template: jinja2.Template, ctx: Mapping[str, Any]) -> str:
        """``template`` rendered with ``ctx`` under :meth:`run`."""
        result: str = self.run(template.render, ctx)
        return result


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


VOCAB_NAMES = ("card", "sub", "name_of")  # what an effect's text sees besides its parameters


def _word_name(value: str) -> str | None:
    if not FIELD_NAME.match(value):
        return f"word name {quote(value)} must be a letter then up to 63 letters, digits, '_' or '-'"
    return None


WORD_FILE = Table({"doc": (Doc(), ""), "text": (Str(MAX_TEMPLATE_LEN), ""),
                   "example": (TableOf(Anything(), most=1_000), None),
                   "params": (TableOf(Anything(), key=field_name_key), {})})
VOCABULARY_FILE = Table({"join": (Str(100), " "), "words": (TableOf(WORD_FILE, key=_word_name), {}),
                         "names": (TableOf(Str(200), most=10_000), {})})
"""The schema of ``vocabulary.toml``: the words, how their texts are joined, and names for ids (optional)."""


# Compiled word templates, shared by every vocabulary of the process: a game loaded again (a check's workers, a
# validated copy of a folder) compiles none of its texts again. Kept by the text and the names it may use (what the
# compiled code depends on); a text that does not compile raises each time and is not kept.
_VOCAB_ENV = SafeEnvironment(keep_trailing_newline=False)
_COMPILED: dict[tuple[str, frozenset[str]], jinja2.Template] = {}
_COMPILE_LOCK = threading.Lock()  # ``known`` is the environment's while it compiles (a cluster worker has threads)
MAX_COMPILED = 4096  # templates kept (all cleared when full)


def compiled_template(source: str, known: frozenset[str]) -> jinja2.Template:
    """The template of a word's text, compiled once per process for its text and the names it may use."""
    key = (source, known)
    t = _COMPILED.get(key)
    if t is None:
        with _COMPILE_LOCK:
            _VOCAB_ENV.known = known
            t = _VOCAB_ENV.from_string(source)
            if len(_COMPILED) >= MAX_COMPILED:
                _COMPILED.clear()
            _COMPILED[key] = t
    return t


class Vocabulary:
    """The effect words of one game."""

    def __init__(self, game: str, words: dict[str, Word], join: str = " ", names: Mapping[str, str] | None = None,
                 source: str = "vocabulary.toml", lines: TomlLines | None = None):
        self.game = game
        self.source = source  # the file, as messages name it, and the lines of its keys
        self.lines = lines or TomlLines("")
        self.words = words
        self.join = join
        self.names = dict(names or {})
        self._env = _VOCAB_ENV
        self._templates: dict[str, jinja2.Template] = {}
        # the game folder has no vocabulary file: an unknown word is then collected in ``unknown_words`` (for one
        # problem naming the missing file) instead of being a problem of its effect
        self.missing = False
        self.unknown_words: set[str] = set()

    @classmethod
    def load(cls, game: str, data: Mapping[str, Any], shown: str = "vocabulary.toml", lines: TomlLines | None = None
             ) -> tuple[Vocabulary | None, list[Issue]]:
        """A vocabulary from its TOML data, or None and one issue per problem (at its line in ``shown``)."""
        lines = lines or TomlLines("")
        vf, problems = check_data(VOCABULARY_FILE, data)
        if problems:
            return None, schema_issues(problems, shown, lines)
        issues: list[Issue] = []
        words: dict[str, Word] = {}
        for name, w in vf.words.items():
            optional = {k for k, v in w.params.items()
                        if isinstance(v, Mapping) and ("default" in v or v.get("optional"))}
            params: list[FieldSpec] = []
            for k, v in w.params.items():
                try:
                    params.append(parse_spec(k, {kk: vv for kk, vv in v.items() if kk != "optional"}
                                             if isinstance(v, Mapping) else v))
                except SpecError as exc:
                    issues.append(Issue(shown, lines.line(("words", name, "params", k)), "", f"word '{name}': {exc}"))
            required = tuple(k for k in w.params if k not in optional)
            words[name] = Word(name=name, params=tuple(params), required=required, text=w.text, doc=w.doc,
                               example=w.example)
        if issues:
            return None, issues
        return cls(game, words, vf.join, vf.names, shown, lines), []

    @classmethod
    def from_data(cls, game: str, data: Mapping[str, Any]) -> Vocabulary:
        """A vocabulary from its TOML data; a problem raises :class:`SpecError` (see :meth:`load`)."""
        vocab, issues = cls.load(game, data)
        if vocab is None:
            raise SpecError("; ".join(i.message for i in issues[:5]))
        return vocab

    # -- checking ---------------------------------------------------------------------------------------------
    def check_effects(self, value: Any, where: str, depth: int = 0) -> tuple[tuple[Effect, ...], list[str]]:
        """Validate a list of effect tables; return the :class:`Effect` tuple and problems. Effects nest at most
        :data:`MAX_EFFECT_DEPTH` deep."""
        if not isinstance(value, (list, tuple)):
            return (), [f"{where} must be a list of effects like {{ word = \"...\" }}"]
        if depth >= MAX_EFFECT_DEPTH:
            return (), [f"{where}: effects nest more than {MAX_EFFECT_DEPTH} deep"]

        def nested(v: Any, w: str) -> tuple[tuple[Effect, ...], list[str]]:
            return self.check_effects(v, w, depth + 1)

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
            word = self.words.get(name) if isinstance(name, str) else None
            if word is None and self.missing and isinstance(name, str):
                self.unknown_words.add(name)
                continue
            if word is None:
                close = difflib.get_close_matches(name, list(self.words), n=1) if isinstance(name, str) and len(
                    name) <= 64 else []
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                probs.append(f"{here}: unknown effect word {quote(name)}{hint}")
                continue
            params: dict[str, Any] = {}
            specs = {p.name: p for p in word.params}
            for k, v in e.items():
                if k == "word":
                    continue
                spec = specs.get(k)
                if spec is None:
                    probs.append(f"{here}: '{name}' has no parameter {quote(k)} (it takes: "
                                 f"{', '.join(specs) or 'none'})")
                    continue
                if spec.default is not None and type(v) is type(spec.default) and v == spec.default:
                    params[k] = v  # the value the word declares as its default (as a CSV export writes it)
                    continue
                nv, p = check(spec, v, f"{here}.{k}", nested)
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
        """Problems in the vocabulary itself: bad or unsafe templates, examples that do not validate or render."""
        probs = []
        for w in self.words.values():
            try:
                self._template(w.name)
            except jinja2.TemplateSyntaxError as exc:
                probs.append(f"word '{w.name}': text template error: {exc.message}")
                continue
            if w.example is not None:
                effs, p = self.check_effects([w.example], f"word '{w.name}' example")
                probs.extend(p)
                if not p:
                    try:
                        self.render(effs, None)
                    except (jinja2.TemplateError, SpecError) as exc:
                        probs.append(f"word '{w.name}': example does not render: {exc}")
        return probs

    # -- rendering --------------------------------------------------------------------------------------------
    def _template(self, word: str) -> jinja2.Template:
        t = self._templates.get(word)
        if t is None:
            w = self.words[word]
            known = frozenset((*VOCAB_NAMES, *(p.name for p in w.params)))
            t = self._templates[word] = compiled_template(w.text, known)
        return t

    def render_one(self, effect: Effect, record: Record | None = None) -> str:
        """The markup text of one effect. A word whose text renders itself (through ``sub`` of the card's own
        effects, say) is a problem of the vocabulary: :class:`DataErrors` at the line of that word's text."""
        ctx: dict[str, Any] = dict(effect.params)
        ctx["card"] = record
        ctx["sub"] = lambda effs, sep=None: self.render(effs, record, sep)
        ctx["name_of"] = lambda cid: self.names.get(cid, cid)
        if effect.word not in self.words:
            raise TemplateRuntimeError(f"unknown effect word {quote(effect.word)}")
        words = _budget.words
        outermost = not words
        words.append(effect.word)
        try:
            return self._env.render(self._template(effect.word), ctx).strip()
        except RenderLoop as exc:
            if outermost and (loop := _loop(exc.words)):
                raise DataErrors([self._loop_issue(loop)]) from None
            raise
        finally:
            words.pop()

    def _loop_issue(self, loop: tuple[str, ...]) -> Issue:
        """The problem of a loop of words rendering words, at the text of the word that closes it (the one whose
        text renders the first word again). Its effects' own parameters are data and cannot loop, so that text
        renders effects of the card; the same for every card that uses the word (one problem, not one a card)."""
        word = loop[-2]
        return Issue(self.source, self.lines.line(("words", word, "text")), "",
                     f"word '{word}': its text renders itself again (through the card's own effects), a loop that "
                     f"never ends")

    def render(self, effects: Sequence[Effect], record: Record | None = None, sep: str | None = None) -> str:
        """The markup text of a list of effects (nested renders are limited: a text that renders itself is a
        :class:`jinja2.TemplateRuntimeError`, not a RecursionError)."""
        def one(e: Any) -> str:
            if not isinstance(e, Effect):
                raise TemplateRuntimeError(f"{quote(e)} is not an effect")
            return self.render_one(e, record)

        parts = [one(e) for e in effects]
        joiner = self.join if sep is None else str(sep)
        return joiner.join(p for p in parts if p)


def _loop(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The first cycle in a chain of words rendering words (``('a', 'b', 'a')``), None when no word repeats."""
    seen: dict[str, int] = {}
    for i, w in enumerate(words):
        if w in seen:
            return words[seen[w]: i + 1]
        seen[w] = i
    return None


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
