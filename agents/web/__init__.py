"""The web app: play Vigtavl against agents, watch agents play, replay results files.

``vigtavl serve [--port 8000] [--results DIR] [--model PATH]`` starts it (:func:`serve`). The
parts: :mod:`.view` (an engine state as JSON for the page), :mod:`.sessions` (live games and
replays), :mod:`.server` (the FastAPI routes), ``static/`` (the page: plain HTML, JavaScript and
CSS, no build step).
"""

from agents.web.server import create_app, serve

__all__ = ["create_app", "serve"]
