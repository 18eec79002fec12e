"""Search-guided self-play of a game's model: AlphaZero after the reveal (``vigtavl az improve``).

::

    vigtavl az improve --game thrones --model pretrained --generations 10 --out runs/thrones-az
    vigtavl az improve --game thrones --resume runs/thrones-az --generations 20

A MaskablePPO model of any registered game (``ppo:PATH``; ``pretrained`` is the game's shipped
one) improves by playing itself with search, generation by generation, through the game
interface alone (issue 58, item 2):

- **Before the reveal** (:meth:`games.interface.GameState.hidden_information`: Thrones' setups)
  the model's policy draws each move, as ``ppo-search`` plays then: nothing hidden is searched.
  These positions teach the value head only.
- **After it**, every decision with a choice is :mod:`agents.gumbel`'s search of the seat's view
  (``simulations``, Gumbel noise at the root as in self-play; chance drawn anew in every
  simulation), the model's logits as the prior and its value head at the leaves, exactly
  ``ppo-search``'s evaluator. The search's improved policy is the position's policy target.
- **Targets and fit.** A position's value target is its player's result (0 for a game cut at
  ``max_decisions``). The model is fitted to this generation's positions and those of the
  ``window - 1`` before it: ``epochs`` passes of Adam over the cross-entropy of the improved
  policy under the masked policy plus the squared error of the value.

The games of a generation run in lockstep, so each round of every search is one network call
for all of them. The run folder holds ``improve.json`` (the settings), ``generations/gen_<k>.zip``
(each a model file that ``ppo:`` and ``ppo-search:`` play; ``gen_0`` is the start),
``positions/gen_<k>.npz`` (the window's positions, for resuming), ``progress.csv`` (one row per
generation: self-play statistics, the losses, and the model alone against ``eval_opponent``) and
``improve_curve.png``. Ctrl-C or SIGTERM drops the generation under way; ``--resume`` goes on
after the newest saved one.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from torch.nn import functional as F
from tqdm import tqdm

from agents.game_ppo import MASKED, load_model_file, model_path, policy_logits, policy_probs
from agents.game_ppo_search import CONSIDERED, PolicyEvaluator
from agents.game_steps import INTERFACE_STEPS
from agents.kinds import make_player
from agents.gumbel import BatchedSearch, SearchConfig
from games.registry import load_game
from training.files import replacing, save_model, write_text
from training.lifecycle import RunLifecycle
from training.logs import metric_name
from training.plot import EVAL_PREFIX, X_KEY
from training.runs import Run, lock_run_dir

COMMAND = "vigtavl az improve"
SETTINGS_FILE, PROGRESS_FILE, CURVE_PNG = "improve.json", "progress.csv", "improve_curve.png"
MAX_GENERATIONS, MAX_GAMES, MAX_SIMULATIONS = 10_000, 4096, 1000
EVAL_SEED_OFFSET = 10_000_000  # the evaluation's games: apart from every generation's self-play seeds


@dataclass
class ImproveSettings:
    """One run's settings (``improve.json``); the command line's, checked by :meth:`check`."""

    game: str
    start: str  # the model the run started from (a path, resolved)
    games: int = 32
    simulations: int = 16
    seed: int = 0
    max_decisions: int = 2000
    window: int = 2
    epochs: int = 2
    batch_size: int = 256
    learning_rate: float = 1e-4
    value_weight: float = 1.0
    eval_games: int = 20
    eval_opponent: str = "greedy"

    def check(self) -> "ImproveSettings":
        for name, low, high in (("games", 1, MAX_GAMES), ("simulations", 1, MAX_SIMULATIONS),
                                ("window", 1, 100), ("epochs", 1, 100), ("batch_size", 1, 65536),
                                ("max_decisions", 1, 1_000_000), ("eval_games", 0, 100_000)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{name} takes a whole number in {low}-{high}, got {value!r}")
        if not 0 < self.learning_rate <= 1 or self.value_weight < 0:
            raise ValueError("learning_rate must be in (0, 1] and value_weight >= 0")
        return self


@dataclass
class Positions:
    """Searched and drawn positions of one generation: observation, the legal actions (a padded
    row each), the policy target over them (all zero where none: the value alone is taught)
    and the value target."""

    obs: np.ndarray       # (N, C, H, W) float16
    legal: np.ndarray     # (N, L) int32, -1 padding
    policy: np.ndarray    # (N, L) float32
    value: np.ndarray     # (N,) float32

    def save(self, path: Path) -> None:
        with replacing(path) as tmp, open(tmp, "wb") as f:
            np.savez_compressed(f, **asdict(self))

    @classmethod
    def load(cls, path: Path) -> "Positions":
        with np.load(path) as data:
            return cls(**{f.name: data[f.name] for f in fields(cls)})

    @classmethod
    def concat(cls, parts: list["Positions"]) -> "Positions":
        width = max(p.legal.shape[1] for p in parts)
        pad = [(cls._pad(p.legal, width, -1), cls._pad(p.policy, width, 0.0)) for p in parts]
        return cls(np.concatenate([p.obs for p in parts]), np.concatenate([a for a, _ in pad]),
                   np.concatenate([b for _, b in pad]), np.concatenate([p.value for p in parts]))

    @staticmethod
    def _pad(a: np.ndarray, width: int, fill: float) -> np.ndarray:
        return np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=fill)


def load_start(arg: str, game: str) -> Any:
    """A private copy of the model ``arg`` names (never the players' cached one: it is trained)."""
    return load_model_file(model_path(arg, game))


def self_play(model: Any, s: ImproveSettings, generation: int, stop: Any = None,
              progress: bool = False) -> tuple[Positions, dict[str, float]]:
    """``s.games`` games of ``model`` against itself (module docstring), game g on seed
    ``seed + generation * games + g``; the positions and the generation's statistics."""
    game = load_game(s.game)
    n = game.check_players(None)
    states = [game.new_state(n, s.seed + generation * s.games + g) for g in range(s.games)]
    n_players = states[0].num_players
    search = BatchedSearch(PolicyEvaluator(model.policy, n_players), n_players,
                           SearchConfig(simulations=s.simulations, considered=CONSIDERED,
                                        leaves_per_round=CONSIDERED),
                           seed=s.seed + generation, stop=stop, steps=INTERFACE_STEPS)
    rng = np.random.default_rng([s.seed, generation])
    rows: list[list[tuple[np.ndarray, list[int], np.ndarray | None, int]]] = [[] for _ in states]
    decisions = np.zeros(len(states), dtype=np.int64)
    searched = 0
    bar = tqdm(total=len(states), desc=f"generation {generation} self-play", unit="game", disable=not progress)
    live = list(range(len(states)))
    while live:
        drawn, to_search = [], []
        for i in live:
            st = states[i]
            legal = st.legal_actions()
            if len(legal) == 1:
                st.apply_action(legal[0])
            elif st.hidden_information():
                drawn.append((i, legal))
            else:
                to_search.append(i)
        if drawn:
            views = [states[i].view_for(states[i].current_player()) for i, _ in drawn]
            obs = np.stack([v.observation(v.current_player()) for v in views])
            for (i, legal), o, p in zip(drawn, obs, policy_probs(model.policy, obs, [lg for _, lg in drawn])):
                p = p.astype(np.float64)
                rows[i].append((o, legal, None, states[i].current_player()))
                states[i].apply_action(int(legal[rng.choice(len(legal), p=p / p.sum())]))
        if to_search:
            views = [states[i].view_for(states[i].current_player()) for i in to_search]
            for i, v, r in zip(to_search, views, search.run(views)):
                rows[i].append((v.observation(v.current_player()), r.legal, r.policy, v.current_player()))
                states[i].apply_action(int(r.action))
                searched += 1
        for i in live:
            decisions[i] += 1
        done = [i for i in live if states[i].is_over() or decisions[i] >= s.max_decisions]
        if done:
            bar.update(len(done))
        live = [i for i in live if i not in done]
    bar.close()
    return _positions(states, rows), {
        "selfplay/games": float(len(states)), "selfplay/positions": float(sum(map(len, rows))),
        "selfplay/searched": float(searched), "selfplay/mean_length": float(decisions.mean()),
        "selfplay/cut": float(sum(not st.is_terminal() for st in states)),
        "selfplay/first_seat_win": float(np.mean([_result(st, 0) > 0 for st in states]))}


def _result(state: Any, seat: int) -> float:
    return float(state.returns()[seat]) if state.is_terminal() else 0.0


def _positions(states: list[Any], rows: list[list[tuple[np.ndarray, list[int], np.ndarray | None, int]]]) -> Positions:
    flat = [(o, legal, pol, _result(st, p)) for st, game_rows in zip(states, rows) for o, legal, pol, p in game_rows]
    width = max(len(legal) for _, legal, _, _ in flat)
    legal_a = np.full((len(flat), width), -1, dtype=np.int32)
    policy_a = np.zeros((len(flat), width), dtype=np.float32)
    for k, (_, legal, pol, _) in enumerate(flat):
        legal_a[k, :len(legal)] = legal
        if pol is not None:
            policy_a[k, :len(legal)] = pol
    return Positions(np.stack([o for o, *_ in flat]).astype(np.float16), legal_a, policy_a,
                     np.array([v for *_, v in flat], dtype=np.float32))


def fit(model: Any, data: Positions, s: ImproveSettings, generation: int) -> dict[str, float]:
    """``s.epochs`` passes of Adam over ``data`` (module docstring); the last pass's mean losses."""
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = th.optim.Adam(policy.parameters(), lr=s.learning_rate)
    rng = np.random.default_rng([s.seed, generation, 1])
    n_actions = int(model.action_space.n)
    losses: list[tuple[float, float]] = []
    for _ in range(s.epochs):
        losses = []
        for idx in np.array_split(rng.permutation(len(data.value)), max(1, -(-len(data.value) // s.batch_size))):
            obs = th.as_tensor(data.obs[idx]).float()
            legal, target = th.as_tensor(data.legal[idx]).long(), th.as_tensor(data.policy[idx])
            valid = legal >= 0
            mask = th.zeros(len(idx), n_actions, dtype=th.bool)
            mask[th.nonzero(valid, as_tuple=True)[0], legal[valid]] = True
            logp = F.log_softmax(policy_logits(policy, obs).masked_fill(~mask, MASKED), dim=1)
            picked = logp.gather(1, legal.clamp(min=0)) * valid
            has_target = target.sum(1) > 0
            policy_loss = -(target * picked).sum(1)[has_target].mean() if has_target.any() else th.zeros(())
            value_loss = F.mse_loss(policy.predict_values(obs).flatten(), th.as_tensor(data.value[idx]))
            optimizer.zero_grad()
            (policy_loss + s.value_weight * value_loss).backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 5.0)
            optimizer.step()
            losses.append((policy_loss.item(), value_loss.item()))
    policy.set_training_mode(False)
    return {"loss/policy": float(np.mean([a for a, _ in losses])), "loss/value": float(np.mean([b for _, b in losses]))}


def generation_path(run_dir: Path, k: int) -> Path:
    return run_dir / "generations" / f"gen_{k}.zip"


def saved_generations(run_dir: Path) -> list[int]:
    """The generations whose model is saved, in order."""
    names = (p.stem.removeprefix("gen_") for p in (run_dir / "generations").glob("gen_*.zip"))
    return sorted(int(n) for n in names if n.isdigit())


def done_generations(run_dir: Path) -> int:
    """The newest generation whose model and progress row are both saved: a stop between saving
    a generation's model and writing its row (its evaluation takes a while) leaves that
    generation to be played again."""
    rows = read_column(run_dir, "generation")
    last_row = int(rows[-1]) if rows else 0
    return max(g for g in saved_generations(run_dir) if g <= last_row)


def start_run(game: str, model: str, out: str | Path, **settings: Any) -> tuple[Path, ImproveSettings]:
    """A new run folder with ``improve.json`` and ``gen_0`` (the start); one line for bad input."""
    from training.exploit import check_out_dir
    load_game(game)
    run_dir = check_out_dir(out)
    start = load_start(model, game)
    s = ImproveSettings(game, str(model_path(model, game)), **settings).check()
    make_player(game, s.eval_opponent, 0)  # an unknown opponent: one line, before any folder
    (run_dir / "generations").mkdir(parents=True, exist_ok=True)
    write_text(run_dir / SETTINGS_FILE, json.dumps(asdict(s), indent=1))
    save_model(start, generation_path(run_dir, 0))
    return run_dir, s


def resume_run(resume: str | Path) -> tuple[Path, ImproveSettings]:
    """The folder and settings of the improve run ``resume``; one line if it is none."""
    run_dir = Path(resume).expanduser()
    settings = run_dir / SETTINGS_FILE
    if not settings.is_file() or not saved_generations(run_dir):
        raise ValueError(f"--resume {str(resume)[:120]}: not an improve run (no {SETTINGS_FILE} and generations)")
    try:
        s = ImproveSettings(**json.loads(settings.read_text())).check()
    except (TypeError, ValueError) as e:
        raise ValueError(f"--resume {str(resume)[:120]}: its {SETTINGS_FILE} is not an improve run's ({e})") from None
    return run_dir, s


def check_generations(generations: int) -> None:
    if isinstance(generations, bool) or not isinstance(generations, int) or not 1 <= generations <= MAX_GENERATIONS:
        raise ValueError(f"--generations takes 1-{MAX_GENERATIONS}, got {generations!r}")


def improve(run_dir: Path, s: ImproveSettings, generations: int, progress: bool = True) -> Path:
    """Generations after the newest saved one up to ``generations`` (module docstring)."""
    check_generations(generations)
    from training.game_train import evaluate_game_model
    th.set_num_threads(1)
    k = done_generations(run_dir)
    model = load_start(str(generation_path(run_dir, k)), s.game)
    searched = int(sum(read_column(run_dir, "selfplay/searched")))  # the x axis: positions searched so far
    window = [Positions.load(p) for j in range(max(1, k - s.window + 2), k + 1)
              if (p := run_dir / "positions" / f"gen_{j}.npz").is_file()]
    with RunLifecycle(f"{COMMAND} --game {s.game} --generations {generations}") as life:
        life.run = Run(run_dir, lock_run_dir(run_dir))  # one process per folder; named in the stop's line
        life.on_stop(lambda: f"after generation {done_generations(run_dir)} (its model: "
                             f"{generation_path(run_dir, done_generations(run_dir))})")
        while k < generations:
            with life.setting_up():  # a stop drops this generation: the saved ones stand
                data, row = self_play(model, s, k + 1, life.stop.check, progress)
                window = (window + [data])[-s.window:]
                row |= fit(model, Positions.concat(window), s, k + 1)
                k += 1
                (run_dir / "positions").mkdir(exist_ok=True)
                data.save(run_dir / "positions" / f"gen_{k}.npz")
                save_model(model, generation_path(run_dir, k))
                stale = run_dir / "positions" / f"gen_{k - s.window}.npz"
                stale.unlink(missing_ok=True)
                if s.eval_games:
                    ev = evaluate_game_model(s.game, generation_path(run_dir, k), s.eval_opponent, s.eval_games,
                                             s.seed + EVAL_SEED_OFFSET, load_game(s.game).check_players(None))
                    row[EVAL_PREFIX + metric_name(s.eval_opponent)] = ev.win_rate
                searched += int(row["selfplay/searched"])
                append_progress(run_dir, {"generation": float(k), X_KEY: float(searched), **row})
            if progress:
                tqdm.write(f"generation {k}: " + ", ".join(f"{key} {v:.3g}" for key, v in row.items()))
    _plot(run_dir)
    return run_dir


def read_column(run_dir: Path, key: str) -> list[float]:
    """One column of progress.csv (none before the first generation)."""
    path = run_dir / PROGRESS_FILE
    if not path.is_file():
        return []
    with path.open(newline="", encoding="utf-8") as f:
        return [float(r[key]) for r in csv.DictReader(f) if r.get(key)]


def append_progress(run_dir: Path, row: dict[str, float]) -> None:
    """progress.csv with ``row`` added (the file rewritten whole, atomically)."""
    path = run_dir / PROGRESS_FILE
    rows = []
    if path.is_file():
        with path.open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    rows.append({key: f"{v:.6g}" for key, v in row.items()})
    keys = list(dict.fromkeys(key for r in rows for key in r))
    out = io.StringIO()
    writer = csv.DictWriter(out, keys)
    writer.writeheader()
    writer.writerows(rows)
    write_text(path, out.getvalue())


def _plot(run_dir: Path) -> None:
    from training.plot import plot_run
    try:
        plot_run(run_dir, run_dir / CURVE_PNG)
    except ValueError:  # nothing to draw yet
        pass
