"""The az machinery (agents/gumbel.py, agents/az.py, training/az.py): the search's improved
policy, chance and out-of-turn nodes, value vectors, checkpoints, SIGTERM, agent specs."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch as th

from agents.az import AZNet, AZModelError, save_az_model
from agents.gumbel import BatchedSearch, Node, SearchConfig, considered_visits, from_seats, to_seats
from agents.heuristic import GREEDY, HeuristicAgent
from vigtavl_env.observation import ChannelLayout
from agents.registry import make_agent
from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game
from vigtavl_env.search_steps import ENGINE_STEPS, EngineSteps

ROOT = Path(__file__).resolve().parent.parent

CHANNELS_2P = ChannelLayout(2).n_channels  # this environment's, 2 players


def toy_node(logits, visits, q0, value=0.0, player=0, n=2) -> Node:
    node = Node(None, player, list(range(len(logits))), np.array(logits, float), np.full(n, value), n)
    node.visits[:] = visits
    node.totals[:, player] = np.array(q0, float) * np.array(visits, float)
    return node


def test_improved_policy_follows_the_values_and_completes_the_unvisited():
    node = toy_node([0.0, 0.0, 0.0], [4, 4, 0], [1.0, -1.0, 0.0], value=0.0)
    cfg = SearchConfig(c_scale=0.1)
    pi = node.improved_policy(cfg)
    assert pi.sum() == pytest.approx(1.0)
    assert pi[0] > pi[2] > pi[1]  # unvisited: the mixed value, here between the two visited
    # mixed value: (v + n * prior-weighted q of the visited) / (n + 1) = (0 + 8 * 0) / 9
    assert node.completed_q()[2] == pytest.approx(0.0)
    # a bigger scale trusts the search more
    assert toy_node([0.0] * 3, [4, 4, 0], [1.0, -1.0, 0.0]).improved_policy(SearchConfig(c_scale=1.0))[0] > pi[0]
    # below the root: the action lagging most behind the improved policy
    assert node.interior_action(cfg) == 0


def test_improved_policy_uses_the_node_players_entry():
    node = toy_node([0.0, 0.0], [3, 3], [1.0, -1.0], player=1)
    assert node.improved_policy(SearchConfig())[0] > 0.5
    node.totals[:, 0] = [-9.0, 9.0]  # the other player's values do not count here
    assert node.improved_policy(SearchConfig())[0] > 0.5


def test_sequential_halving_schedule():
    assert considered_visits(4, 8) == [0, 0, 0, 0, 1, 1, 2, 2]
    assert considered_visits(1, 3) == [0, 1, 2]
    assert len(considered_visits(16, 16)) == 16


@pytest.mark.parametrize("n", [2, 3, 4])
def test_value_vectors_turn_between_the_observer_and_seat_order(n):
    rel = np.arange(n, dtype=float)  # entry k: the player k seats after the observer
    for p in range(n):
        seats = to_seats(rel, p)
        assert seats[p] == 0 and seats[(p + 1) % n] == 1
        assert np.allclose(from_seats(seats, p), rel)


class MarkedEvaluator:
    """Uniform logits except a favourite action; values seen from the player to move: +1 for
    the player to move (so every node's own entry is +1, the others -1 / (n - 1))."""

    def __init__(self, n: int, favourite: int | None = None) -> None:
        self.n, self.favourite, self.calls = n, favourite, 0

    def __call__(self, states, legal):
        self.calls += 1
        logits = []
        for codes in legal:
            lg = np.zeros(len(codes))
            if self.favourite in codes:
                lg[codes.index(self.favourite)] = 20.0
            logits.append(lg)
        values = np.full((len(states), self.n), -1.0 / (self.n - 1))
        values[:, 0] = 1.0
        return logits, values


def engine_search(evaluator, n: int, cfg: SearchConfig, seed: int, steps=ENGINE_STEPS) -> BatchedSearch:
    """The search over Vigtavl's engine states, as the az agents and trainers run it."""
    return BatchedSearch(evaluator, n, cfg, seed=seed, steps=steps)


def _play_until(pred, players=2, seed=0, limit=3000):
    gm = load_map({2: "duel", 3: "triad", 4: "quad"}[players])
    s = new_game(gm, seed=seed)
    bot = HeuristicAgent(GREEDY, seed=seed)
    for _ in range(limit):
        legal = legal_actions(s)
        hit = pred(s, legal)
        if hit is not None:
            return s, legal, hit
        apply_action(s, bot.decide(s, legal), legal)
        if s.is_over:
            s = new_game(gm, seed=seed + 1)
    raise AssertionError("no such position in the games played")


def _rolls(s, code, legal):
    c = s.clone(keep_events=False)
    before = c.rng
    apply_action(c, code, legal)
    return c.rng != before


def test_a_dice_action_becomes_a_chance_node_with_sampled_outcomes():
    s, legal, code = _play_until(lambda s, legal: next((c for c in legal if _rolls(s, c, legal)), None)
                                 if len(legal) > 1 else None)
    search = engine_search(MarkedEvaluator(2, favourite=code), 2, SearchConfig(simulations=12, considered=1,
                                                                               gumbel_scale=0.0), seed=1)
    result = search.run([s])[0]
    root = search.last_roots[0]
    a = root.legal.index(code)
    assert result.action == code and root.chance[a] is True
    outcomes = root.children[a]
    assert isinstance(outcomes, dict) and len(outcomes) >= 2  # the dice were drawn again per simulation
    assert root.visits[a] == 12
    # the real game's dice are not consumed by the search
    assert legal_actions(s) == legal


@pytest.mark.parametrize("players", [2, 3])
def test_out_of_turn_decisions_are_nodes_of_the_player_asked(players):
    s, legal, _ = _play_until(lambda s, legal: 1 if s.current_player != s.turn_player and len(legal) > 1 else None,
                              players=players)
    search = engine_search(MarkedEvaluator(players), players, SearchConfig(simulations=8), seed=2)
    result = search.run([s])[0]
    root = search.last_roots[0]
    assert root.player == s.current_player != s.turn_player
    assert result.action in legal and result.policy.sum() == pytest.approx(1.0)
    assert root.value[s.current_player] == 1.0  # the evaluator's "+1 for the player asked", in seat order
    assert root.totals.shape == (len(legal), players)


def test_batched_search_evaluates_many_games_per_call():
    gm = load_map("duel")
    states = [new_game(gm, seed=i) for i in range(4)]
    ev = MarkedEvaluator(2)
    results = engine_search(ev, 2, SearchConfig(simulations=4), seed=0).run(states)
    assert len(results) == 4 and all(r.action in legal_actions(s) for s, r in zip(states, results))
    assert ev.calls <= 1 + 4  # the roots, then one call per round for all the games


class SizedEvaluator(MarkedEvaluator):
    """A MarkedEvaluator that notes each call's batch size."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.sizes: list[int] = []

    def __call__(self, states, legal):
        self.sizes.append(len(states))
        return super().__call__(states, legal)


def _passes(schedule: list[int]) -> int:
    """Runs of equal entries: the Sequential Halving passes of a schedule."""
    return sum(1 for i, v in enumerate(schedule) if i == 0 or schedule[i - 1] != v)


@pytest.mark.parametrize("sims,considered", [(16, 16), (32, 8), (24, 5)])
def test_a_pass_of_sequential_halving_is_evaluated_in_one_call(sims, considered):
    """``leaves_per_round``: one network call per pass (one leaf per root action in it), the
    simulations all counted, and no visit left over from a descent: below the root, a
    deterministic edge's visits are its child's plus the one that made it."""
    s, legal, _ = _play_until(lambda s, legal: 1 if len(legal) >= 16 else None)
    ev = SizedEvaluator(2)
    cfg = SearchConfig(simulations=sims, considered=considered, gumbel_scale=0.0, leaves_per_round=16)
    search = engine_search(ev, 2, cfg, seed=3)
    result = search.run([s])[0]
    root = search.last_roots[0]
    assert result.action in legal and root.visits.sum() == sims
    schedule = considered_visits(considered, sims)
    assert ev.sizes[0] == 1 and len(ev.sizes) - 1 <= _passes(schedule)  # a pass ending the game needs no call
    assert max(ev.sizes[1:]) == considered  # the first pass: every considered action at once
    stack, checked = [root], 0
    while stack:
        node = stack.pop()
        for a, child in enumerate(node.children):
            if isinstance(child, Node):
                if not child.terminal:
                    assert node.visits[a] == child.visits.sum() + 1
                    checked += 1
                stack.append(child)
            elif isinstance(child, dict):
                assert node.visits[a] >= sum(c.visits.sum() + 1 for c in child.values())
                stack.extend(child.values())
    assert checked > 0


def test_one_leaf_a_round_is_one_call_per_simulation():
    s, legal, _ = _play_until(lambda s, legal: 1 if len(legal) >= 16 else None)
    ev = SizedEvaluator(2)
    engine_search(ev, 2, SearchConfig(simulations=12, gumbel_scale=0.0), seed=3).run([s])
    assert ev.sizes[0] == 1 and set(ev.sizes[1:]) <= {1} and len(ev.sizes) <= 13
    with pytest.raises(ValueError, match="leaves_per_round"):
        SearchConfig(leaves_per_round=0)



@pytest.mark.parametrize("common", [True, False])
def test_common_dice_give_the_root_actions_of_a_pass_the_same_dice(common):
    """``common_dice``: every root action of a Sequential Halving pass is applied on the same
    dice stream, and each pass on its own; without it every simulation draws its own."""
    s, legal, _ = _play_until(lambda s, legal: 1 if len(legal) >= 8 else None)
    seen: list[int] = []  # the dice stream of each application to a copy of the root

    class Recording(EngineSteps):
        def apply(self, state, action, legal_):
            if state is not s and state.decisions == s.decisions:
                seen.append(state.rng)
            return EngineSteps.apply(state, action, legal_)

    cfg = SearchConfig(simulations=8, considered=4, gumbel_scale=0.0, leaves_per_round=4, common_dice=common)
    result = engine_search(MarkedEvaluator(2), 2, cfg, seed=5, steps=Recording()).run([s])[0]
    assert result.action in legal
    first_pass = seen[:4]  # schedule [0, 0, 0, 0, 1, 1, 2, 2]: four root actions once each
    assert len(first_pass) == 4
    if common:
        assert len(set(first_pass)) == 1 and len(set(seen)) <= 3
        assert set(seen[4:]).isdisjoint(first_pass)  # later passes draw other dice
    else:
        assert len(set(first_pass)) == 4

class TokenEvaluator:
    """Deterministic and different in every position: logits from the codes, values from the
    tokens and gold seen from the player to move."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, states, legal):
        logits = [np.array([(c * 2654435761 % 97) / 24.0 for c in codes]) for codes in legal]
        values = np.empty((len(states), self.n))
        for i, s in enumerate(states):
            seats = [(s.current_player + k) % self.n for k in range(self.n)]
            t = np.array([s.tokens[q] * 0.3 + s.gold[q] * 0.01 for q in seats])
            values[i] = np.tanh(t - t.mean())
        return logits, values


# Vigtavl's searches as recorded before the search took a game's step functions (agents/gumbel.py
# at a2bfc41, the engine's functions called directly); a change of the search's results must
# record it again, knowingly: print(searches_fingerprint(engine_search)).
RECORDED_SEARCHES = "9c21520a9ad4ca48bcf39e6ce1a7efa23537e459ad260ba6463432ecf4356815"


def searches_fingerprint(make_search) -> str:
    """SHA-256 over a fixed set of searches (2 and 3 players, chance, common dice, one game and
    several at once): every decision, visit count and tree size, and the evaluations made."""
    cfgs = [SearchConfig(), SearchConfig(simulations=24, considered=8, c_scale=0.03, gumbel_scale=0.0,
                                         leaves_per_round=8), SearchConfig(simulations=16, considered=4,
                                                                           leaves_per_round=4, common_dice=True)]
    h = hashlib.sha256()
    for players in (2, 3):
        states = [_play_until(lambda s, legal: 1 if len(legal) > 1 and s.decisions >= d else None, players, seed=d)[0]
                  for d in (5, 40, 120)]
        for k, cfg in enumerate(cfgs):
            search = make_search(TokenEvaluator(players), players, cfg, seed=10 + k)
            for batch in (states[:1], states):
                for r in search.run(batch):
                    h.update(repr((r.action, r.legal, r.simulations, r.visits.astype(int).tolist())).encode())
                h.update(repr([_tree_size(root) for root in search.last_roots] + [search.evaluations]).encode())
    return h.hexdigest()


def _tree_size(root: Node) -> tuple[int, int]:
    """Nodes, and chance outcomes among them, in a searched tree."""
    nodes, outcomes, stack = 0, 0, [root]
    while stack:
        node = stack.pop()
        nodes += 1
        for child in node.children:
            if isinstance(child, dict):
                outcomes += len(child)
                stack.extend(child.values())
            elif child is not None:
                stack.append(child)
    return nodes, outcomes


def test_vigtavls_searches_give_their_recorded_results():
    assert searches_fingerprint(engine_search) == RECORDED_SEARCHES


# ------------------------------------------------------------------ model files and specs
@pytest.fixture(scope="module")
def az_model(tmp_path_factory) -> Path:
    th.manual_seed(0)
    net = AZNet((CHANNELS_2P, 11, 11), 2, channels=4, blocks=1, hidden=[8])
    path = tmp_path_factory.mktemp("az") / "gen_0.pt"
    save_az_model(net, path)
    return path


def test_specs_make_agents_and_bad_ones_fail_in_one_line(az_model, tmp_path):
    assert make_agent(f"az:{az_model}").name == "az"
    agent = make_agent(f"az-search:{az_model}:3", seed=1)
    assert agent.name == "az-search" and agent.cfg.simulations == 3
    junk = tmp_path / "junk.pt"
    junk.write_text("not a model")
    for spec, error in [("az:", ValueError), ("az-search:", ValueError), (f"az-search:{az_model}:0", ValueError),
                        (f"az-search:{az_model}:0ms", ValueError), ("az:missing.pt", FileNotFoundError),
                        (f"az:{junk}", AZModelError), (f"az:{tmp_path}", FileNotFoundError)]:
        with pytest.raises(error) as e:
            make_agent(spec)
        assert "\n" not in str(e.value), spec


def test_az_search_from_a_phase_plays_the_prior_before_it(az_model):
    """With ``search_from`` the battle phase, az-search's choice before it is the network's own
    (no search is run); from it on the search decides. By default it searches in every phase.
    A bad phase is one line."""
    from agents.az import AZAgent, AZSearchAgent, load_az_net
    from vigtavl_env.codec import ActionCodec
    from vigtavl_env.engine.state import BATTLE, BUILD, PLACEMENT
    from vigtavl_env.observation import ObservationEncoder
    net = load_az_net(az_model)
    assert AZSearchAgent(net).search_from == PLACEMENT
    agent, alone = AZSearchAgent(net, simulations=4, seed=0, search_from=BATTLE), AZAgent(net)
    calls = []
    run = agent.search.run
    agent.search.run = lambda states, deadline=None: calls.append(len(states)) or run(states, deadline)
    for phase in (BUILD, BATTLE):
        s, legal, _ = _play_until(lambda s, legal: 1 if s.phase == phase and len(legal) >= 3 else None)
        codec, encoder = ActionCodec(s.gmap.board), ObservationEncoder(s.gmap, s.config.rounds_per_phase)
        obs, mask = encoder.encode(s, s.current_player), codec.new_mask(legal)
        before = len(calls)
        choice = agent.act(obs, mask, {"state": s})
        assert mask[choice] == 1
        if phase == BUILD:
            assert len(calls) == before and choice == alone.act(obs, mask, {"state": s})
        else:
            assert calls[before:] == [1]
    for bad in (-1, 3, "battle", True):
        with pytest.raises(ValueError, match="search_from must be a phase") as e:
            AZSearchAgent(net, search_from=bad)
        assert "\n" not in str(e.value)


def test_az_search_within_a_time_limit_stops_its_simulations(az_model):
    """``az-search:MODEL:N:Mms``: the simulations done within M ms decide (the web server's
    bound); a bad limit is refused in one line."""
    from vigtavl_env.codec import ActionCodec

    s, legal, _ = _play_until(lambda s, legal: 1 if len(legal) >= 16 else None)
    agent = make_agent(f"az-search:{az_model}:100000:200ms", seed=0)
    assert agent.ms == 200.0 and agent.cfg.simulations == 100000
    codec = ActionCodec(s.gmap.board)
    mask = codec.new_mask(legal)
    agent.act(np.zeros(1), mask, {"state": s})  # torch's first call is slow
    t0 = time.perf_counter()
    action = agent.act(np.zeros(1), mask, {"state": s})
    assert time.perf_counter() - t0 < 5.0  # 100,000 simulations would take minutes
    assert codec.to_engine(action) in legal
    assert 0 < agent.search.last_roots[0].visits.sum() < 100000
    for bad in ("az-search:{}:0ms", "az-search:{}:5ms:6ms", "az-search:{}:16:8"):
        with pytest.raises(ValueError, match="bad az-search budget"):
            make_agent(bad.format(az_model))

def test_az_agents_play_a_match(az_model):
    from arena.vigtavl_match import run_match
    result = run_match([f"az-search:{az_model}:2", f"az:{az_model}"], 2, seed=0, progress=False, max_steps=40)
    assert len(result.records) == 2


def test_the_shipped_network_plays_v2_by_name_with_its_papers():
    """``az:pretrained`` is a 2-player vigtavl_v2 network shipped with its config, README and
    best.json; it loads by name, its decisions are legal, and whole games run through the
    match runner, with search on top too."""
    from agents.az import PRETRAINED_PATH, load_az_net
    from arena.vigtavl_match import run_match
    from vigtavl_env import raw_env
    net = load_az_net("pretrained")
    assert net.n_players == 2
    for name in ("config.yaml", "README.md", "best.json"):
        assert (PRETRAINED_PATH.parent / name).is_file(), name
    agent = make_agent("az:pretrained")
    env = raw_env(num_players=2)
    env.reset(seed=7)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][agent.act(obs["observation"], obs["action_mask"], {})] == 1
    result = run_match(["az:pretrained", "az-search:pretrained:2"], 2, seed=3, progress=False, max_steps=60)
    assert len(result.records) == 2 and all(r.n_decisions > 0 for r in result.records)


