"""Who may decide in a live game: the page that started it, by the game's own token.

A live game's id is in the page's address, so it lets one look and ask agents to move, nothing
more. Its token comes back when the game is made, in the answer and in an ``HttpOnly``,
``SameSite=Strict`` cookie sent only to the game's own addresses; an API client sends it as the
:data:`TOKEN_HEADER` header. Vigtavl's routes (:mod:`webapp.server`) and the other games'
(:mod:`webapp.any_routes`) both check it here.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import Request, Response

from webapp.guards import WebError

OWNER_COOKIE = "vigtavl-owner"  # a game's own token, for its person's decisions and undos
TOKEN_HEADER = "x-game-token"  # the same token, sent by a client that keeps no cookies


def holds_token(request: Request, game: Any) -> bool:
    """The request carries ``game``'s token (the cookie or the header)."""
    given = request.headers.get(TOKEN_HEADER) or request.cookies.get(OWNER_COOKIE) or ""
    return secrets.compare_digest(given.encode("utf-8", "replace"), game.token.encode())


async def owner(key: str, request: Request) -> None:
    """The request holds the game's own token, else 403 (a dependency of the routes that decide)."""
    if not holds_token(request, request.app.state.store.game(key)):
        raise WebError("only the page that started this game may decide or undo in it (its token is missing "
                       "or wrong); start a game of your own", 403)


def give_token(response: Response, game: Any, path: str) -> None:
    """The game's token as a cookie that only the game's own addresses (``path``) receive."""
    response.set_cookie(OWNER_COOKIE, game.token, path=path, httponly=True, samesite="strict")
