"""The ``yuugi`` command line: ``list``, ``bench``, ``train``, ``eval``, ``play``, ``replay``, ``serve``."""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

from yuugi.envs import available_games
from yuugi.training.cli.args import UsageError, parse_rules


def _cmd_list(args: argparse.Namespace) -> int:
    from yuugi.training.cli.listing import game_listing

    print(game_listing())
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from yuugi.training.bench import bench

    games = available_games() if args.games == ["all"] else args.games
    for name in games:
        _game_name_or_usage(name)
        for variant in args.variant or [None]:  # every rule set is checked before any measuring starts
            _build_game(name, {**parse_rules(args.rule), **(parse_rules([variant]) if variant else {})})
    variants = [(v, parse_rules([v])) for v in args.variant] if args.variant else [(None, {})]
    print(bench.bench_command(games, batches=tuple(args.batch), seconds=args.seconds, rules=parse_rules(args.rule),
                              variants=variants, rounds=args.rounds, peers=args.peers, training=args.training,
                              inference=args.inference, vector=args.vector, as_json=args.json,
                              threads=tuple(args.threads)))
    return 0


def _check_made_for(game: str, flag: str, path: str, read_meta: Callable[[str], dict[str, Any]], made: str) -> None:
    """A UsageError unless ``path`` is a file ``read_meta`` can read and it was made for ``game``."""
    try:
        made_for = read_meta(path).get("game")
    except ValueError as err:
        raise UsageError(f"{flag} {err}") from None
    if made_for != game:
        raise UsageError(f"{flag} {path}: {made} for {made_for}, not {game}")


def _cmd_train(args: argparse.Namespace) -> int:
    import time

    started = time.perf_counter()  # --minutes counts from here: the checks and imports below are part of the run
    if args.engine == "rllib":
        return _cmd_train_rllib(args)
    if args.workers is not None or args.address is not None:
        raise UsageError("--workers and --address spread training over Ray: give --engine rllib")
    if args.tensorboard is not None:
        import importlib.util

        if importlib.util.find_spec("tensorboard") is None:
            raise UsageError("--tensorboard writes TensorBoard logs, which needs the tensorboard package: "
                             "pip install tensorboard")
        logs = Path(args.tensorboard).expanduser().resolve()
        if logs.exists() and not logs.is_dir():  # made if missing, as TensorBoard's own --logdir is
            raise UsageError(f"--tensorboard: {args.tensorboard} is a file; give a folder")
        if not logs.parent.is_dir():
            raise UsageError(f"--tensorboard: folder {logs.parent} does not exist (create it first)")
    from yuugi.agents.mlp import MLPPolicy
    from yuugi.training.train.distill import check_fits as recording_fits, read_meta as recording_meta
    from yuugi.training.train.sb3_checkpoint import is_model_file, read_meta as model_meta
    from yuugi.training.train.selfplay import TRAIN_RULES, TrainConfig, train

    rules = parse_rules(args.rule)
    trained = _build_game(args.game, {**TRAIN_RULES.get(args.game, {}), **rules})
    if args.bc_data and (args.init_from or args.bc_decisions):
        raise UsageError("--bc-data is the policy's start: leave out --init-from and --bc-decisions")
    if args.init_from and is_model_file(args.init_from):  # a run's whole model: refused now, not once built
        _check_made_for(args.game, "--init-from", args.init_from, model_meta, "saved")
    elif args.init_from:  # refused now, not after the heuristic was cloned
        MLPPolicy.load(args.init_from, game=args.game, rules={**TRAIN_RULES.get(args.game, {}), **rules})
    given = {"bc_decisions": args.bc_decisions} if args.bc_decisions is not None else {}
    if args.bc_data:
        for path in args.bc_data:  # refused now, not after the model was built
            if not Path(path).is_file():
                raise UsageError(f"--bc-data {path}: no such file (record one with python -m yuugi.training.train.distill)")
            _check_made_for(args.game, "--bc-data", path, recording_meta, "recorded")
            try:  # recorded for this game, but under rules with other spaces (another player count)?
                recording_fits(path, trained)
            except ValueError as err:
                raise UsageError(f"--bc-data {err}") from None
        given = {"bc_decisions": 0, "bc_data": tuple(args.bc_data)}
    cfg = TrainConfig.for_game(args.game, total_steps=args.steps, minutes=args.minutes, seed=args.seed,
                               num_envs=args.envs, rules=rules, init_from=args.init_from, name=args.name,
                               tensorboard=args.tensorboard, **given)
    if cfg.prior_name() and cfg.bc_decisions > 0 and not cfg.init_from:
        raise UsageError(f"{args.game} trains guided by the action prior {cfg.prior_name()!r}, which is its start: "
                         "--bc-decisions must be 0 for it")
    result = train(cfg, args.out, started=started)  # creates --out (and its parents) when missing
    if result.get("interrupted"):
        where = result["meta"].get("interrupted_in", "PPO")
        print(f"yuugi train: interrupted ({where}) at {result['meta']['steps']:,} learner steps; checkpoint saved: "
              f"{result['weights']} (continue with --init-from {Path(result['weights']).with_suffix('.zip')}, "
              "which keeps the value net too)", file=sys.stderr)
        return 130
    print(f"weights: {result['weights']}  steps: {result['meta']['steps']}  wall: {result['meta']['wall_time_s']} s")
    return 0