def test_a_run_starts_from_an_earlier_runs_generation(az_model):
    from agents.az import load_az_net
    from training.az import starting_net
    from training.az_config import AZConfig
    net = starting_net(AZConfig(start_from=str(az_model)))
    cached = load_az_net(az_model)
    assert net is not cached  # trained in place: the loader's cached copy stays as the file is
    for a, b in zip(net.state_dict().values(), cached.state_dict().values()):
        assert th.equal(a, b)
    with pytest.raises(ValueError, match="plays 2-player games, the config 3"):
        starting_net(AZConfig(num_players=3, start_from=str(az_model)))


# ------------------------------------------------------------------ training: checkpoints, SIGTERM
def test_checkpoint_round_trip(tmp_path):
    from training.az import Progress, ReplayBuffer, load_checkpoint, save_checkpoint
    th.manual_seed(0)
    net = AZNet((CHANNELS_2P, 11, 11), 2, channels=4, blocks=1, hidden=[8])
    opt = th.optim.Adam(net.parameters(), lr=1e-3)
    net(th.zeros(1, CHANNELS_2P, 11, 11))[0].sum().backward()
    opt.step()
    buf = ReplayBuffer(8, net.obs_shape, 2, max_legal=4)
    rng = np.random.default_rng(0)
    for i in range(5):
        buf.add(rng.random(net.obs_shape).astype(np.float16), np.arange(6), np.full(6, 1 / 6), np.array([1.0, -1.0]))
    prog = Progress(generation=2, stage="train", games_in_generation=3, updates_in_generation=1, positions=5)
    path = save_checkpoint(tmp_path, net, opt, buf, prog)
    save_checkpoint(tmp_path, net, opt, buf, prog)  # the same count again: replaced whole
    net2, opt_state, buf2, prog2 = load_checkpoint(path, th.device("cpu"),
                                                   lambda n: ReplayBuffer(8, n.obs_shape, 2, max_legal=4))
    assert prog2 == prog and buf2.size == 5 and buf2.clipped == 5
    assert np.array_equal(buf2.obs[:5], buf.obs[:5]) and np.allclose(buf2.policy[:5].sum(1), 1.0)
    for a, b in zip(net.state_dict().values(), net2.state_dict().values()):
        assert th.equal(a, b)
    assert opt_state["state"][0]["step"] == opt.state_dict()["state"][0]["step"]


