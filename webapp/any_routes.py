"""The web app's routes for any registered game (:mod:`webapp.any_game`), beside Vigtavl's
own (:mod:`webapp.server`), behind the same gate, store, slots, think pool and token:

- ``POST /api/play`` ``{"game": "thrones", "seats": ["human", "random"], "seed": 7}``: a live
  game (``game`` defaults to ``vigtavl``, played here through the interface; at most one
  ``human`` seat; none for watching). Its answer carries the ``token``, also set as a cookie
  for the game's own addresses.
- ``GET /api/play/{id}?since=N``: the game as the person's seat sees it (with the token), or as
  a spectator (without), with the moves from decision N.
- ``POST /api/play/{id}/decide`` ``{"action": A}``: the person's decision, an action code of the
  legal list (the token needed); ``POST /api/play/{id}/advance``: one agent decision.
- ``POST /api/play/{id}/replay``: a finished game opened for replay;
  ``GET /api/play-replays/{id}/frames/{k}?seat=S``: the game after decision k as seat S saw it
  (no seat: a spectator).

Every refusal is one line of JSON with its status, as for Vigtavl's routes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from webapp.access import give_token, holds_token, owner
from webapp.any_game import AnyGame, AnyReplay
from webapp.guards import MAX_SEED
from games.registry import DEFAULT_GAME

router = APIRouter()


class NewAnyGame(BaseModel):
    game: str = DEFAULT_GAME
    seats: list[str]
    seed: int | None = Field(default=None, ge=0, lt=MAX_SEED)


class AnyDecision(BaseModel):
    action: int


async def any_game(key: str, request: Request) -> AnyGame:
    return request.app.state.store.game(key, AnyGame)


async def held_game(game: Annotated[AnyGame, Depends(any_game)]) -> AsyncIterator[AnyGame]:
    """The game, its lock held until the route returns (waited for on the event loop)."""
    async with game.held():
        yield game


Held = Annotated[AnyGame, Depends(held_game, scope="function")]


def viewer(request: Request, game: AnyGame) -> int | None:
    """The person's seat for the page holding the game's token; else a spectator (None)."""
    return game.human if game.human is not None and holds_token(request, game) else None


@router.post("/api/play")
async def new_any_game(req: NewAnyGame, request: Request, response: Response) -> dict[str, Any]:
    """A new game, made on a worker thread, a few at once and one per client (as Vigtavl's)."""
    client = request.client.host if request.client else ""
    async with request.app.state.starting.turn(client):
        return await run_in_threadpool(_new_any_game, req, request, response, client)


def _new_any_game(req: NewAnyGame, request: Request, response: Response, client: str) -> dict[str, Any]:
    game = AnyGame(req.game, req.seats, req.seed)
    key = request.app.state.store.add_game(game, client)
    give_token(response, game, f"/api/play/{key}")
    with game.lock:  # its id is not out yet: nobody else holds it
        return {"id": key, "token": game.token, **game.view(game.human)}


@router.get("/api/play/{key}")
def any_view(key: str, request: Request, game: Held, since: int = 0) -> dict[str, Any]:
    return {"id": key, **game.view(viewer(request, game), since)}


@router.post("/api/play/{key}/decide", dependencies=[Depends(owner)])
def any_decide(key: str, req: AnyDecision, game: Held, since: int = 0) -> dict[str, Any]:
    game.decide(req.action)
    return {"id": key, **game.view(game.human, since)}


@router.post("/api/play/{key}/advance")
async def any_advance(key: str, request: Request, game: Annotated[AnyGame, Depends(any_game)],
                      since: int = 0) -> dict[str, Any]:
    """One agent decision on the think pool, waited for without the game's lock or a worker."""
    async with game.held():
        thinking = await run_in_threadpool(game.start_advance, request.app.state.pool.submit)
    if thinking is not None:
        await asyncio.shield(asyncio.wrap_future(thinking))  # a cancelled request leaves the think be
    async with game.held():
        view = await run_in_threadpool(game.view, viewer(request, game), since)
    return {"id": key, "advanced": thinking is not None, **view}


@router.post("/api/play/{key}/replay")
def any_replay(game: Held, request: Request) -> dict[str, Any]:
    """A finished game opened for replay under an id of its own (the live id stays out)."""
    replay = AnyReplay(game)
    return {"id": request.app.state.store.add_replay(replay), **replay.summary()}


@router.get("/api/play-replays/{key}/frames/{frame}")
def any_replay_frame(key: str, frame: int, request: Request,
                     seat: Annotated[int | None, Query(ge=0, lt=8)] = None) -> dict[str, Any]:
    return {"id": key, **request.app.state.store.replay(key, AnyReplay).view(frame, seat)}