def _cmd_train_rllib(args: argparse.Namespace) -> int:
    """``yuugi train GAME --engine rllib``: self-play PPO on RLlib, env runners spread over Ray."""
    from yuugi.agents.registry import QUICK_LEVELS, available_levels
    from yuugi.training.train.selfplay import TRAIN_RULES, TrainConfig

    _require_ray("--engine rllib", need_rllib=True)
    if args.init_from or args.bc_decisions is not None or args.bc_data:
        raise UsageError("--init-from, --bc-data and --bc-decisions belong to --engine sb3 (RLlib training starts from scratch)")
    # the rules the game trains under with either engine (e.g. nigejozu's chip-margin reward), then the user's
    rules = {**TRAIN_RULES.get(args.game, {}), **TrainConfig.for_game(args.game).rules, **parse_rules(args.rule)}
    _build_game(args.game, rules)
    from yuugi.training.rllib.train import RllibTrainConfig, train

    workers = 1 if args.workers is None else args.workers
    levels = tuple(lv for lv in available_levels(args.game, **rules) if lv in QUICK_LEVELS)
    planned = RllibTrainConfig(game=args.game, rules=rules, total_steps=args.steps, minutes=args.minutes,
                               seed=args.seed, workers=workers, envs_per_worker=args.envs, levels=levels, name=args.name)
    cfg = planned.fitted_to_steps(_build_game(args.game, rules).num_players)
    if cfg != planned:  # a short run: smaller iterations, so that it stops near --steps
        print(f"--steps {args.steps:,}: each iteration samples {cfg.rollout_length} steps of {cfg.envs_per_worker} "
              f"games per runner (instead of {planned.rollout_length} of {planned.envs_per_worker})")
    _connect(args.address, num_cpus=workers + 1)  # the env runners and the learner (this process)
    from yuugi.training.rllib.train import _learner_return

    def tell(iteration: int, steps: int, result: Any, algo: Any) -> bool:
        back = _learner_return(result)
        said = f"learner return {back:+.3f}" if back is not None else "no game finished yet"
        print(f"iteration {iteration}  learner steps {steps:,}  {said}", flush=True)
        return False

    result = train(cfg, args.out, on_iteration=tell)
    print(f"weights: {result['weights']}  steps: {result['meta']['steps']}  wall: {result['meta']['wall_time_s']} s")
    return 0


def _connect(address: str | None, num_cpus: int) -> None:
    """Join the Ray cluster at ``address`` (or start a local one); an unusable address is a usage error."""
    from yuugi.training.rllib.cluster import ClusterError, connect

    try:
        connect(address, num_cpus)
    except ClusterError as e:
        raise UsageError(str(e)) from None


def _require_ray(flag: str, need_rllib: bool = False) -> None:
    from yuugi.training.rllib.cluster import missing_ray

    problem = missing_ray(need_rllib)
    if problem:
        raise UsageError(f"{flag}: {problem}")


