"""wizprint: print-and-play card games from one card database, and a solo engine to play them.

This folder, ``core/``, is the package ``wizprint`` itself. ``pyproject.toml`` (``[tool.setuptools]``,
``package-dir``) maps the repository's top-level folders into one package, so that the folders keep the design's
names and nothing but ``wizprint`` is installed: ``core/`` is ``wizprint``, ``cards/`` is ``wizprint.cards``,
``layouts/`` is ``wizprint.layouts``, ``generator/`` is ``wizprint.generator`` and ``solo/`` is ``wizprint.solo``.
``wizprint.errors`` is the file ``core/errors.py``.

Here is what every layer shares: the command line (``cli.py``; ``clitools.py``, which the solo commands share), the
errors (``errors.py``), safe reading and writing of files (``files.py``, ``atomic.py``, ``finite.py``), worker
processes and stopping (``processes.py``), progress (``progress.py``), terminal text (``termtext.py``), the shipped
data's place (``resources.py``) and ``wizprint validate`` (``validation.py``).
"""

from __future__ import annotations

__version__ = "0.1.0"
