"""Shared by the command-line modules: one clear line per user-caused error, never a traceback."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from wizprint.errors import MAX_SHOWN, DataErrors, WizprintError, more_line, one_line
from wizprint.processes import stop_code, stop_name

F = TypeVar("F", bound=Callable[..., Any])


def err(msg: str) -> None:
    """Print one line to stderr."""
    print(msg, file=sys.stderr, flush=True)


def friendly(fn: F) -> F:
    """Turn user-caused errors into one clear message per problem and a non-zero exit, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except DataErrors as exc:
            for issue in exc.issues[:MAX_SHOWN]:  # the first 50, then the count of the rest
                err(f"error: {issue}")
            n = exc.total
            if n > MAX_SHOWN:
                err(more_line(n - MAX_SHOWN))
            err(f"{n} problem{'s' if n != 1 else ''} found")
            raise typer.Exit(1) from None
        except WizprintError as exc:
            err(f"error: {one_line(str(exc), 4000)}")
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (wizprint.processes.Terminated)
            err("interrupted" if stop_name(stop) == "Ctrl-C" else f"stopped ({stop_name(stop)})")
            raise typer.Exit(stop_code(stop)) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None

    return wrapper  # type: ignore[return-value]