def _cmd_eval(args: argparse.Namespace) -> int:
    from yuugi.agents.registry import QUICK_LEVELS, available_levels, cpu
    from yuugi.training.eval.evaluate import evaluate

    if args.address is not None and args.workers is None:
        raise UsageError("--address runs the games on a Ray cluster: give --workers N too")
    if args.workers is not None:
        _require_ray("--workers")
        if args.resume:
            raise UsageError("--resume continues a local run; run it without --workers")

    rules = parse_rules(args.rule) or _eval_rules(args.game)
    game = _build_game(args.game, rules)
    if args.mirror:
        from yuugi.training.eval.mirror import MirrorError, check_whole_deals, games_per_deal

        try:
            check_whole_deals(args.games, games_per_deal(args.layout, game.num_players, True), args.layout, "--games")
        except MirrorError as e:
            raise UsageError(f"--mirror: {e}") from None
    own = _parse_policy_flags(args.policy)
    # expert is rated only when asked for by name: it searches for every decision.
    levels = args.levels or [lv for lv in available_levels(args.game, **rules) if lv in QUICK_LEVELS]
    if not args.levels:
        from yuugi.agents.level_records import unchecked_note

        left_out = unchecked_note(args.game, "hard", rules)
        if left_out is not None:
            print(f"yuugi eval: note: hard is left out of this round-robin: {left_out}; rate it anyway with "
                  f"--levels {' '.join(levels)} hard", file=sys.stderr)
    _check_levels(args.game, levels, hint=" (to rate a policy of your own, give --policy NAME=SPEC)")
    clash = sorted(set(own) & set(levels))
    if clash:
        raise UsageError(f"--policy name {clash[0]!r} is also a level in this round-robin; name it otherwise")
    if len(levels) + len(own) < 2:
        if own:
            raise UsageError(f"a round-robin needs at least two policies, got {levels + list(own)} "
                             f"(add --levels or another --policy)")
        raise UsageError(f"--levels needs at least two levels to pair, got {levels}")
    for flag, path in (("--save", args.save), ("--plot", args.plot)):
        _check_folder(flag, path)
    context = {"games_per_pairing": args.games, "seed": args.seed, "rules": rules, "levels": list(levels),
               "policies": dict(own), "layout": args.layout, "mirror": args.mirror,
               "command": "yuugi " + " ".join(args.argv)}
    resume = _resume_state(args, context) if args.resume else None
    policies = {lv: cpu(args.game, lv, **rules) for lv in levels}
    policies.update({name: _policy_from_spec(f"--policy {name}={spec}", spec, args.game, rules)
                     for name, spec in own.items()})

    def keep(partial: Any, state: dict[str, Any]) -> None:
        finished.append(partial)
        if args.save:
            _save_eval(args.save, partial, context, state)

    finished: list[Any] = []
    if args.workers is not None:
        return _eval_on_ray(args, policies, rules, context)
    try:
        result = evaluate(args.game, policies, games=args.games, seed=args.seed, rules=rules, resume=resume,
                          on_pairing=keep, layout=args.layout, progress=True, mirror=args.mirror)
    except KeyboardInterrupt:
        done = finished[-1] if finished else None
        count = len(done.pairings) if done else len(resume["pairings"]) if resume else 0
        planned = len(policies) * (len(policies) - 1) // 2
        if args.save:
            kept = f"saved in {args.save}; finish them with the same command and --resume" if count else "nothing saved"
        else:
            if done:
                print(_render_eval(done, args.format, context))
            kept = "shown above; to keep them, run with --save FILE (then --resume finishes the rest)"
        print(f"yuugi eval: interrupted with {count} of {planned} pairings finished, " + kept, file=sys.stderr)
        return 130
    print(_render_eval(result, args.format, context))
    notes = sys.stdout if args.format == "table" else sys.stderr  # json and csv keep stdout parseable
    if args.save:
        print(f"saved: {args.save}", file=notes)
    if args.plot:
        from yuugi.training.eval.evaluate import save_plot

        save_plot(result, args.plot)
        print(f"plot: {args.plot}", file=notes)
    return 0


