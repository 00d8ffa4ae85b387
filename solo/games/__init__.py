"""The rules engines: one package per game, named by the ``[engine]`` table of the game's ``game.toml`` and bound
to the loaded game by :func:`wizprint.solo.kernel.engine`. Nothing imports a game package except through that."""
