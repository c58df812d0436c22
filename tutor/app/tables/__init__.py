"""Live tables: people play people (and computer players) on a network, the server the referee.

:mod:`~tutor.app.tables.protocol` (the message schema), :mod:`~tutor.app.tables.table` (one
table on a given clock), :mod:`~tutor.app.tables.tournament` (rounds and standings across
tables), :mod:`~tutor.app.tables.server` (the websockets server and its files),
:mod:`~tutor.app.tables.client` (a player's terminal, the organiser's view).  The commands are
``laugh table serve|join|watch`` (:mod:`tutor.app.commands.table`).
"""