def _eval_on_ray(args: argparse.Namespace, policies: dict[str, Any], rules: dict[str, Any],
                 context: dict[str, Any]) -> int:
    """``yuugi eval --workers N``: the same round-robin, its chunks of games run as Ray tasks."""
    from yuugi.training.rllib.distributed_eval import evaluate_distributed
    from yuugi.training.eval.evaluate import _ProgressBar, save_plot

    _connect(args.address, num_cpus=args.workers)
    bar = _ProgressBar(args.games * len(policies) * (len(policies) - 1) // 2, f"{args.game} {args.layout} on Ray")
    try:
        result = evaluate_distributed(args.game, policies, games=args.games, seed=args.seed, rules=rules,
                                      layout=args.layout, workers=args.workers, progress=bar, mirror=args.mirror)
    finally:
        bar.close()
    print(_render_eval(result, args.format, context))
    notes = sys.stdout if args.format == "table" else sys.stderr  # json and csv keep stdout parseable
    if args.save:
        _save_eval(args.save, result, context, {})
        print(f"saved: {args.save}", file=notes)
    if args.plot:
        save_plot(result, args.plot)
        print(f"plot: {args.plot}", file=notes)
    return 0


def _render_eval(result: Any, fmt: str, context: dict[str, Any]) -> str:
    """The round-robin's tables, then for each --policy a report with it first in every row (its own
    side of each pairing: the tables list it as B wherever it was scheduled after the levels)."""
    from yuugi.training.eval.evaluate import format_tables, to_csv, to_json
    from yuugi.training.eval.policy_report import format_policy_report, report_json

    own = [name for name in context.get("policies", {}) if name in result.ratings]
    if fmt == "json":
        record = to_json(result, **context)
        if own:
            record["reports"] = {name: report_json(result, name) for name in own}
        return json.dumps(record, indent=2, ensure_ascii=False)
    if fmt == "csv":
        return to_csv(result).rstrip("\n")
    return "\n\n".join([format_tables(result)] + [format_policy_report(result, name) for name in own])


def _parse_policy_flags(pairs: list[str]) -> dict[str, str]:
    """``--policy NAME=SPEC`` flags as {name: spec}, in the order given."""
    own: dict[str, str] = {}
    for pair in pairs:
        name, sep, spec = pair.partition("=")
        if not sep or not name.strip() or not spec.strip():
            raise UsageError(f"--policy expects NAME=SPEC (e.g. --policy mine=runs/train/nigejozu_seed0.npz), "
                             f"got {pair!r}")
        if name in own:
            raise UsageError(f"--policy name {name!r} is given twice")
        own[name] = spec
    return own


def _policy_from_spec(flag: str, spec: str, game: str, rules: dict[str, Any]) -> Any:
    """The policy ``spec`` names; anything wrong with it is one line, starting with ``flag``, naming the spec
    and the kinds accepted."""
    from yuugi.agents.adapters import as_policy

    # module:attr names a module where the command runs, as with `python -m` (and uvicorn's module:app):
    # the `yuugi` console script alone would not look in the current folder.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return as_policy(spec, game=game, **rules)
    except Exception as e:  # noqa: BLE001 - a user's module or file can fail in any way; say it in one line
        problem = " ".join(str(e).split()) or type(e).__name__
        problem = problem.split("; accepted:")[0]  # as_policy's list names Python objects too; say the CLI's
        raise UsageError(f"{flag}: {problem}; SPEC can be: {POLICY_SPEC_KINDS}") from None


POLICY_SPEC_KINDS = ("a .npz exported by `yuugi train`, an SB3 / sb3-contrib .zip (needs the train extra), "
                     "module:attr naming a Policy (object or class) or a function (observation, mask, rng) -> "
                     "actions, or a level name")


def _save_eval(path: str, result: Any, context: dict[str, Any], state: dict[str, Any]) -> None:
    """Write the ratings and pairings so far (through a temporary file: an interrupt never leaves half a file)."""
    from yuugi.training.eval.evaluate import to_json

    planned = result.extra["pairings_planned"]
    record = to_json(result, **context, complete=len(result.pairings) == planned, pairings_planned=planned)
    if not record["complete"]:
        record["resume"] = state  # the pairings and exact ratings: --resume carries on from here
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=2, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


# Settings a saved evaluation records since they were added, with the value a save made before ran with.
SETTINGS_BEFORE_THEY_WERE_SAVED = {"mirror": False}


def _resume_state(args: argparse.Namespace, context: dict[str, Any]) -> dict[str, Any] | None:
    """The state saved by an interrupted run of the same evaluation (``--resume``)."""
    if not args.save:
        raise UsageError("--resume continues the run saved in --save FILE; give --save")
    try:
        with open(args.save) as f:
            record = json.load(f)
    except FileNotFoundError:
        raise UsageError(f"--resume: {args.save} does not exist (nothing to resume)") from None
    except (OSError, json.JSONDecodeError) as e:
        raise UsageError(f"--resume: {args.save} is not a saved evaluation ({e})") from None
    if not isinstance(record, dict):
        raise UsageError(f"--resume: {args.save} is not a saved evaluation")
    if record.get("complete"):
        raise UsageError(f"--resume: {args.save} holds a finished evaluation; nothing to resume")
    if "resume" not in record:
        raise UsageError(f"--resume: {args.save} holds no resumable state")
    wanted = {"game": args.game, **{k: v for k, v in context.items() if k != "command"}}
    saved = {**SETTINGS_BEFORE_THEY_WERE_SAVED, **record}
    differ = [f"{k} (saved {json.dumps(saved.get(k))}, now {json.dumps(v)})" for k, v in wanted.items()
              if saved.get(k) != json.loads(json.dumps(v))]
    if differ:
        raise UsageError(f"--resume: {args.save} was made with other settings: " + "; ".join(differ))
    return record["resume"]


def _eval_rules(game: str) -> dict[str, object]:
    """The rules ``yuugi eval GAME`` plays without --rule: the game's spec says (its eval rules, else the
    rules its hard level trains under, so a shipped hard is rated under the rules it fits)."""
    from yuugi.envs.spec import game_spec

    return dict(game_spec(game).default_eval_rules)


def _cmd_play(args: argparse.Namespace) -> int:
    from yuugi.agents.registry import cpu
    from yuugi.training.play.play import play

    rules = parse_rules(args.rule)
    if args.deck or args.cpu_deck:
        rules["decks"] = _play_decks(args, rules)
    game = _build_game(args.game, rules)
    if not 0 <= args.seat < game.num_players:
        raise UsageError(f"--seat must be 0..{game.num_players - 1} ({args.game} has {game.num_players} players "
                         f"here), got {args.seat}")
    if args.opponent and args.level is not None:
        raise UsageError("give --level (a shipped CPU) or --opponent (a policy of your own), not both")
    level = args.level or "normal"
    opponents = _play_opponents(args.opponent, args.game, rules, args.seat, game.num_players)
    if opponents is None:
        _check_levels(args.game, [level])
        cpu(args.game, level, **rules)  # a level that cannot be built is refused before the game starts
    _check_folder("--record", args.record)
    result = play(args.game, level=level, seat=args.seat, seed=args.seed, opponents=opponents, **rules)
    if args.record:
        from yuugi.envs.faces.replay import save

        save(result["record"], args.record)
        print(f"replay saved: {args.record} (watch it with: yuugi replay {args.record})")
    return 0


def _play_decks(args: argparse.Namespace, rules: dict[str, Any]) -> list[str]:
    """The ``decks`` rule for ``--deck`` (the person's) and ``--cpu-deck``: ninja_slayer only, not with --rule decks."""
    from yuugi.training.play.ninja_slayer import deck_pair

    if args.game != "ninja_slayer":
        raise UsageError(f"--deck and --cpu-deck choose ninja_slayer decks; {args.game} has none")
    if "decks" in rules:
        raise UsageError("give the decks by --deck/--cpu-deck or by --rule decks=..., not both")
    return deck_pair(args.seat, args.deck or "constructed", args.cpu_deck or "constructed")


def _cmd_serve(args: argparse.Namespace) -> int:
    import importlib.util

    missing = [m for m in ("starlette", "uvicorn", "websockets") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"needs the serve extra ({', '.join(missing)} missing): pip install -e '.[serve]'")
    from yuugi.training.serve.app import serve

    rules = parse_rules(args.rule)
    if (rules or args.opponent) and args.game is None:
        raise UsageError("--rule and --opponent need the GAME they are for: yuugi serve GAME ...")
    if args.opponent and args.level is not None:
        raise UsageError("give --level (a shipped CPU) or --opponent (a policy of your own), not both")
    opponent = None
    if args.game is not None:
        _build_game(args.game, rules)
        if args.opponent:
            opponent = _policy_from_spec(f"--opponent {args.opponent}", args.opponent, args.game, rules)
        elif args.level is not None:
            _check_levels(args.game, [args.level])
    try:
        serve(host=args.host, port=args.port, games=[args.game] if args.game else None,
              level=args.level or "normal", opponent=opponent, rules=rules, seed=args.seed, open_browser=args.open,
              career=args.career)
    except OSError as e:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from yuugi.envs.core.errors import OptionError
    from yuugi.envs.faces.replay import ReplayError, game_of, load
    from yuugi.training.play.replay import show

    try:
        record = load(args.file)
    except ReplayError as e:
        raise UsageError(str(e)) from None
    try:
        game = game_of(record)
    except (OptionError, TypeError, ValueError) as e:  # an unknown game, or rules the game refuses
        raise UsageError(f"{args.file}: cannot build {record['game']!r} with the record's rules "
                         f"{json.dumps(record['rules'])}: {e}") from None
    try:
        show(record, seat=args.seat, step=args.step, game=game)
    except ReplayError as e:  # a bad seat, or a move the game refuses (shown after the moves before it)
        raise UsageError(f"{args.file}: {e}") from None
    except BrokenPipeError:  # the reader stopped reading (yuugi replay FILE | head): not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - so that the interpreter's final flush is quiet
    return 0


def _play_opponents(specs: list[str], game: str, rules: dict[str, Any], seat: int, players: int) -> Any:
    """``--opponent SPEC`` flags: one for every CPU seat, or one per CPU seat in seat order; None: none given."""
    if not specs:
        return None
    cpus = players - 1
    if len(specs) not in (1, cpus):
        raise UsageError(f"--opponent: give one SPEC for every CPU seat, or {cpus} (one per CPU seat, in seat "
                         f"order), got {len(specs)}")
    built = [_policy_from_spec(f"--opponent {spec}", spec, game, rules) for spec in specs]
    if len(built) == 1:
        return built[0]
    others = iter(built)
    return [None if p == seat else next(others) for p in range(players)]


def _build_game(game: str, rules: dict[str, Any]) -> Any:
    """The game under ``rules``; a rule the game refuses is a usage error naming it."""
    from yuugi.envs import make_game
    from yuugi.envs.core.errors import OptionError

    try:
        return make_game(game, **rules)
    except (OptionError, TypeError, ValueError) as e:
        raise UsageError(f"bad --rule for {game}: {e}") from None


def _check_levels(game: str, levels: list[str], hint: str = "") -> None:
    from yuugi.agents.registry import level_names, persona_of

    known = level_names(game)
    for level in levels:
        if level not in known and persona_of(game, level) is None:
            raise UsageError(f"unknown level {level!r} for {game}; choose from: {', '.join(known)}{hint}")
    twice = sorted({lv for lv in levels if levels.count(lv) > 1})
    if twice:
        raise UsageError(f"--levels lists {', '.join(twice)} more than once")


def _check_folder(flag: str, path: str | None) -> None:
    """``path`` must be writable where it is: its folder exists (checked before a long run, not after)."""
    if path is None:
        return
    folder = Path(path).expanduser().resolve().parent
    if not folder.is_dir():
        raise UsageError(f"{flag}: folder {folder} does not exist (create it first)")
    if Path(path).is_dir():
        raise UsageError(f"{flag}: {path} is a folder; give a file name")


def _game_name(name: str) -> str:
    from yuugi.envs import available_games

    if name not in available_games():
        raise argparse.ArgumentTypeError(f"unknown game {name!r}; choose from: {', '.join(available_games())}")
    return name


def _game_name_or_usage(name: str) -> str:
    try:
        return _game_name(name)
    except argparse.ArgumentTypeError as e:
        raise UsageError(str(e)) from None


def _int_at_least(low: int, high: int | None = None) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low or (high is not None and value > high):
            span = f"{low}..{high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {span}, got {value}")
        return value

    return parse


