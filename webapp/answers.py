"""How ``vigtavl serve`` answers: JSON in ASCII, and every refusal or failure as one line.

:class:`JSON` is every route's response class: it writes the JSON in ASCII, so text that cannot
be encoded as UTF-8 (a lone surrogate, which an uploaded file may carry as ``"\\ud800"``, echoed
in a file's summary or a refusal) goes out as its escape, never as a 500. :func:`add_handlers`
answers a :class:`webapp.guards.WebError` with its status, a request of the wrong shape with
a 422, Starlette's own errors (a 404, a 405, a body too large or too slow) with theirs, and
anything else with a 500 that names the error's type, never its traceback: each
``{"error": "one line"}``.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from webapp.guards import WebError


class JSON(JSONResponse):
    """Every answer's JSON, written in ASCII (see the module's docstring)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


def _web_error(_: Request, e: WebError) -> JSON:
    return JSON({"error": str(e)}, status_code=e.status)


def _bad_shape(_: Request, e: RequestValidationError) -> JSON:
    first = e.errors()[0] if e.errors() else {}
    where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
    return JSON({"error": f"bad request: {where or 'body'}: {first.get('msg', 'malformed')}"}, status_code=422)


def _http_error(_: Request, e: StarletteHTTPException) -> JSON:
    return JSON({"error": str(e.detail)}, status_code=e.status_code)


def _server_error(_: Request, e: Exception) -> JSON:
    return JSON({"error": f"the server failed on this request ({type(e).__name__}); see its log"}, status_code=500)


def add_handlers(app: FastAPI) -> None:
    """Every error answered in one line of JSON (see the module's docstring)."""
    app.add_exception_handler(WebError, _web_error)
    app.add_exception_handler(RequestValidationError, _bad_shape)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _server_error)
