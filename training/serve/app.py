"""``yuugi serve``: a local web table to play any of the games against CPU levels in a browser.

:func:`create_app` builds the ASGI app (Starlette); :func:`serve` runs it on uvicorn, bound to
127.0.0.1 and a free port by default, and prints the link. The pages are plain HTML, SVG and JS shipped
in the package (``static/``): ``/`` chooses a game, a level and a seat and creates a table; ``/t/ID``
is a table, which talks to the server over one websocket (``/ws/ID``). The server keeps the tables in
memory, so reloading ``/t/ID`` resumes the table, and several tables play at once.

The websocket protocol: the server sends ``{"type": "state", ...}`` (see
:meth:`~yuugi.training.serve.tables.TableSession.message`) on connecting and after every move, to every
browser on that table; the browser sends ``{"type": "move", "action": A, "turn": T}``. A move that is
not legal now, was made for another turn, or is not JSON at all is answered ``{"type": "refused",
"message": ...}`` and changes nothing.
"""
from __future__ import annotations

import asyncio
import json
import socket
import sys
from pathlib import Path
from typing import Any, Mapping

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from yuugi.agents.registry import available_levels, level_names
from yuugi.envs import available_games, make_game

from .tables import MoveRefused, Tables, TableSession

STATIC = Path(__file__).parent / "static"


def create_app(games: list[str] | None = None, level: str = "normal", opponent: Any = None,
               rules: Mapping[str, Any] | None = None, seed: int | None = None) -> Starlette:
    """The ASGI app. ``games``: the games offered (default: every available game); ``level``: the CPU
    level chosen by default; ``opponent``: a policy for every CPU seat instead of a level (anything
    :func:`yuugi.agents.adapters.as_policy` accepts; then ``games`` must name one game); ``rules``: rule
    options for every table; ``seed``: the seed of the first table (later ones draw theirs)."""
    offered = list(games) if games else available_games()
    if opponent is not None and len(offered) != 1:
        raise ValueError("an opponent policy plays one game: give games=[GAME]")
    base_rules = dict(rules or {})
    tables = Tables()
    first_seed = [seed]
    levels_cache: dict[str, list[str]] = {}

    def levels(game: str) -> list[str]:
        if game not in levels_cache:
            try:
                levels_cache[game] = available_levels(game, **base_rules)
            except Exception:  # noqa: BLE001 - a game whose levels cannot be listed still offers random
                levels_cache[game] = ["random"]
        return levels_cache[game]

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html", media_type="text/html")

    async def api_games(request: Request) -> Response:
        out = []
        for g in offered:
            players = (await run_in_threadpool(make_game, g, **base_rules)).num_players
            lv = ["your policy"] if opponent is not None else await run_in_threadpool(levels, g)
            out.append({"name": g, "players": players, "levels": lv,
                        "default_level": lv[0] if opponent is not None else (level if level in lv else lv[-1])})
        return JSONResponse({"games": out})

    async def api_new_table(request: Request) -> Response:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "send JSON: {\"game\": NAME, \"level\": LEVEL, \"seat\": N}"}, 400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "send a JSON object"}, 400)
        game = body.get("game", offered[0])
        if game not in offered:
            return JSONResponse({"error": f"unknown game {game!r}; games: {offered}"}, 400)
        lv = body.get("level", level)
        if opponent is None and (not isinstance(lv, str) or lv not in level_names(game)):
            return JSONResponse({"error": f"unknown level {lv!r} for {game}; levels: {levels(game)}"}, 400)
        seat = body.get("seat", 0)
        table_seed = body.get("seed", first_seed[0])
        first_seed[0] = None
        if type(seat) is not int or (table_seed is not None and type(table_seed) is not int):
            return JSONResponse({"error": "seat and seed must be integers"}, 400)
        try:
            session = await run_in_threadpool(lambda: TableSession(
                game, seat=seat, level=lv, opponent=opponent, seed=table_seed, rules=dict(base_rules)))
        except (ValueError, TypeError) as e:  # OptionError is a ValueError: a bad seat or level
            return JSONResponse({"error": str(e)}, 400)
        tables.add(session)
        return JSONResponse({"id": session.table_id, "url": f"/t/{session.table_id}"})

    watchers: dict[str, set[WebSocket]] = {}

    async def send_all(session: TableSession) -> None:
        msg = session.message()
        for ws in list(watchers.get(session.table_id, ())):
            try:
                await ws.send_json(msg)
            except Exception:  # noqa: BLE001 - a browser gone away stops watching
                watchers[session.table_id].discard(ws)

    async def table_socket(ws: WebSocket) -> None:
        await ws.accept()
        table_id = ws.path_params["table_id"]
        session = tables.get(table_id)
        if session is None:
            await ws.send_json({"type": "error", "message": f"no table {table_id!r} on this server (tables live in "
                                                            "the server's memory: start a new one)"})
            await ws.close(code=4404)
            return
        watchers.setdefault(table_id, set()).add(ws)
        try:
            await ws.send_json(await run_in_threadpool(session.message))
            while True:
                text = await ws.receive_text()
                try:
                    data = json.loads(text)
                except (json.JSONDecodeError, ValueError):
                    await ws.send_json({"type": "refused", "message": "not JSON: send {\"type\": \"move\", "
                                                                      "\"action\": A, \"turn\": T}"})
                    continue
                try:
                    await run_in_threadpool(session.move, data)
                except MoveRefused as e:
                    await ws.send_json({"type": "refused", "message": str(e), "turn": session.turn})
                    continue
                await send_all(session)
        except WebSocketDisconnect:
            pass
        finally:
            watchers.get(table_id, set()).discard(ws)

    routes = [
        Route("/", index),
        Route("/t/{table_id}", table_page),
        Route("/api/games", api_games),
        Route("/api/tables", api_new_table, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.tables = tables
    return app


def free_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one the system picks)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def serve(host: str = "127.0.0.1", port: int = 0, games: list[str] | None = None, level: str = "normal",
          opponent: Any = None, rules: Mapping[str, Any] | None = None, seed: int | None = None,
          open_browser: bool = False, log_level: str = "warning") -> None:
    """Run the web tables until interrupted: bind ``host``:``port`` (port 0: a free one), print the link."""
    import uvicorn

    app = create_app(games=games, level=level, opponent=opponent, rules=rules, seed=seed)
    sock = free_socket(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    print(f"yuugi serve: play at {url}  (Ctrl-C stops the server; its tables live in its memory)", flush=True)
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(app, log_level=log_level, ws="websockets-sansio"))
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        print("yuugi serve: stopped", file=sys.stderr)
