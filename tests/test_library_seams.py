"""The package reaches reportlab and jinja2 through their public face only: it imports no private module or name of
theirs, swaps no object's class, overrides no private method of their classes, and reads no private attribute of
their objects (a ``_``-prefixed name the package does not define itself). Read from the source, so a release of
either library that renames its insides cannot break a build or silently send it down another path."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ("core", "cards", "generator", "solo")  # the folders of the package wizprint (see pyproject.toml)
LIBRARIES = ("reportlab", "jinja2")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _sources() -> list[tuple[str, ast.Module]]:
    out = []
    for folder in PACKAGE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            out.append((path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))))
    assert len(out) > 100
    return out


SOURCES = _sources()


def _library(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in LIBRARIES


def _defined_names() -> set[str]:
    """Every name the package defines: functions, classes, variables, attributes it sets, parameters, names it
    imports as, and strings (setattr, __slots__)."""
    names: set[str] = set()
    for _, tree in SOURCES:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias) and not _library(node.name):
                names.add(node.asname or node.name.split(".")[-1])
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                names.add(node.value)
    return names


def _imports(tree: ast.Module) -> Iterator[tuple[str, str | None, str]]:
    """(module, imported name or None, the name it is bound to) of each import of a module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, None, a.asname or a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:
                yield node.module, a.name, a.asname or a.name


def test_no_private_module_or_name_of_reportlab_or_jinja2_is_imported() -> None:
    found = []
    for path, tree in SOURCES:
        for module, name, _ in _imports(tree):
            if _library(module) and (any(map(_private, module.split("."))) or (name is not None and _private(name))):
                found.append(f"{path}: {module}{'.' + name if name else ''}")
    assert not found


def test_no_object_has_its_class_swapped() -> None:
    found = []
    for path, tree in SOURCES:
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "__class__" and isinstance(node.ctx, ast.Store):
                found.append(f"{path}:{node.lineno}")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
                    and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
                    and node.args[1].value == "__class__"):
                found.append(f"{path}:{node.lineno}")
    assert not found


def _library_classes() -> dict[str, list[type]]:
    """The package's classes built on a class of reportlab or jinja2 (directly or through another of the
    package's), by name, with those library classes."""
    bases_of: dict[str, list[ast.expr]] = {}
    lib_names: dict[str, dict[str, type]] = {}  # module path -> name bound there -> library class
    for path, tree in SOURCES:
        bound: dict[str, type] = {}
        for module, name, as_name in _imports(tree):
            if _library(module) and name is not None:
                value = getattr(importlib.import_module(module), name, None)
                if isinstance(value, type):
                    bound[as_name] = value
        lib_names[path] = bound
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases_of[f"{path}:{node.name}"] = node.bases
    found: dict[str, list[type]] = {}
    changed = True
    while changed:  # a class built on one of the package's classes that is built on a library's
        changed = False
        for key, bases in bases_of.items():
            path, name = key.split(":")
            libs: list[type] = []
            for b in bases:
                if isinstance(b, ast.Name) and b.id in lib_names[path]:
                    libs.append(lib_names[path][b.id])
                elif isinstance(b, ast.Name):
                    libs.extend(cls for k, v in found.items() if k.endswith(f":{b.id}") for cls in v)
                elif isinstance(b, ast.Attribute) and _library(ast.unparse(b.value)):
                    value = getattr(importlib.import_module(ast.unparse(b.value)), b.attr, None)
                    if isinstance(value, type):
                        libs.append(value)
            if libs and found.get(key) != libs:
                found[key] = libs
                changed = True
    return found


def test_classes_built_on_reportlab_or_jinja2_override_and_read_no_private_name() -> None:
    defined = _defined_names()
    classes = _library_classes()
    assert any(name.endswith(":SafeEnvironment") for name in classes)  # jinja2's sandbox, extended
    found = []
    for path, tree in SOURCES:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef) or f"{path}:{node.name}" not in classes:
                continue
            libs = classes[f"{path}:{node.name}"]
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _private(item.name) and any(
                        hasattr(lib, item.name) for lib in libs):
                    found.append(f"{path}:{item.lineno}: {node.name} overrides {item.name}")
            for sub in ast.walk(node):
                if isinstance(sub, ast.Attribute) and _private(sub.attr) and sub.attr not in defined:
                    found.append(f"{path}:{sub.lineno}: {node.name} reads {ast.unparse(sub)}")
    assert not found


def test_no_private_attribute_the_package_does_not_define_is_read() -> None:
    """Any ``x._name`` the package reads is a name of its own (a library object's private attribute is not), or
    a documented one of a standard module (``os._exit``)."""
    defined = _defined_names()
    found = []
    for path, tree in SOURCES:
        modules = {as_name for module, name, as_name in _imports(tree) if name is None and not _library(module)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in defined:
                if isinstance(node.value, ast.Name) and node.value.id in modules:
                    continue
                found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    assert not found