def test_a_saved_buffer_loads_into_other_sizes(tmp_path):
    """A resume with another ``max_legal``: a wider buffer pads the saved rows, a narrower one keeps
    each row's likeliest actions (renormalised, as add does); another capacity keeps the first rows."""
    from training.az import ReplayBuffer
    buf = ReplayBuffer(8, (2,), 2, max_legal=4)
    for i in range(3):
        buf.add(np.full(2, i, np.float16), np.arange(4) + 10 * i, np.array([0.1, 0.4, 0.2, 0.3]), np.array([1.0, -1.0]))
    buf.save(tmp_path / "buffer.npz")
    wide = ReplayBuffer(8, (2,), 2, max_legal=6)
    narrow = ReplayBuffer(8, (2,), 2, max_legal=2)
    small = ReplayBuffer(2, (2,), 2, max_legal=4)
    for b in (wide, narrow, small):
        b.load(tmp_path / "buffer.npz")
    assert wide.size == 3 and (wide.legal[:3, :4] == buf.legal[:3]).all() and (wide.legal[:3, 4:] == -1).all()
    assert np.allclose(wide.policy[:3].sum(1), 1.0)
    assert narrow.legal[1].tolist() == [11, 13] and np.allclose(narrow.policy[1], [4 / 7, 3 / 7])
    assert small.size == 2 and (small.obs[:2] == buf.obs[:2]).all()


