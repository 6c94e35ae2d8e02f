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

ninja daifugō has a screen of its own (``static/daifugo.html``, ``daifugo.js``): before the match the
lobby chooses the school (流派) and up to two ninjutsu with their levels, sent as ``"loadout"`` with the
new table (the faithful table's seat-0 loadout, so the person sits at seat 0); the state messages carry
the seat's view and the public events (see :mod:`yuugi.training.serve.daifugo`). ``create_app(positions=
True)`` also lets ``POST /api/tables`` start a table from a ``"position"`` (the game's ``from_position``
format: every hand is in it, so a server for people leaves it off; the tests script positions with it).

The career (:mod:`yuugi.training.serve.career`): with ``create_app(career=PATH)`` (``serve`` uses the
user's data directory) every game the person finishes at the faithful daifugō table's seat 0 earns
修行ポイント; ``GET /api/career`` is the 道場's state, ``POST /api/career/level_up {"jutsu": NAME}`` raises a
ninjutsu, ``POST /api/career/buy {"kind": KIND, "item": NAME}`` buys a cosmetic (a table colour, a card
back) and ``POST /api/career/choose`` (the same body) wears an owned one, ``POST /api/career/reset
{"confirm": true}`` starts a new career; a loadout may use each ninjutsu up to the level reached. Every
page (``static/looks.js``) draws with the cosmetics in use. A career file that is refused (corrupt, newer) leaves the tables playable and
the lobby saying why, with the reset.
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

from .career import Career, CareerError
from .tables import MoveRefused, Tables, TableSession

STATIC = Path(__file__).parent / "static"


def create_app(games: list[str] | None = None, level: str = "normal", opponent: Any = None,
               rules: Mapping[str, Any] | None = None, seed: int | None = None, positions: bool = False,
               career: str | Path | Career | None = None) -> Starlette:
    """The ASGI app. ``games``: the games offered (default: every available game); ``level``: the CPU
    level chosen by default; ``opponent``: a policy for every CPU seat instead of a level (anything
    :func:`yuugi.agents.adapters.as_policy` accepts; then ``games`` must name one game); ``rules``: rule
    options for every table; ``seed``: the seed of the first table (later ones draw theirs); ``positions``:
    accept a starting ``"position"`` with a new table (it shows every hand: for tests and demonstrations);
    ``career``: the career file (or an open :class:`Career`) the daifugō games are written to (None: none)."""
    offered = list(games) if games else available_games()
    if opponent is not None and len(offered) != 1:
        raise ValueError("an opponent policy plays one game: give games=[GAME]")
    base_rules = dict(rules or {})
    tables = Tables()
    first_seed = [seed]
    careers = CareerHolder(career)
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
        session = tables.get(request.path_params["table_id"])
        page = "daifugo.html" if session is not None and session.game_name == "ninja_daifugo" else "table.html"
        return FileResponse(STATIC / page, media_type="text/html")

    async def font(request: Request) -> Response:
        """IPAexGothic from the matplotlib-fontja wheel (the pictures' font), so that a browser without a
        Japanese font still draws the table's words; 404 without the pictures extra."""
        try:
            from yuugi.envs.pictures.raster import font_file

            path = font_file()
        except Exception:  # noqa: BLE001 - no font: the page falls back to the browser's own
            return Response("no font (pip install matplotlib-fontja)", 404)
        return FileResponse(path, media_type="font/ttf")

    async def api_games(request: Request) -> Response:
        out = []
        for g in offered:
            players = (await run_in_threadpool(make_game, g, **base_rules)).num_players
            lv = ["your policy"] if opponent is not None else await run_in_threadpool(levels, g)
            entry = {"name": g, "players": players, "levels": lv,
                     "default_level": lv[0] if opponent is not None else (level if level in lv else lv[-1])}
            if g == "ninja_daifugo":
                entry["daifugo"] = daifugo_choices(base_rules)
                held = careers.career
                if held is not None and entry["daifugo"]["loadout"]:
                    entry["daifugo"]["max_levels"] = await run_in_threadpool(held.levels)
            out.append(entry)
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
        table_rules = dict(base_rules)
        if body.get("loadout") is not None:
            if game != "ninja_daifugo" or table_rules.get("ninja", "faithful") != "faithful":
                return JSONResponse({"error": "a loadout is chosen for ninja_daifugo's faithful table only"}, 400)
            if seat != 0:
                return JSONResponse({"error": "the faithful table's loadout is seat 0's: sit at seat 0 to use it"}, 400)
            table_rules["loadouts"] = body["loadout"]
            if careers.career is not None:
                try:
                    careers.career.check_loadout(body["loadout"])
                except CareerError as e:
                    return JSONResponse({"error": str(e)}, 400)
        position = body.get("position")
        if position is not None and not positions:
            return JSONResponse({"error": "this server starts tables from a deal only (positions are off)"}, 400)
        record = None
        faithful = table_rules.get("ninja", "faithful") == "faithful"
        if game == "ninja_daifugo" and faithful and seat == 0 and opponent is None and careers.career is not None:
            record = careers.record
        try:
            session = await run_in_threadpool(lambda: TableSession(
                game, seat=seat, level=lv, opponent=opponent, seed=table_seed, rules=table_rules, position=position,
                on_game_over=record))
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

    async def api_career(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(careers.state))

    async def career_request(request: Request, fields: tuple[str, ...], method: str) -> Response:
        """A 道場 request: ``fields`` (strings) from the JSON body passed to the career's ``method``; a
        refusal (no career, a malformed body, a CareerError) is answered 400 with the message."""
        body = await _json_object(request)
        if careers.career is None:
            return JSONResponse({"error": careers.why_none()}, 400)
        if body is None or not all(isinstance(body.get(f), str) for f in fields):
            return JSONResponse({"error": "send {" + ", ".join(f'"{f}": NAME' for f in fields) + "}"}, 400)
        try:
            return JSONResponse(await run_in_threadpool(getattr(careers.career, method), *(body[f] for f in fields)))
        except CareerError as e:
            return JSONResponse({"error": str(e)}, 400)

    async def api_level_up(request: Request) -> Response:
        return await career_request(request, ("jutsu",), "level_up")

    async def api_buy(request: Request) -> Response:
        return await career_request(request, ("kind", "item"), "buy")

    async def api_choose(request: Request) -> Response:
        return await career_request(request, ("kind", "item"), "choose")

    async def api_reset(request: Request) -> Response:
        body = await _json_object(request)
        if body is None or body.get("confirm") is not True:
            return JSONResponse({"error": 'a reset erases the career: send {"confirm": true}'}, 400)
        if careers.path is None:
            return JSONResponse({"error": careers.why_none()}, 400)
        return JSONResponse(await run_in_threadpool(careers.reset))

    routes = [
        Route("/", index),
        Route("/t/{table_id}", table_page),
        Route("/api/games", api_games),
        Route("/font/ipaexg.ttf", font),
        Route("/api/career", api_career),
        Route("/api/career/level_up", api_level_up, methods=["POST"]),
        Route("/api/career/buy", api_buy, methods=["POST"]),
        Route("/api/career/choose", api_choose, methods=["POST"]),
        Route("/api/career/reset", api_reset, methods=["POST"]),
        Route("/api/tables", api_new_table, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.tables = tables
    app.state.careers = careers
    return app


async def _json_object(request: Request) -> dict[str, Any] | None:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


class CareerHolder:
    """The server's career: open, refused (with the reason, until a reset), or none at all."""

    def __init__(self, career: str | Path | Career | None) -> None:
        self.career: Career | None = None
        self.error: str | None = None
        self.path: Path | None = None
        if isinstance(career, Career):
            self.career, self.path = career, career.path
        elif career is not None:
            self.path = Path(career)
            try:
                self.career = Career(self.path)
            except CareerError as e:
                self.error = str(e)

    def why_none(self) -> str:
        return self.error or "this server keeps no career (yuugi serve keeps one in your data directory)"

    def state(self) -> dict[str, Any]:
        if self.career is None:
            return {"enabled": False, "error": self.error, "path": str(self.path) if self.path else None}
        return self.career.state()

    def reset(self) -> dict[str, Any]:
        assert self.path is not None
        if self.career is not None:
            self.career.close()
        self.career, self.error = Career.reset(self.path), None
        return self.career.state()

    def record(self, session: TableSession, event: dict[str, Any]) -> dict[str, Any] | None:
        """A finished game of the person at seat 0: its place, written to the career."""
        career = self.career
        if career is None:
            return None
        place = int(event["places"][session.seat])
        earned = career.record_game(session.table_id, int(event["game"]), place)
        state = career.state()
        return {"earned": earned, "place": place, "held": state["held"], "total": state["earned"],
                "rank": state["rank"]}


def daifugo_choices(rules: Mapping[str, Any]) -> dict[str, Any]:
    """What the lobby offers for ninja daifugō's loadout: the schools, the jutsu and their levels."""
    from yuugi.envs.ninja_daifugo.actions import JUTSU_JA
    from yuugi.envs.ninja_daifugo.config import BASE_COST, DEFAULT_LOADOUT, JUTSU, SCHOOLS, USES_BY_LEVEL

    from .daifugo import FAITHFUL_CPUS, SCHOOL_JA

    return {
        "loadout": rules.get("ninja", "faithful") == "faithful",  # only the faithful table has a seat-0 loadout
        "schools": [{"name": name, "ja": SCHOOL_JA[k] or "なし"} for k, name in enumerate(SCHOOLS)],
        "jutsu": [{"name": name, "ja": JUTSU_JA[j], "cost": BASE_COST[j]} for j, name in enumerate(JUTSU)],
        "max_jutsu": 2, "levels": list(range(1, 6)), "uses_by_level": list(USES_BY_LEVEL),
        "default": DEFAULT_LOADOUT, "cpus": list(FAITHFUL_CPUS),
    }


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
          open_browser: bool = False, log_level: str = "warning", career: str | Path | None = "default") -> None:
    """Run the web tables until interrupted: bind ``host``:``port`` (port 0: a free one), print the link.
    ``career``: the daifugō career file ("default": career.sqlite3 in the user's data directory; None: none)."""
    import uvicorn

    sock = free_socket(host, port)  # first: a port that cannot be had starts nothing (nor a career file)
    if career == "default":
        try:
            from .career import default_path

            career = default_path()
        except ImportError:  # platformdirs is in the serve extra; without it, no career
            print("yuugi serve: no career (pip install platformdirs to keep one)", file=sys.stderr)
            career = None
    app = create_app(games=games, level=level, opponent=opponent, rules=rules, seed=seed, career=career)
    if app.state.careers.error:
        print(f"yuugi serve: career refused: {app.state.careers.error}", file=sys.stderr)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    print(f"yuugi serve: play at {url}  (Ctrl-C stops the server; its tables live in its memory)", flush=True)
    if app.state.careers.career is not None:
        print(f"yuugi serve: your ninja daifugō career is kept in {app.state.careers.path}", flush=True)
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    server = uvicorn.Server(uvicorn.Config(app, log_level=log_level, ws="websockets-sansio"))
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        print("yuugi serve: stopped", file=sys.stderr)
