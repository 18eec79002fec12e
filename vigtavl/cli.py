"""The ``vigtavl`` command line: matches, tournaments, replays, human play (terminal and web) and PPO training.

::

    vigtavl match --agents greedy,random --games 200 --seed 0 --workers 2 --out results.json
    vigtavl tournament --agents random,greedy,aggressor,builder,search:200 --games 100
    vigtavl replay results.json --game 17 --png frames/
    vigtavl play --opponent greedy --seat 0
    vigtavl play --watch --agents greedy,random
    vigtavl serve --results runs/   # play, watch and replay in a web browser
    vigtavl train --config configs/ppo_quick.yaml --set seed=1
    vigtavl exploit --game thrones --target greedy --steps 1000000   # how exploitable an agent is
    vigtavl az train --config az          # self-play with search and learning (vigtavl az bench: throughput)
    vigtavl evaluate --model runs/<run>/best_model.zip --opponents random,greedy --games 200
    vigtavl plot runs/<run>
    vigtavl compile [build|status|clean]

(``python -m vigtavl ...`` is the same.) Each subcommand is one ``add_*`` function that
registers its parser and sets ``func``, the function that runs it; adding a subcommand is
writing one such function and listing it in ``SUBCOMMANDS``. Runs print their tables on stdout
and progress bars on stderr; errors (a bad agent name, a missing file) print one line on stderr
and exit with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from vigtavl_env.env import DEFAULT_MAX_STEPS

ERROR_STATUS = 2


# ------------------------------------------------------------------ shared options
def _agents_help() -> str:
    return ("comma-separated agent specs, e.g. greedy,random or search:200,ppo:runs/x/model.zip "
            "(a bad name lists the known agents)")


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help="players per game (default: the number of agents)")
    p.add_argument("--map", default=None,
                   help="map preset (duel, triad, quad), 'random', or a .txt map file (default: the preset "
                        "for the player count)")
    p.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g (default 0)")
    p.add_argument("--max-steps", type=positive_int, default=DEFAULT_MAX_STEPS, help="decisions after which a game is cut off")


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=positive_int, default=1, help="parallel worker processes (default 1)")
    p.add_argument("--out", default=None, help="write every game's record to this JSON file")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


# ------------------------------------------------------------------ match
def add_match(sub: Any) -> None:
    _add_games_command(sub, "match", cmd_match, "play games between agents and print a per-agent table",
                       "Play GAMES games between the agents (one per seat, seats rotated fairly) and print "
                       "games, wins, win% with a 95% Wilson interval, mean tokens and game length per "
                       "agent. A win shared by w players counts 1/w.", "number of games (default 100)")


def _add_game_name(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", dest="game_name", default="vigtavl", metavar="NAME",
                   help="the game (default vigtavl); another registered game (thrones, pig) is played "
                        "by the arena for any game (arena/) with that game's agents")


def _add_games_command(sub: Any, name: str, func: Callable[[argparse.Namespace], int], help: str,
                       description: str, games_help: str) -> None:
    """A command that plays games between ``--agents`` (match, tournament)."""
    p = sub.add_parser(name, help=help, description=description)
    _add_game_name(p)
    p.add_argument("--agents", required=True, help=_agents_help())
    p.add_argument("--games", type=positive_int, default=100, help=games_help)
    _add_game_options(p)
    _add_run_options(p)
    p.set_defaults(func=func)


def cmd_match(args: argparse.Namespace) -> int:
    if args.game_name != "vigtavl":
        return _arena_match(args)
    from arena.vigtavl_match import parse_agents, run_match
    from arena.records import check_out_path
    check_out_path(args.out)  # before the games, not after them
    agents = parse_agents(args.agents)
    return _play_and_report(lambda: run_match(
        agents, args.games, args.seed, workers=args.workers, num_players=args.players or len(agents),
        map=args.map, progress=not args.no_progress, max_steps=args.max_steps), args)


def _arena_match(args: argparse.Namespace) -> int:
    """A match of another registered game, by the arena for any game."""
    from arena.match import check_out_path, report, run_match, save_results
    check_out_path(args.out)
    records = run_match(args.game_name, args.agents.split(","), args.games, args.seed,
                        progress=not args.no_progress, **_arena_players(args))
    print(report(records))
    if args.out:
        save_results(records, args.out)
        print(f"wrote {len(records)} game records to {args.out}")
    return 0


def _arena_players(args: argparse.Namespace, workers: bool = False) -> dict[str, Any]:
    """The options the arena takes for another game; Vigtavl's own ones are refused in one line
    (``--workers`` too, unless the command plays another game's games in workers)."""
    given = [flag for flag, on in (("--map", args.map is not None),
                                   ("--max-steps", args.max_steps != DEFAULT_MAX_STEPS),
                                   ("--workers", args.workers != 1 and not workers)) if on]
    if given:
        why = ("the arena plays other games in one process, with their own board and move limit"
               if "--workers" in given else "other games keep their own board and move limit")
        raise ValueError(f"{', '.join(given)}: not taken for {args.game_name} ({why})")
    return {}


def _play_and_report(run: Callable[[], Any], args: argparse.Namespace) -> int:
    """Run a match or a tournament and report it; after Ctrl-C or SIGTERM, report the games
    it finished (:func:`_report_stopped`)."""
    from arena.vigtavl_match import RunInterrupted, sigterm_as_interrupt
    with sigterm_as_interrupt():
        try:
            result = run()
        except RunInterrupted as stop:
            return _report_stopped(stop, args.out, args.command)
    return _report(result, args.out)


def _report(result: Any, out: str | None) -> int:
    """Print a match or tournament table, and keep every game's record if asked."""
    print(result.table())
    if out:
        result.save(out)
        print(f"wrote {len(result.records)} game records to {out}")
    return 0


def _report_stopped(stop: Any, out: str | None, command: str) -> int:
    """After Ctrl-C or SIGTERM (an ``arena.vigtavl_match.RunInterrupted``): the table of the games
    finished, kept in ``out`` marked partial; the status is 128 + the signal (130, 143)."""
    result = stop.result
    line = f"vigtavl {command}: {stop}"
    if result.records:
        print(result.table())
        if out:
            result.save(out)
            line += f"; wrote them to {out}, marked partial"
    elif out:
        line += f"; nothing written to {out}"
    print(line, file=sys.stderr)
    return 128 + stop.signum


# ------------------------------------------------------------------ tournament
def add_tournament(sub: Any) -> None:
    _add_games_command(sub, "tournament", cmd_tournament, "round robin with ratings and a head-to-head matrix",
                       "Every combination of PLAYERS distinct agents plays GAMES games (seats rotated); "
                       "prints Elo (Bradley-Terry fit, ±95%) and Weng-Lin (Plackett-Luce) ratings, a "
                       "head-to-head matrix and per-agent totals.", "games per pairing (default 100)")


def cmd_tournament(args: argparse.Namespace) -> int:
    if args.game_name != "vigtavl":
        return _arena_tournament(args)
    from arena.vigtavl_match import parse_agents
    from arena.records import check_out_path
    from arena.vigtavl_tournament import run_tournament
    check_out_path(args.out)
    agents = parse_agents(args.agents)
    return _play_and_report(lambda: run_tournament(
        agents, args.games, args.seed, workers=args.workers, num_players=args.players or 2,
        map=args.map, progress=not args.no_progress, max_steps=args.max_steps), args)


def _arena_tournament(args: argparse.Namespace) -> int:
    from arena.match import check_out_path, report, save_results
    from arena.tournament import head_to_head_table, run_tournament
    check_out_path(args.out)
    _arena_players(args)
    records = run_tournament(args.game_name, args.agents.split(","), args.games, args.seed,
                             args.players or 2, progress=not args.no_progress)
    print(report(records) + "\n\n" + head_to_head_table(records))
    if args.out:
        save_results(records, args.out)
        print(f"wrote {len(records)} game records to {args.out}")
    return 0


# ------------------------------------------------------------------ replay
def add_replay(sub: Any) -> None:
    p = sub.add_parser("replay", help="replay a recorded game turn by turn",
                       description="Rebuild game GAME of a results file from its seed and decisions, "
                                   "check that it reproduces the recorded tokens and final state, and "
                                   "print it turn by turn: narrated events and a text map per turn.")
    p.add_argument("results", help="a results JSON file written by match, tournament or play --out")
    p.add_argument("--game", type=int, default=0, help="the game number (default 0)")
    p.add_argument("--png", metavar="DIR", default=None, help="also write one picture per turn into DIR")
    p.add_argument("--coords", action="store_true", help="write each hex's q,r on the pictures")
    p.add_argument("--no-maps", action="store_true", help="events only, no text maps")
    p.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    from arena.match import RESULTS_KIND, load_results as load_arena_results
    if _results_kind(args.results) == RESULTS_KIND:  # another game's results, by the arena
        from arena.terminal import narrate_record
        records = load_arena_results(args.results)
        if not 0 <= args.game < len(records):
            raise ValueError(f"{args.results} holds games 0-{len(records) - 1}, not {args.game}")
        narrate_record(records[args.game], show_board=not args.no_maps)
        return 0
    from arena.records import load_results, partial_note
    from arena.replay import pick_record, print_replay
    results = load_results(args.results)
    note = partial_note(results)
    if note:  # a run stopped early: say so, then replay what it finished
        print(f"vigtavl replay: {args.results} is {note}", file=sys.stderr)
    record = pick_record(results, args.results, args.game)
    print_replay(record, png_dir=args.png, maps=not args.no_maps, coords=args.coords)
    return 0


def _results_kind(path: str) -> str | None:
    """The ``kind`` a results file declares in its first bytes (None: none said there)."""
    import re
    try:
        with open(path, "rb") as f:
            head = f.read(256).decode("utf-8", "replace")
    except OSError:
        return None  # the loader says why, in its own words
    m = re.match(r'\s*\{\s*"kind"\s*:\s*"([\w-]{1,40})"', head)
    return m.group(1) if m else None


# ------------------------------------------------------------------ play
def add_play(sub: Any) -> None:
    p = sub.add_parser("play", help="play against an agent in the terminal (or --watch agents play)",
                       description="Play Vigtavl in the terminal against agents: the map as text, your "
                                   "purse, every event since your last decision, and the legal decisions, "
                                   "chosen by number or command (type ? in the game for help). With "
                                   "--watch, agents play each other and the game is narrated.")
    p.add_argument("--opponent", default="greedy",
                   help="the opponents' agent spec; a comma list fills the other seats in turn (default greedy)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 = first player (default 0)")
    p.add_argument("--watch", action="store_true", help="watch --agents play instead of playing")
    p.add_argument("--agents", default=None, help="with --watch: " + _agents_help())
    p.add_argument("--delay", type=float, default=0.0, help="with --watch: seconds to pause per decision")
    p.add_argument("--no-map", action="store_true", help="do not draw the map at every decision")
    p.add_argument("--out", default=None, help="save the game as a results file (replay it with replay)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None, help="players (default 2)")
    p.add_argument("--map", default=None, help="map preset, 'random' or a .txt map file")
    p.add_argument("--seed", type=int, default=None, help="game seed (default: a random one, printed)")
    _add_game_name(p)
    p.set_defaults(func=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    if args.game_name != "vigtavl":
        return _arena_play(args)
    from arena.human import play, watch
    from arena.vigtavl_match import parse_agents
    from arena.records import check_out_path
    check_out_path(args.out)
    if args.watch:
        agents = parse_agents(args.agents or "greedy,random")
        record = watch(agents, seed=args.seed, map=args.map, show_map=not args.no_map, delay=args.delay)
    else:
        record = play(parse_agents(args.opponent), seat=args.seat, seed=args.seed,
                      num_players=args.players or 2, map=args.map, show_map=not args.no_map)
    if record is not None and args.out:
        from arena.records import results_file, save_results
        save_results(results_file("game", [record]), args.out)
        so_far = " so far" if record.truncated else ""
        print(f"saved the game{so_far} to {args.out} (vigtavl replay {args.out} --game 0)")
    return 0


def _arena_play(args: argparse.Namespace) -> int:
    """Terminal play (or --watch) of another game, by the arena for any game."""
    from arena.match import check_out_path, save_results
    from arena.terminal import play, watch
    check_out_path(args.out)
    if args.map is not None:
        raise ValueError(f"--map is a Vigtavl option; {args.game_name} has none")
    if args.watch:
        record = watch(args.game_name, (args.agents or "random,random").split(","), seed=args.seed,
                       show_board=not args.no_map, delay=args.delay)
    else:
        record = play(args.game_name, args.opponent.split(","), seat=args.seat, seed=args.seed,
                      num_players=args.players, show_board=not args.no_map)
    if args.out:
        save_results([record], args.out)
        print(f"saved the game to {args.out} (vigtavl replay {args.out})")
    return 0


# ------------------------------------------------------------------ serve
def add_serve(sub: Any) -> None:
    p = sub.add_parser("serve", help="play, watch and replay games in a web browser",
                       description="A local web app: play against any agents by clicking on the board, "
                                   "watch agents play (pause, speed, step), and replay results files "
                                   "decision by decision. Open the address it prints.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every address of "
                        "this machine, which it warns about, printing http://127.0.0.1:PORT/ to open here)")
    p.add_argument("--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--results", action="append", default=[], metavar="DIR",
                   help="a folder whose results files the replay page may open (repeatable)")
    p.add_argument("--model", action="append", default=[], metavar="PATH",
                   help="a model file agents may load as ppo:PATH (repeatable; model files are pickles: "
                        "name only files you trust)")
    p.add_argument("--maps", action="append", default=[], metavar="DIR",
                   help="a folder whose .txt maps games may use, named relative to it (repeatable; "
                        "besides the presets and 'random')")
    p.add_argument("--think-ms", type=positive_int, default=2000, metavar="MS",
                   help="the longest an agent may think per decision (default 2000): a search spec "
                        "without a time limit gets this one, one with a longer limit is refused")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a name the Host header may give besides the loopback names and --host "
                        "(repeatable; for a server reached by name beyond this machine)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from webapp import serve
    serve(args.host, args.port, results=args.results, models=args.model, maps=args.maps,
          think_ms=args.think_ms, allow_hosts=args.allow_host)
    return 0


# ------------------------------------------------------------------ train
def add_train(sub: Any) -> None:
    p = sub.add_parser("train", help="train a PPO agent (MaskablePPO) against bots and self-play snapshots",
                       description="Train MaskablePPO on one learner seat against a weighted pool of bots "
                                   "(and snapshots of itself) as the config says; writes runs/<run>/ "
                                   "(config.yaml, progress.csv, checkpoints, best_model.zip). The config's "
                                   "fields are documented in training/config.py and in the saved config.yaml.")
    p.add_argument("--config", default=None,
                   help="a YAML config (configs/ppo_*.yaml); default: the run's config.yaml with --resume, "
                        "else the defaults in training/config.py")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config field (YAML value; dotted keys for nested fields, e.g. "
                        "net.channels=32); repeatable")
    p.add_argument("--resume", default=None, metavar="RUN_DIR|CHECKPOINT",
                   help="continue a run up to total_timesteps: from a run folder's newest good checkpoint "
                        "(a damaged one is passed over; a run that saved none starts again), or from a "
                        "checkpoint (its timestep count, weights and optimizer). Ctrl-C or SIGTERM saves one "
                        "and exits with status 130 or 143")
    p.add_argument("--backend", choices=("sb3", "rllib"), default=None,
                   help="the trainer (the config's backend: sb3 by default): sb3-contrib's MaskablePPO, or Ray "
                        "RLlib's PPO (pip install -e '.[rllib]'); same as --set backend=...")
    p.add_argument("--game", default=None, metavar="NAME",
                   help="the game (default: the config's, vigtavl); another registered game (pig, thrones) "
                        "trains through the game interface (training/game_train.py); without --config its "
                        "policy is mlp and its eval opponent random. Same as --set game=NAME")
    p.add_argument("--ray-address", default=None, metavar="ADDRESS",
                   help="rllib: the Ray cluster to run on ('auto', or ray://HOST:10001); default: a private "
                        "local Ray instance (another Ray cluster on this machine is left alone)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)


def _run_config(args: argparse.Namespace, overrides: list[str], cls: type | None = None) -> tuple[Any, Any]:
    """A trainer's config and its file: ``--config``, else with ``--resume`` the run's own
    config.yaml, else the defaults; ``overrides`` applied (``cls``: the config's dataclass)."""
    from training.config import load_config
    from training.runs import CONFIG_FILE, find_run_dir
    config = args.config
    if config is None and args.resume:
        run = find_run_dir(args.resume)
        config = run / CONFIG_FILE if run is not None else None
    return load_config(config, overrides, cls=cls), config


def _game_overrides(args: argparse.Namespace) -> list[str]:
    """``--game NAME`` as config overrides (another game's defaults too when no --config names them)."""
    if args.game is None:
        return []
    defaults = ["policy=mlp", "eval_opponents=[random]"] if args.game != "vigtavl" and args.config is None else []
    return [f"game={args.game}", *defaults]


def cmd_train(args: argparse.Namespace) -> int:
    from pathlib import Path

    from training.game_train import train_game
    from training.stopping import TrainingStopped
    from training.train import train
    cfg, config = _run_config(args, _game_overrides(args) + args.set
                              + ([f"backend={args.backend}"] if args.backend else []))
    name = Path(config).stem if config else "default"
    try:
        if cfg.game != "vigtavl" and cfg.backend == "rllib":  # another game on RLlib: its MultiAgentEnv
            run_dir = _train_game_on_rllib(cfg, args, name)
        elif cfg.game != "vigtavl":  # another game: through the game interface
            run_dir = train_game(cfg, resume=args.resume, progress=not args.no_progress, config_name=name)
        else:
            run_dir = train(cfg, resume=args.resume, progress=not args.no_progress, ray_address=args.ray_address,
                            config_name=name)
    except TrainingStopped as e:  # a checkpoint saved: the status a shell gives the signal (130, 143)
        print(f"vigtavl train: {e}", file=sys.stderr)
        return e.status
    best = run_dir / "best_model.zip"  # only when the run evaluated
    model = f"best model: {best}" if best.is_file() else f"final model: {run_dir / 'final_model.zip'}"
    print(f"run saved in {run_dir} ({model}; curves: vigtavl plot {run_dir})")
    if (run_dir / "tb").is_dir():
        print(f"TensorBoard logs in {run_dir / 'tb'}: tensorboard --logdir {run_dir / 'tb'}")
    return 0


def _train_game_on_rllib(cfg: Any, args: argparse.Namespace, name: str) -> Any:
    """Another game on RLlib (training/rllib_game.py), when the extra is installed."""
    try:
        from training.rllib import train_rllib  # noqa: F401  (the extra's one-line message if Ray is missing)
        from training.rllib_game import train_game_rllib
    except ImportError as e:
        raise ValueError(str(e)) from None
    return train_game_rllib(cfg, args.resume, not args.no_progress, name, args.ray_address)


# ------------------------------------------------------------------ exploit
def add_exploit(sub: Any) -> None:
    from training.exploit import DEFAULT_GAMES, DEFAULT_STEPS
    p = sub.add_parser("exploit", help="how exploitable an agent is: a fresh PPO learner trained against it alone",
                       description="Train a fresh PPO learner for --steps against the target agent alone "
                                   "(training/game_train.py), then play --games games against the target on "
                                   "new seeds; prints the win rate reached with its 95% interval and writes "
                                   "exploit.json, exploit_curve.txt and exploit_curve.png in the run folder.")
    p.add_argument("--game", dest="game_name", required=True, metavar="NAME",
                   help="the game (thrones, pig: any registered game but vigtavl, trained through the game interface)")
    p.add_argument("--target", required=True, help="the frozen agent to exploit (a spec of the game: greedy, "
                                                   "ppo:PATH, ...)")
    p.add_argument("--steps", type=positive_int, default=DEFAULT_STEPS,
                   help=f"the learner's training budget in steps (default {DEFAULT_STEPS:,})")
    p.add_argument("--games", type=positive_int, default=DEFAULT_GAMES,
                   help=f"final games against the target (default {DEFAULT_GAMES})")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="the run folder, new or empty (default runs/exploit-GAME-TARGET-<time>)")
    p.add_argument("--config", default=None,
                   help="the learner's config (default: configs/ppo_GAME.yaml where shipped)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a learner setting (not its opponents, budget or evaluation); repeatable")
    p.add_argument("--resume", default=None, metavar="RUN_DIR",
                   help="go on with an exploit run stopped by Ctrl-C or SIGTERM (the same --game and --target; "
                        "--steps may raise its budget)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(func=cmd_exploit)


def cmd_exploit(args: argparse.Namespace) -> int:
    from training.exploit import RESULT_FILE, exploit
    from training.stopping import TrainingStopped
    try:
        result = exploit(args.game_name, args.target, args.steps, args.seed, args.out, args.games,
                         args.config, args.set, progress=not args.no_progress, resume=args.resume)
    except TrainingStopped as e:
        go_on = (f"; go on with: vigtavl exploit --game {args.game_name} --target {args.target} --steps {args.steps} "
                 f"--resume {e.run_dir}") if e.run_dir is not None else ""
        print(f"vigtavl exploit: {str(e).partition('; continue with')[0]}{go_on}", file=sys.stderr)
        return e.status
    print(result.summary())
    print(f"results in {result.run_dir}/{RESULT_FILE} (curve: exploit_curve.txt, exploit_curve.png)")
    return 0


# ------------------------------------------------------------------ az
def add_az(sub: Any) -> None:
    p = sub.add_parser("az", help="self-play with search and learning in one loop (Gumbel AlphaZero)",
                       description="Agents that improve by themselves: `vigtavl az train` runs generations of "
                                   "self-play searched with the network (agents/gumbel.py), trains it on the "
                                   "search's improved policy and the results, and evaluates each generation; "
                                   "`vigtavl az bench` measures self-play throughput beside the search bot.")
    az = p.add_subparsers(dest="az_command", metavar="ACTION", required=True)
    t = az.add_parser("train", help="train (or --resume) an az run as a config says (configs/az.yaml)",
                      description="Writes runs/<run>/: config.yaml, generations/gen_<k>.pt, checkpoints/az_<positions>/, "
                                  "progress.csv and tb/. Ctrl-C or SIGTERM saves a checkpoint and exits 130 or 143.")
    t.add_argument("--config", default=None, help="a YAML config (configs/az.yaml, or 'az'); default: the run's "
                                                  "config.yaml with --resume, else the defaults in training/az_config.py")
    t.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config field (dotted keys for nested fields: search.simulations=8); repeatable")
    t.add_argument("--resume", default=None, metavar="RUN_DIR|CHECKPOINT",
                   help="continue a run from its newest good checkpoint (or the az_<positions> folder given)")
    t.add_argument("--ray", action="store_true",
                   help="the loop on Ray (training/az_ray/): self-play actors, a learner and evaluators, "
                        "as the config's ray: group says; a private local Ray instance unless --ray-address")
    t.add_argument("--ray-address", default=None, metavar="ADDRESS",
                   help="with --ray: the Ray cluster to run on ('auto', HOST:PORT or ray://HOST:10001)")
    t.add_argument("--num-cpus", type=positive_int, default=None,
                   help="with --ray: CPUs of the private local Ray instance (default 2)")
    t.add_argument("--no-progress", action="store_true", help="no progress bar")
    t.set_defaults(func=cmd_az_train)
    v = az.add_parser("value", help="how often a network's value head foresees the result, phase by phase",
                      description="Plays --games games of the network alone in every seat and prints, per "
                                  "phase, the share of positions where the sign of the value for the player "
                                  "to move is the sign of that player's result (ties and cut games left out).")
    v.add_argument("--model", required=True,
                   help="an az model file (runs/<run>/generations/gen_<k>.pt) or 'pretrained'")
    v.add_argument("--games", type=positive_int, default=200, help="games to play (default 200)")
    v.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g (default 0)")
    v.add_argument("--map", default=None, help="map preset or file (default: the preset for the network's players)")
    v.add_argument("--max-steps", type=positive_int, default=1500, help="decisions after which a game is cut off")
    v.set_defaults(func=cmd_az_value)
    b = az.add_parser("bench", help="self-play positions per second with search, beside the search bot",
                      description="Plays self-play games with the az search (the network from --model, or the "
                                  "PPO network converted) for --seconds, then the search bot against itself for "
                                  "as long, in the same process, and prints decisions per second of each.")
    b.add_argument("--model", default="ppo:pretrained",
                   help="an az model file, or ppo:MODEL to convert a PPO network (default ppo:pretrained)")
    b.add_argument("--simulations", type=positive_int, default=16, help="simulations per decision (default 16)")
    b.add_argument("--games", type=positive_int, default=16, help="self-play games searched together (default 16)")
    b.add_argument("--seconds", type=float, default=30.0, help="seconds per measurement (default 30)")
    b.add_argument("--threads", type=positive_int, default=2, help="torch threads (default 2)")
    b.add_argument("--seed", type=int, default=0, help="game seeds start here (default 0)")
    b.set_defaults(func=cmd_az_bench)
    i = az.add_parser("improve", help="another game's model improved by search-guided self-play after the reveal",
                      description="Generations of a game's PPO model (ppo:PATH) playing itself: its policy "
                                  "draws the moves while a secret is hidden (Thrones' setups), the Gumbel search "
                                  "with the model plays every move after; the model is fitted to the search's "
                                  "improved policy and the results. Writes generations/gen_<k>.zip (each plays "
                                  "as ppo:PATH and ppo-search:PATH), progress.csv and improve_curve.png; "
                                  "Ctrl-C or SIGTERM keeps the generations saved, --resume goes on.")
    _add_game_name(i)
    i.add_argument("--model", default=None, help="the model to start from: a .zip trained on the game, "
                                                         "or 'pretrained' for its shipped one (default)")
    i.add_argument("--generations", type=positive_int, required=True, help="generations to reach in all")
    i.add_argument("--games", type=positive_int, default=None, help="self-play games per generation (default 32)")
    i.add_argument("--simulations", type=positive_int, default=None, help="simulations per decision (default 16)")
    i.add_argument("--seed", type=int, default=None, help="seeds the games, the search and the fit (default 0)")
    i.add_argument("--eval-games", type=int, default=None,
                   help="games of each new model alone against --eval-opponent (default 20; 0: none)")
    i.add_argument("--eval-opponent", default=None, help="the game's agent spec to evaluate against (default greedy)")
    i.add_argument("--out", default=None, help="the run folder, new or empty (default runs/improve-GAME-<time>)")
    i.add_argument("--resume", default=None, metavar="RUN_DIR",
                   help="go on with an improve run after its newest generation (its own settings)")
    i.add_argument("--no-progress", action="store_true", help="no progress bar")
    i.set_defaults(func=cmd_az_improve)


def cmd_az_train(args: argparse.Namespace) -> int:
    from pathlib import Path

    from training.az import COMMAND, train_az
    from training.az_config import AZConfig
    from training.stopping import TrainingStopped
    ray = args.ray or args.ray_address is not None
    if not ray and args.num_cpus is not None:
        raise ValueError("--num-cpus is for the Ray loop: add --ray")
    if args.ray_address is not None and not args.ray_address.strip():
        raise ValueError("--ray-address needs an address ('auto', HOST:PORT or ray://HOST:10001)")
    if args.ray_address is not None and args.num_cpus is not None:
        raise ValueError("--num-cpus sizes a private local Ray instance; a cluster (--ray-address) has its own")
    cfg, config = _run_config(args, args.set, AZConfig)
    try:
        if ray:
            from training.az_ray.loop import train_az_ray
            run_dir = train_az_ray(cfg, resume=args.resume, progress=not args.no_progress,
                                   config_name=Path(config).stem if config else "az",
                                   ray_address=args.ray_address, num_cpus=args.num_cpus or 2)
        else:
            run_dir = train_az(cfg, resume=args.resume, progress=not args.no_progress,
                               config_name=Path(config).stem if config else "az")
    except TrainingStopped as e:
        print(f"{COMMAND}: {e}", file=sys.stderr)
        return e.status
    print(f"run saved in {run_dir} (networks: {run_dir / 'generations'}; TensorBoard: "
          f"tensorboard --logdir {run_dir / 'tb'})")
    return 0


def cmd_az_improve(args: argparse.Namespace) -> int:
    import time

    from training.search_selfplay import COMMAND, check_generations, improve, resume_run, start_run
    from training.stopping import TrainingStopped
    if args.game_name == "vigtavl":
        raise ValueError("improve is for another game's PPO model (--game thrones); Vigtavl's loop is vigtavl az train")
    check_generations(args.generations)
    given = {k: getattr(args, k) for k in ("games", "simulations", "seed", "eval_games", "eval_opponent")
             if getattr(args, k) is not None}
    if args.resume is not None:
        named = [f"--{k.replace('_', '-')}" for k in (*given, *(k for k in ("model", "out") if getattr(args, k)))]
        if named:
            raise ValueError(f"--resume goes on with the run's own settings: no {', '.join(named)}")
        run_dir, settings = resume_run(args.resume)
        if settings.game != args.game_name:
            raise ValueError(f"--resume {args.resume[:120]}: a run of {settings.game}, not {args.game_name}")
    else:
        out = args.out or f"runs/improve-{args.game_name}-{time.strftime('%Y%m%d-%H%M%S')}"
        run_dir, settings = start_run(args.game_name, args.model or "pretrained", out, **given)
    try:
        improve(run_dir, settings, args.generations, progress=not args.no_progress)
    except TrainingStopped as e:
        print(f"{COMMAND}: {e}", file=sys.stderr)
        return e.status
    print(f"generations in {run_dir / 'generations'} (curve: {run_dir / 'improve_curve.png'})")
    return 0


def cmd_az_value(args: argparse.Namespace) -> int:
    from agents.az import load_az_net
    from training.az_ray.value_check import agreement_table, measure
    net = load_az_net(args.model)
    print(agreement_table(measure(net, args.games, args.seed, net.n_players, args.map, args.max_steps)))
    return 0


def cmd_az_bench(args: argparse.Namespace) -> int:
    from training.az_bench import bench, bench_table
    print(bench_table(bench(args.model, args.simulations, args.games, args.seconds, args.threads, args.seed)))
    return 0


# ------------------------------------------------------------------ evaluate
EVALUATE_OPPONENTS = "random,greedy,aggressor,builder"  # Vigtavl's; another game's: its random, greedy, search


def add_evaluate(sub: Any) -> None:
    p = sub.add_parser("evaluate", help="a trained model against bots: win rates with 95%% intervals",
                       description="Play GAMES games of the model against each opponent (in every other "
                                   "seat, seats rotated, the same seeds for every opponent) and print the "
                                   "model's win rate with a 95% Wilson interval, tokens and game length.")
    _add_game_name(p)
    p.add_argument("--model", required=True,
                   help="a model .zip trained on the game (runs/<run>/best_model.zip), or 'pretrained' "
                        "for the game's shipped agent")
    p.add_argument("--opponents", default=EVALUATE_OPPONENTS,
                   help="comma-separated agent specs, each in every other seat, or a lineup such as "
                        "greedy+aggressor filling them in turn (default random,greedy,aggressor,builder; "
                        "another game: those of random, greedy and search it has)")
    p.add_argument("--games", type=positive_int, default=100, help="games per opponent (default 100)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help="players per game (default: the count the model was trained for)")
    p.add_argument("--map", default=None, help="map preset, 'random' or a .txt map file (default: the preset)")
    p.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g (default 0)")
    p.add_argument("--max-steps", type=positive_int, default=DEFAULT_MAX_STEPS, help="decisions after which a game is cut off")
    p.add_argument("--workers", type=positive_int, default=1, help="parallel worker processes (default 1)")
    p.add_argument("--search", type=int, default=None, metavar="N",
                   help="search on top of the model: the agent ppo-search:MODEL:N, whose N simulations per "
                        "decision judge the model's favourite actions beside the heuristic's (another game: "
                        "the model inside the Gumbel search once nothing is hidden; default: the model "
                        "alone, ppo:MODEL)")
    p.add_argument("--out", default=None, help="write the table as JSON to this file")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_evaluate)


def cmd_evaluate(args: argparse.Namespace) -> int:
    import json

    if args.game_name != "vigtavl":
        return _evaluate_game(args)
    from arena.vigtavl_match import parse_agents
    from arena.records import check_out_path, write_file
    from training.evaluate import evaluate_model, evaluation_table, summary
    check_out_path(args.out)
    results = evaluate_model(args.model, parse_agents(args.opponents), args.games, players=args.players,
                             seed=args.seed, workers=args.workers, map=args.map, max_steps=args.max_steps,
                             progress=not args.no_progress, search=args.search)
    print(evaluation_table(args.model, results))
    if args.out:
        write_file(args.out, json.dumps({"model": args.model, "seed": args.seed, "search": args.search,
                                         "opponents": summary(results)}, indent=1))
        print(f"wrote {args.out}")
    return 0


def _evaluate_game(args: argparse.Namespace) -> int:
    """``evaluate --game NAME``: the model of another game against each opponent, by the arena."""
    import json

    import torch as th
    from tqdm import tqdm

    from agents.game_ppo import model_path
    from agents.kinds import AgentSpec, kinds_for
    from arena.records import check_out_path, write_file
    from training.game_train import eval_table, evaluate_game_model
    check_out_path(args.out)
    _arena_players(args, workers=True)
    path = model_path(args.model, args.game_name)
    if args.search is not None:
        from agents.game_ppo_search import MAX_SIMULATIONS
        if not 1 <= args.search <= MAX_SIMULATIONS:
            raise ValueError(f"--search takes 1-{MAX_SIMULATIONS} simulations per decision, got {args.search}")
    opponents = [o.strip() for o in args.opponents.split(",")] if args.opponents else []
    if args.opponents == EVALUATE_OPPONENTS:
        opponents = [k for k in ("random", "greedy", "search") if k in kinds_for(args.game_name)]
    for o in opponents:
        AgentSpec.parse(o, args.game_name)  # every spec checked before the first game
    players = args.players or 2
    results = []
    th.set_num_threads(1)  # batch-1 decisions: a second thread only fights the other processes
    for o in tqdm(opponents, desc="opponents", unit="opponent", disable=args.no_progress):
        results.append(evaluate_game_model(args.game_name, path, o, args.games, args.seed, players,
                                           search=args.search, workers=args.workers))
    agent = f"ppo-search:{args.model}:{args.search}" if args.search else f"ppo:{args.model}"
    print(f"{agent} ({args.game_name}), seeds {args.seed}-{args.seed + args.games - 1}\n{eval_table(results)}")
    if args.out:
        write_file(args.out, json.dumps({"game": args.game_name, "model": args.model, "seed": args.seed,
                                         "search": args.search,
                                         "opponents": [{"opponent": r.opponent, "games": r.games, "wins": r.wins,
                                                        "win_rate": r.win_rate, "interval": list(r.interval),
                                                        "cut": r.truncated} for r in results]}, indent=1))
        print(f"wrote {args.out}")
    return 0


# ------------------------------------------------------------------ plot
def add_plot(sub: Any) -> None:
    p = sub.add_parser("plot", help="draw a run's learning curves (PNG)",
                       description="Draw the mean episode reward and the win rates (per eval opponent and in "
                                   "training games) over timesteps from a run's progress CSV logs.")
    p.add_argument("run", help="a run folder (runs/<run>)")
    p.add_argument("--out", default=None, help="the PNG to write (default runs/<run>/learning_curve.png)")
    p.set_defaults(func=cmd_plot)


def cmd_plot(args: argparse.Namespace) -> int:
    from training.plot import plot_run
    print(f"wrote {plot_run(args.run, args.out)}")
    return 0


# ------------------------------------------------------------------ compile
def add_compile(sub: Any) -> None:
    p = sub.add_parser("compile", help="the compiled core (Cython): its status, or rebuild it in a source checkout",
                       description="The install builds the compiled core (the engine, the observation encoder "
                                   "and the bots as C extensions); without a C compiler everything runs as "
                                   "plain Python. In a source checkout, `vigtavl compile` rebuilds in place what "
                                   "changed (make compile): see vigtavl_env/compiled.py.")
    p.add_argument("action", nargs="?", choices=("build", "status", "clean"), default="build",
                   help="rebuild what changed (default), say whether the core is compiled, or remove it")
    p.add_argument("--force", action="store_true", help="rebuild every module")
    p.add_argument("--modules", action="store_true", help="with status: one line per module")
    p.set_defaults(func=cmd_compile)


def cmd_compile(args: argparse.Namespace) -> int:
    from vigtavl_env import compiled
    if args.action == "build":
        try:
            print(compiled.build(force=args.force))
        except ValueError as e:  # no Cython, no C compiler, an installed package: nothing was replaced
            print(f"vigtavl compile: error: {e}", file=sys.stderr)
            return ERROR_STATUS
    elif args.action == "clean":
        removed = compiled.clean()
        print(f"removed {len(removed)} files of the compiled core: plain Python from now on")
    else:
        print(compiled.core_summary())
        if args.modules:
            for module, state in compiled.module_states().items():
                print(f"  {module:34s} {state}")
    return 0


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def positive_int(text: str) -> int:
    """argparse type: an int of at least 1 (``--workers 0`` is refused, not taken as 1)."""
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def port_number(text: str) -> int:
    """argparse type: a TCP port, 0 to 65535 (0: any free port)."""
    value = _whole_number(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {value}")
    return value


# ------------------------------------------------------------------ the parser
SUBCOMMANDS: tuple[Callable[[Any], None], ...] = (add_match, add_tournament, add_replay, add_play, add_serve,
                                                  add_train, add_exploit, add_az, add_evaluate, add_plot, add_compile)


class VersionAction(argparse.Action):
    """``--version``: one line, worked out only when asked (it imports the environment)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(version_line())
        parser.exit()


def version_line() -> str:
    """``vigtavl --version``: one line."""
    from importlib.metadata import PackageNotFoundError, version

    from vigtavl_env import ENV_NAME, compiled
    try:
        package = version("vigtavl")
    except PackageNotFoundError:
        package = "(not installed)"
    return f"vigtavl {package}, environment {ENV_NAME}; {compiled.core_summary()}"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vigtavl", description="Vigtavl: matches, tournaments, replays, human play and PPO training.",
        epilog="run 'vigtavl COMMAND --help' for a command's options")
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="the package's version, the environment's, and whether the core is compiled")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (errors: one line on stderr, status 2)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, FileNotFoundError) as e:
        print(f"vigtavl {args.command}: error: {e}", file=sys.stderr)
        return ERROR_STATUS
    except OSError as e:  # a folder where a file goes, no permission, a full disk: one line
        where = f" {e.filename}" if getattr(e, "filename", None) else ""
        print(f"vigtavl {args.command}: error:{where} {e.strerror or e}", file=sys.stderr)
        return ERROR_STATUS
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM where a command turns it into one
        import signal
        print("interrupted", file=sys.stderr)
        return 128 + int(getattr(e, "signum", signal.SIGINT))


if __name__ == "__main__":
    sys.exit(main())