def _az_train(args, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    sets = ["generations=1", "games_per_generation=40", "parallel_games=1", "search.simulations=2",
            "updates_per_generation=2", "batch_size=16", "eval_games=0", "buffer_size=1000",
            f"run_dir={tmp_path}", "run_name=r", "torch_threads=1"]
    cmd = [sys.executable, "-m", "vigtavl", "az", "train", "--no-progress"] + args
    if "--resume" not in args:
        cmd += ["--config", "az"] + [x for s in sets for x in ("--set", s)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)


def test_sigterm_leaves_a_checkpoint_that_resumes(tmp_path):
    proc = _az_train([], tmp_path)
    run = tmp_path / "r"
    deadline = time.monotonic() + 120
    while not (run / "generations" / "gen_0.pt").exists():  # set up, self-play under way
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)
    time.sleep(2.0)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "vigtavl az train --resume" in err
    assert list((run / "checkpoints").glob("az_*/state.pt"))
    proc = _az_train(["--resume", str(run), "--set", "games_per_generation=1"], tmp_path)  # finish soon
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert (run / "generations" / "gen_1.pt").is_file()


def test_an_az_runs_curve_draws_its_losses_over_positions(tmp_path):
    from PIL import Image
    from training.plot import AZ_LOSSES, COLORS, MARGIN_LEFT, MARGIN_TOP, SIZE, plot_run
    rows = ["time/total_timesteps,selfplay/positions,loss/policy,loss/value,eval/win_rate_previous",
            "1000,1000,,,", "1000,,1.2,0.9,", "1000,,,,0.5", "2000,1000,,,", "2000,,1.1,0.7,", "2000,,,,0.6"]
    (tmp_path / "progress.csv").write_text("\n".join(rows) + "\n")
    img = Image.open(plot_run(tmp_path)).convert("RGB")
    top = img.crop((MARGIN_LEFT, MARGIN_TOP, SIZE[0], SIZE[1] // 2))  # the upper panel and its legend
    colours = set(top.getdata())
    assert all(COLORS[i] in colours for i in range(len(AZ_LOSSES)))  # both losses drawn


def test_the_runs_search_settings_are_the_searchs_own_and_bad_ones_name_the_group():
    """``search`` in an az config is :class:`agents.gumbel.SearchConfig` itself; a value it refuses
    is one ConfigError line that names the ``search`` group."""
    from training.az_config import AZConfig
    from training.config import ConfigError, load_config
    cfg = load_config("az", ["search.simulations=5", "search.c_scale=0.2"], cls=AZConfig)
    assert cfg.search == SearchConfig(simulations=5, considered=cfg.search.considered, c_scale=0.2)
    for bad in ("search.simulations=0", "search.c_scale=-1", "search.leaves_per_round=0"):
        with pytest.raises(ConfigError, match="^search: ") as e:
            load_config("az", [bad], cls=AZConfig)
        assert "\n" not in str(e.value), bad


def test_best_json_names_the_best_generation_against_the_eval_opponents(tmp_path):
    import json
    from training.az import record_best
    from training.az_config import AZConfig
    cfg = AZConfig(eval_opponents=["ppo:pretrained", "greedy"])

    def rates(ppo: float, greedy: float, previous: float = 0.9) -> dict[str, float]:
        return {"eval/win_rate_previous": previous, "eval/win_rate_ppo_pretrained": ppo, "eval/win_rate_greedy": greedy}

    assert record_best(cfg, tmp_path, 1, 100, rates(0.4, 0.6))
    assert not record_best(cfg, tmp_path, 2, 200, rates(0.3, 0.6, previous=1.0))  # beating itself does not count
    assert record_best(cfg, tmp_path, 3, 300, rates(0.5, 0.6))
    best = json.loads((tmp_path / "best.json").read_text())
    assert best["generation"] == 3 and best["positions"] == 300 and best["model"] == "generations/gen_3.pt"
    assert best["win_rates"] == {"ppo:pretrained": 0.5, "greedy": 0.6} and abs(best["mean_win_rate"] - 0.55) < 1e-9


def test_a_gate_keeps_the_network_unless_the_new_generation_beats_it(tmp_path):
    """``gate``: a generation that wins less than the gate against the one before is set aside
    (``gen_<k>_rejected.pt``) and the network goes on with the previous weights, saved as
    ``gen_<k>.pt``; one that wins enough, or any with no gate, replaces it."""
    from training.az import gate_generation, generation_path, save_generation
    from training.az_config import AZConfig
    th.manual_seed(0)
    old = AZNet((CHANNELS_2P, 11, 11), 2, channels=4, blocks=1, hidden=[8])
    new = AZNet((CHANNELS_2P, 11, 11), 2, channels=4, blocks=1, hidden=[8])
    save_generation(tmp_path, old, 0)
    save_generation(tmp_path, new, 1)
    trained = {k: v.clone() for k, v in new.state_dict().items()}

    def same(a, b):
        return all(th.equal(a[k], b[k]) for k in a)

    for gate, rate in ((0.0, 0.1), (0.55, 0.6)):
        assert gate_generation(AZConfig(gate=gate), tmp_path, new, 1, {"eval/win_rate_previous": rate})
        assert same(new.state_dict(), trained) and not generation_path(tmp_path, 1).with_name("gen_1_rejected.pt").exists()
    assert not gate_generation(AZConfig(gate=0.55), tmp_path, new, 1, {"eval/win_rate_previous": 0.5})
    assert same(new.state_dict(), old.state_dict())  # the network kept
    kept = th.load(generation_path(tmp_path, 1), weights_only=True)["state_dict"]
    rejected = th.load(tmp_path / "generations" / "gen_1_rejected.pt", weights_only=True)["state_dict"]
    assert same(kept, old.state_dict()) and same(rejected, trained)


def test_a_gate_is_a_share_and_needs_evaluation_games():
    from training.az_config import AZConfig
    from training.config import ConfigError, load_config
    assert load_config("az", ["gate=0.55"], cls=AZConfig).gate == 0.55
    for bad, says in ((["gate=1.5"], "gate must be a win share"), (["gate=0.55", "eval_games=0"], "gate needs eval_games")):
        with pytest.raises(ConfigError, match=says) as e:
            load_config("az", bad, cls=AZConfig)
        assert "\n" not in str(e.value)