def _run_name(text: str) -> str:
    """A run's name: one file name, no folder (--out chooses the folder)."""
    if not text or text != Path(text).name or text in (".", ".."):
        raise argparse.ArgumentTypeError(f"a file name without a folder (choose the folder with --out), got {text!r}")
    return text


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


# ninja_slayer's deck names (yuugi.training.play.ninja_slayer.DECK_CHOICES, written out so that the parser
# does not import the game; a test keeps the two equal).
NINJA_SLAYER_DECKS = ("D1", "D2", "D3", "D4", "constructed", "sealed", "any")

SEED = _int_at_least(0, 2**32 - 1)  # every game seeds from a 32-bit number; eval multiplies it by games


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (no usage block): ``yuugi eval: error: ...``, exit status 2."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from yuugi import __version__

    p = _Parser(prog="yuugi", description="yuugi: RL environments for Japanese tabletop games")
    p.add_argument("--version", action="version", version=f"yuugi {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="the games: players, action and observation sizes, CPU levels and personas"
                   ).set_defaults(func=_cmd_list)
    b = sub.add_parser("bench", help="steps/s of the AEC loop and the batched core under random legal play")
    b.add_argument("games", nargs="+", help="game names, or 'all'")
    b.add_argument("--peers", action="store_true", help="also run the peer libraries (RLCard, OpenSpiel, PettingZoo)")
    b.add_argument("--training", action="store_true", help="also time self-play MaskablePPO training")
    b.add_argument("--inference", action="store_true", help="also time numpy MLP inference for 1,024 rows")
    b.add_argument("--vector", action="store_true",
                   help="also time the SB3 vector face: 1,024 envs, random legal actions, random opponents")
    b.add_argument("--batch", type=_int_at_least(1), nargs="+", default=[1, 64, 1024], help="core batch sizes")
    b.add_argument("--seconds", type=_positive_float, default=3.0, help="time per measurement")
    b.add_argument("--threads", type=_int_at_least(1, 64), nargs="+", default=[1],
                   help="threads of the compiled batch kernels in the core rows (default 1); several, e.g. "
                        "--threads 1 2, measure each core row at every count side by side (a batch of its own "
                        "per count, stepped in turn)")
    b.add_argument("--rounds", type=_int_at_least(1), default=3,
                   help="interleaved rounds (ours, peer, ours, peer, ...); ratios: median over rounds (min-max)")
    b.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option of the game, e.g. --rule ninja=off (repeatable)")
    b.add_argument("--variant", action="append", metavar="KEY=VALUE",
                   help="measure once per variant in the same run, e.g. --variant ninja=off --variant ninja=faithful")
    b.set_defaults(func=_cmd_bench)

    t = sub.add_parser("train", help="self-play MaskablePPO training (or PPO on RLlib); exports numpy weights")
    t.add_argument("game", type=_game_name)
    t.add_argument("--engine", choices=("sb3", "rllib"), default="sb3",
                   help="sb3: sb3-contrib MaskablePPO in this process (default); rllib: RLlib PPO with env runners "
                        "on Ray (needs the ray extra)")
    t.add_argument("--workers", type=_int_at_least(0), default=None,
                   help="--engine rllib: env runners, each stepping --envs games as one batch (default 1; 0: "
                        "sample in this process)")
    t.add_argument("--address", default=None, metavar="auto|ray://HOST:PORT",
                   help="--engine rllib: the Ray cluster to run on (default: a local Ray)")
    t.add_argument("--steps", type=_int_at_least(1), default=2_000_000,
                   help="learner steps (upper bound; default: %(default)s)")
    t.add_argument("--minutes", type=_positive_float, default=None,
                   help="wall-clock budget of the whole run, cloning included (cloning takes at most half of it); "
                        "the run stops at --steps or --minutes, whichever comes first")
    t.add_argument("--seed", type=SEED, default=0)
    t.add_argument("--envs", type=_int_at_least(1), default=64, help="games stepped together (default: %(default)s)")
    t.add_argument("--bc-decisions", type=_int_at_least(0), default=None,
                   help="heuristic decisions to clone first (0: none; default 200,000, or 0 for a prior-guided game)")
    t.add_argument("--init-from", help="continue a run instead of cloning the heuristic: its <game>_sb3.zip (actor, "
                                       "value net and optimizer) or exported weights (.npz: the actor; a fresh value net)")
    t.add_argument("--bc-data", metavar="FILE", nargs="+",
                   help="clone the decisions recorded in FILE(s) (python -m yuugi.training.train.distill: expert's choices) first")
    t.add_argument("--out", default="runs/train",
                   help="folder for weights, metadata and the learning curve (created when missing)")
    t.add_argument("--tensorboard", metavar="DIR", default=None,
                   help="also write TensorBoard logs (SB3's, with ep_rew_mean, and the win rate per update) "
                        "under DIR (needs the tensorboard package)")
    t.add_argument("--name", type=_run_name, default=None,
                   help="the run's name, which its files carry: OUT/NAME.npz (the policy to play and rate), "
                        "NAME.json, NAME_sb3.zip, NAME_curve.csv (default: GAME_seedSEED)")
    t.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    t.set_defaults(func=_cmd_train)

    e = sub.add_parser("eval", help="round-robin of CPU levels and your own policies, with openskill ratings")
    e.add_argument("game", type=_game_name)
    e.add_argument("--levels", nargs="+", help="levels to include (default: every available level but expert, which searches and is slow)")
    e.add_argument("--policy", action="append", default=[], metavar="NAME=SPEC",
                   help="a policy of your own, rated with the levels (repeatable). SPEC: a .npz exported by "
                        "`yuugi train`, an SB3 / sb3-contrib .zip, or module:attr naming a Policy or a function "
                        "(observation, mask, rng) -> actions")
    e.add_argument("--layout", choices=("alternate", "field"), default="alternate",
                   help="alternate: A and B alternate around the table, swapping every game; field: one A "
                        "against P-1 copies of B, A's seat rotating (the same for 2 players)")
    e.add_argument("--mirror", action="store_true",
                   help="play each deal from every seating of the layout, in games in a row (field: P games, "
                        "A at each seat; alternate: 2 games, the sides swapped), so a deal's luck falls on both "
                        "sides; the interval is drawn over deals. --games must be a multiple of that count")
    e.add_argument("--format", choices=("table", "json", "csv"), default="table",
                   help="how to print the result (default: %(default)s)")
    e.add_argument("--games", type=_int_at_least(1), default=1000, help="games per pairing (default: %(default)s)")
    e.add_argument("--seed", type=SEED, default=0, help="the games' seeds (default: %(default)s)")
    e.add_argument("--plot", help="save a ratings plot (PNG) here (the folder must exist)")
    e.add_argument("--save", help="save ratings and pairings (JSON) here, after every finished pairing "
                                  "(the folder must exist)")
    e.add_argument("--resume", action="store_true",
                   help="carry on the interrupted run saved in --save (same game, levels, policies, layout, "
                        "mirror, games, seed and rules)")
    e.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    e.add_argument("--workers", type=_int_at_least(1), default=None,
                   help="play the games as Ray tasks, at most N at a time (needs the ray extra); the table is "
                        "the same for any N")
    e.add_argument("--address", default=None, metavar="auto|ray://HOST:PORT",
                   help="with --workers: the Ray cluster to run on (default: a local Ray with N CPUs)")
    e.set_defaults(func=_cmd_eval)

    pl = sub.add_parser("play", help="play one seat in the terminal against CPUs",
                        description="Play one seat in the terminal against CPUs. At the prompt: a move, or "
                                    "help (rules in brief and the legend), undo, hint (what normal would play), "
                                    "moves (every legal move), quit.")
    pl.add_argument("game", type=_game_name)
    pl.add_argument("--level", default=None, help="CPU level or persona (default: normal)")
    pl.add_argument("--opponent", action="append", default=[], metavar="SPEC",
                    help="seat a policy of your own instead of a level: once for every CPU seat, or once per CPU "
                         "seat in seat order. SPEC: a .npz exported by `yuugi train`, an SB3 / sb3-contrib .zip, "
                         "module:attr naming a Policy or a function (observation, mask, rng) -> actions, or a level")
    pl.add_argument("--seat", type=_int_at_least(0), default=0)
    pl.add_argument("--seed", type=SEED, default=None)
    pl.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    pl.add_argument("--record", metavar="FILE", help="save the game played as a replay (watch it with yuugi replay "
                                                     "FILE; the folder must exist)")
    pl.add_argument("--deck", choices=NINJA_SLAYER_DECKS, default=None,
                    help="ninja_slayer: your deck (D1..D4 constructed, sealed: five fresh packs, constructed: one "
                         "of D1..D4 at random, any: one of the five); default constructed")
    pl.add_argument("--cpu-deck", choices=NINJA_SLAYER_DECKS, default=None,
                    help="ninja_slayer: the CPU's deck (as --deck)")
    pl.set_defaults(func=_cmd_play)

    r = sub.add_parser("replay", help="show a recorded game move by move",
                       description="Show a game recorded by `yuugi play GAME --record FILE` (or yuugi.envs.faces.replay) "
                                   "move by move: the table, then who played what.")
    r.add_argument("file", help="the replay file (JSON)")
    r.add_argument("--seat", type=_int_at_least(0), default=None, help="show only what this seat could see")
    r.add_argument("--step", action="store_true", help="wait for Enter between moves (q stops)")
    r.set_defaults(func=_cmd_replay)

    sv = sub.add_parser("serve", help="play in a browser: local web tables against CPUs (serve extra)",
                        description="Serve web tables on this machine (127.0.0.1 and a free port unless told) and "
                                    "print the link: choose a game, a CPU level and a seat in the browser.")
    sv.add_argument("game", nargs="?", type=_game_name, default=None, help="offer only this game (default: all)")
    sv.add_argument("--level", default=None, help="the CPU level chosen by default (default: normal)")
    sv.add_argument("--opponent", default=None, metavar="SPEC", help="a policy of your own for every CPU seat "
                    "(needs GAME; SPEC as for yuugi play --opponent)")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=_int_at_least(0, 65535), default=0, help="0 (default): a free port")
    sv.add_argument("--seed", type=SEED, default=None, help="the first table's seed")
    sv.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    sv.add_argument("--open", action="store_true", help="open the link in the default browser")
    career = sv.add_mutually_exclusive_group()
    career.add_argument("--career", default="default", metavar="PATH",
                        help="the daifugō career file (default: career.sqlite3 in your user data folder)")
    career.add_argument("--no-career", dest="career", action="store_const", const=None,
                        help="play without a career (nothing is saved)")
    sv.set_defaults(func=_cmd_serve)

    from yuugi.training.uecda.cli import add_uecda_parser  # yuugi uecda client | server: training/uecda/

    add_uecda_parser(sub)
    return p


@contextlib.contextmanager
def _our_warnings_in_one_line(prog: str) -> Iterator[None]:
    """A level played outside the rules it was checked under is said in one line, like the errors
    (``yuugi play: warning: ...``), not as Python's file:line and source line."""
    import warnings

    shown = warnings.showwarning

    def one_line(message: Any, category: type, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
        if category.__name__ == "UncheckedRulesWarning":  # yuugi.agents.level_records, not imported for --version
            print(f"{prog}: warning: {message}", file=sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        warnings.showwarning = one_line
        yield


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit status (2: a bad command line, said in one line; 130: interrupted)."""
    from yuugi.envs.core.errors import OptionError

    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed its one line (or the help)
        return int(stop.code or 0)
    args.argv = argv
    prog = f"yuugi {args.command}"
    try:
        with _our_warnings_in_one_line(prog):
            return int(args.func(args))
    except (UsageError, OptionError) as e:  # OptionError covers an unusable weights file (WeightsError)
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
