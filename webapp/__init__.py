"""The web app: play Vigtavl against agents, watch agents play, replay results files.

``vigtavl serve [--port 8000] [--results DIR] [--model PATH] [--maps DIR] [--think-ms MS]
[--allow-host NAME]`` starts it (:func:`serve`). The parts: :mod:`.sessions` (live games),
:mod:`.replays` (results files read, their games replayed and analysed), :mod:`.vigtavl_web`
(the door to Vigtavl's own board and move views, ``vigtavl_env/web.py``, through the game
registry), :mod:`.any_game` and :mod:`.any_routes` (any game through the game interface),
:mod:`.hints` (the strongest agent's advice), :mod:`.store` (what the server keeps, bounded, and where agents
think), :mod:`.guards` (what it lets in: hosts, origins, sizes, model files, map files, agents'
time), :mod:`.files` (what it reads from the folders it was given: regular files inside them),
:mod:`.server` (the FastAPI routes), :mod:`.serving` (the socket, the address it prints, and
connections that never sit idle for ever), ``static/`` (the page: plain HTML, JavaScript and CSS, no build step).
"""

from webapp.server import create_app
from webapp.serving import serve

__all__ = ["create_app", "serve"]
