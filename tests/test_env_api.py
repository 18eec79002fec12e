"""The PettingZoo environment's API: PettingZoo's own tests, spaces, arguments, rewards,
truncation, determinism, starting from a position, the out-of-turn decisions (the retaliation
and defend interrupts) and the observation of a pending choice."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test
from conftest import defend_scenario

import vigtavl_env
from vigtavl_env import env, raw_env
from vigtavl_env.engine import IllegalActionError, to_json
from vigtavl_env.engine import actions as A
from vigtavl_env.engine.hexgrid import Board
from vigtavl_env.engine.maps import SIDE_FOR_PLAYERS, GameMap
from vigtavl_env.engine.scenario import Scenario

# api_test warns about every dict observation (chess gets the same two warnings).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]
PLAYERS = (2, 3, 4)
ACTIONS = {2: 6909, 3: 9645, 4: 12837}  # 57 * HW + 12
CHANNELS = {2: 146, 3: 176, 4: 206}  # 86 + 30 P
WIDTH = {2: 11, 3: 13, 4: 15}


def ring_map(num_players: int = 2) -> GameMap:
    """All land inside one outer ring of sea."""
    board = Board(SIDE_FOR_PLAYERS[num_players])
    terrain = tuple(0 if max(abs(q), abs(r), abs(q + r)) == board.radius else 1 for q, r in board.coords)
    return GameMap("ring", num_players, terrain)


def retaliation_position(forced_dice: tuple[int, ...] = ()) -> Scenario:
    """Battle phase: player 0's cavalry next to player 1's soldier; player 0 has a camp."""
    sc = Scenario(ring_map(), phase="battle")
    sc.unit(0, "cavalry", (0, 0))
    sc.development(0, "camp", (-1, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "soldier", (3, 0))
    sc.unit(1, "archer", (3, -1))
    sc.state.forced_dice[:] = list(forced_dice)
    return sc


def defend_position(forced_dice: tuple[int, ...] = ()) -> Scenario:
    """``conftest.defend_scenario`` with the dice forced."""
    sc = defend_scenario()
    sc.state.forced_dice[:] = list(forced_dice)
    return sc


def guard_position() -> Scenario:
    """Player 0's soldier at (1, 0) may seize player 1's camp at (0, 0); player 1's soldier at
    (1, -1) is next to both, so player 1 is asked to defend the camp, or not."""
    sc = Scenario(ring_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 0))
    sc.unit(1, "soldier", (1, -1))
    sc.unit(0, "soldier", (1, 0))
    return sc


def defend_env(forced_dice: tuple[int, ...] = ()):
    """``raw_env`` at the defend position, player 0's cavalry having attacked (1, 0)."""
    e = raw_env.from_state(defend_position(forced_dice).build())
    e.step(e.encode_action("activate cavalry", (0, 0)))
    e.step(e.encode_action("attack", (1, 0)))
    return e


def random_action(e, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(e.unwrapped.action_mask())
    return int(legal[rng.integers(len(legal))])


def play(e, rng: np.random.Generator, max_decisions: int = 10**6) -> dict[str, float]:
    """Random legal play to the end; returns each agent's summed rewards."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    decisions = 0
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else random_action(e, rng))
        decisions += not (term or trunc)
        for a, r in e.rewards.items():
            totals[a] += r
        if decisions >= max_decisions:
            break
    return totals


# ---------------------------------------------------------------------- PettingZoo's tests
@pytest.mark.parametrize("n", PLAYERS)
def test_pettingzoo_api_test(n):
    api_test(env(num_players=n, seed=n), num_cycles=200)


def test_pettingzoo_api_test_raw_env():
    api_test(raw_env(num_players=2, seed=5), num_cycles=200)


@pytest.mark.parametrize("n", PLAYERS)
def test_pettingzoo_seed_test(n):
    seed_test(functools.partial(env, num_players=n), num_cycles=100)


@pytest.mark.parametrize("n", PLAYERS)
def test_pettingzoo_render_test(n):
    render_test(functools.partial(env, num_players=n))


# ---------------------------------------------------------------------- spaces and arguments
def test_metadata():
    md = raw_env.metadata
    assert md["name"] == "vigtavl_v2" and md["is_parallelizable"] is False
    assert md["render_modes"] == ["human", "ansi", "rgb_array"] and md["render_fps"] > 0


@pytest.mark.parametrize("n", PLAYERS)
def test_spaces(n):
    e = raw_env(num_players=n)
    assert e.possible_agents == [f"player_{i}" for i in range(n)]
    a = e.possible_agents[0]
    assert e.action_space(a) is e.action_space(a) and e.observation_space(a) is e.observation_space(a)
    w = WIDTH[n]
    assert e.action_space(a).n == ACTIONS[n] == A.n_actions(w * w) == A.N_HEX_VERBS * w * w + A.N_GLOBAL_VERBS
    box = e.observation_space(a)["observation"]
    assert box.shape == (CHANNELS[n], w, w) and box.dtype == np.float32
    assert e.observation_space(a)["action_mask"].dtype == np.int8
    assert len(e.channel_names) == CHANNELS[n] == len(set(e.channel_names))


@pytest.mark.parametrize("kwargs, words", [
    (dict(num_players=5), "num_players must be one of (2, 3, 4)"),
    (dict(reward="gold"), "reward must be one of"),
    (dict(map="atlantis"), "unknown map 'atlantis'"),
    (dict(map="triad", num_players=2), "is for 3 players"),
    (dict(max_steps=0), "max_steps must be a positive int"),
    (dict(render_mode="pdf"), "render_mode must be None or one of"),
    (dict(rules={"bogus": 1}), "unknown rules option"),
    (dict(rules=[1]), "rules must be a dict"),
])
def test_bad_arguments_say_what_is_allowed(kwargs, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        raw_env(**kwargs)


def test_illegal_action_option():
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        env(illegal_action="ignore")
    with pytest.raises(ValueError, match="raw_env always raises"):
        raw_env(illegal_action="penalty")


def test_map_player_count_follows_the_map_and_rules_apply():
    e = raw_env(map="triad", rules={"rounds_per_phase": 1})
    e.reset(seed=1)
    assert len(e.possible_agents) == 3 and e.game_state.config.rounds_per_phase == 1


def test_random_map_changes_with_the_seed():
    e = raw_env(map="random", num_players=2)
    e.reset(seed=1)
    first = e.game_state.gmap.terrain
    e.reset(seed=2)
    assert e.game_state.gmap.terrain != first
    e.reset(seed=1)
    assert e.game_state.gmap.terrain == first
    assert e.observe("player_0")["observation"].shape == e.observation_space("player_0")["observation"].shape


# ---------------------------------------------------------------------- determinism and truncation
def test_same_seed_and_actions_give_the_same_game():
    runs = []
    for _ in range(2):
        e = raw_env(num_players=3, reward="tokens")
        e.reset(seed=11)
        rng = np.random.default_rng(3)
        obs, rewards = [], []
        for _ in range(150):
            if e.game_state.is_over:
                break
            obs.append(e.observe(e.agent_selection)["observation"])
            e.step(random_action(e, rng))
            rewards.append(dict(e.rewards))
        runs.append((obs, rewards, to_json(e.game_state)))
    (o1, r1, j1), (o2, r2, j2) = runs
    assert len(o1) == len(o2) and all(np.array_equal(a, b) for a, b in zip(o1, o2))
    assert r1 == r2 and j1 == j2


def test_max_steps_truncates_every_agent():
    e = env(num_players=3, max_steps=12, seed=0)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(12):
        assert not any(e.truncations.values())
        e.step(random_action(e, rng))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all(type(v) is bool for v in e.truncations.values())
    for _ in range(3):
        agent = e.agent_selection
        assert e.last()[3] is True
        e.step(None)
        assert agent not in e.agents
    assert e.agents == []


# ---------------------------------------------------------------------- rewards
def decisive_game(reward: str, seed: int = 0):
    for s in range(seed, seed + 20):
        e = raw_env(num_players=2, reward=reward)
        e.reset(seed=s)
        totals = play(e, np.random.default_rng(s))
        tokens = e.game_state.tokens
        if tokens[0] != tokens[1]:
            return e, totals
    raise AssertionError("no decisive game in 20 seeds")


def test_win_loss_rewards_sum_to_zero_in_a_decisive_game():
    e, totals = decisive_game("win_loss")
    winner = int(np.argmax(e.game_state.tokens))
    assert sum(totals.values()) == 0
    assert totals[f"player_{winner}"] == 1 and totals[f"player_{1 - winner}"] == -1


def test_margin_reward_is_own_minus_best_opponent_over_ten():
    e, totals = decisive_game("margin")
    t = e.game_state.tokens
    assert totals["player_0"] == pytest.approx((t[0] - t[1]) / 10)
    assert totals["player_1"] == pytest.approx((t[1] - t[0]) / 10)


def test_tokens_reward_is_each_players_token_gain_each_step():
    e = raw_env(num_players=3, reward="tokens")
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    gained = np.zeros(3)
    while not e.game_state.is_over:
        before = list(e.game_state.tokens)
        e.step(random_action(e, rng))
        deltas = [e.rewards[f"player_{i}"] for i in range(3)]
        assert deltas == [t - b for t, b in zip(e.game_state.tokens, before)]
        gained += deltas
    assert list(gained) == e.game_state.tokens


def test_last_returns_the_reward_accumulated_since_the_agent_last_acted():
    e = raw_env(num_players=2, reward="tokens")
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    since = dict.fromkeys(e.possible_agents, 0.0)
    while not e.game_state.is_over:
        agent = e.agent_selection
        assert e.last()[1] == since[agent]
        since[agent] = 0.0
        e.step(random_action(e, rng))
        for a, r in e.rewards.items():
            since[a] += r


# ---------------------------------------------------------------------- illegal actions
def test_raw_env_refuses_an_illegal_action_and_changes_nothing():
    e = raw_env(num_players=2)
    e.reset(seed=0)
    before = to_json(e.game_state)
    illegal = int(np.flatnonzero(e.action_mask() == 0)[0])
    with pytest.raises(IllegalActionError, match="player_0 chose action") as info:
        e.step(illegal)
    assert isinstance(info.value, ValueError)
    assert to_json(e.game_state) == before and e.agent_selection == "player_0"
    with pytest.raises(ValueError, match="outside the action space"):
        e.step(10**7)


def test_env_penalises_an_illegal_action_by_default():
    e = env(num_players=2, seed=0)
    e.reset(seed=0)
    illegal = int(np.flatnonzero(e.unwrapped.action_mask() == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards["player_0"] == -1 and e.rewards["player_1"] == 0


def test_env_can_raise_instead():
    e = env(num_players=2, illegal_action="raise")
    e.reset(seed=0)
    with pytest.raises(ValueError):
        e.step(int(np.flatnonzero(e.unwrapped.action_mask() == 0)[0]))


# ---------------------------------------------------------------------- actions in words
def test_worked_decode_example():
    sc = Scenario(ring_map(), phase="battle")
    sc.unit(0, "cavalry", (2, -1))
    e = raw_env.from_state(sc.build())
    e.step(e.encode_action("activate cavalry", (2, -1)))
    assert e.encode_action("move", (3, -1)) == 4529 == 37 * 121 + 52
    assert e.decode_action(4529) == "player_0: move cavalry (2, -1) -> (3, -1)"
    assert e.decode_action(6898) == "player_0: end turn" and e.encode_action("end turn") == 6898 == 57 * 121 + 1
    assert e.encode_action(37 * 91 + 37) == 4529  # from the engine code
    assert "off the hexagon" in e.decode_action(0)  # tensor cell (0, 0) is a corner


# ---------------------------------------------------------------------- observations and infos
def test_returned_observations_never_change_later():
    e = raw_env(num_players=2)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    kept = [(e.observe(a), e.observe(a)["observation"].copy()) for a in e.agents]
    for _ in range(40):
        e.step(random_action(e, rng))
    for obs, copy in kept:
        assert np.array_equal(obs["observation"], copy)


def test_observations_are_from_each_players_side():
    e = raw_env(num_players=3)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(80):
        e.step(random_action(e, rng))
    names = e.channel_names
    views = [e.observe(f"player_{i}")["observation"] for i in range(3)]
    gold = [[v[names.index(f"gold_{rel}")][5, 5] for rel in ("self", "opp1", "opp2")] for v in views]
    true = [g / 6 for g in e.game_state.gold]
    for i in range(3):
        assert gold[i] == pytest.approx([true[i], true[(i + 1) % 3], true[(i + 2) % 3]])
    board = views[0][names.index("board")]
    for v in views:  # off the hexagon every channel is zero
        assert not v[:, board == 0].any()


@pytest.mark.parametrize("n", PLAYERS)
def test_observation_counts_match_the_state(n):
    e = raw_env(num_players=n)
    e.reset(seed=7)
    rng = np.random.default_rng(7)
    names = e.channel_names
    board = e.gmap.board
    for step in range(400):
        if e.game_state.is_over:
            break
        if step % 25 == 0:
            s = e.game_state
            for seat in range(n):
                obs = e.observe(f"player_{seat}")["observation"]
                total = lambda prefix: sum(float(obs[i].sum()) for i, nm in enumerate(names) if nm.startswith(prefix))  # noqa: E731
                assert total("unit_") == sum(w == 0 for w in s.u_where)
                # knights aboard freighters on the board (not those on a freighter still in reserve)
                assert total("aboard_") == sum(w == 1 and c >= 0 for w, c in zip(s.u_where, s.u_cell))
                assert total("prisoner_") == sum(w == 2 for w in s.u_where)
                assert total("dev_") == sum(t > 0 for t in s.dev_type)
                assert total("artillery_") == sum(o >= 0 for o in s.art_owner)
                walls = sum(1 + (board.edge_cells[e_][1] >= 0) for e_, o in enumerate(s.walls) if o >= 0)
                assert total("wall_") == walls
                own = sum(1 for u, o in enumerate(s.u_owner) if o == seat and s.u_where[u] == 0)
                assert total("unit_") - sum(float(obs[i].sum()) for i, nm in enumerate(names)
                                            if nm.startswith("unit_") and not nm.endswith("_self")) == own
        e.step(random_action(e, rng))


def test_infos_carry_the_mask_and_interrupt():
    e = raw_env(num_players=2)
    e.reset(seed=0)
    sel = e.agent_selection
    info = e.infos[sel]
    assert info["interrupt"] == ""
    assert np.array_equal(info["action_mask"], e.observe(sel)["action_mask"]) and info["action_mask"].sum() >= 1
    other = [a for a in e.agents if a != sel][0]
    assert e.infos[other]["action_mask"].sum() == 0 and e.observe(other)["action_mask"].sum() == 0


# ---------------------------------------------------------------------- positions and retaliation
def test_from_state_and_reset_option_clone_the_position():
    state = retaliation_position().build()
    e = raw_env.from_state(state)
    assert to_json(e.game_state) == to_json(state) and e.game_state is not state
    e2 = raw_env(map=ring_map(), num_players=2)
    e2.reset(options={"state": state})
    assert to_json(e2.game_state) == to_json(state)
    e3 = raw_env(num_players=2)
    e3.reset(seed=0, options={"state": state})
    assert e3.game_state.gmap.name == "ring"
    e3.reset(seed=0)  # a plain reset plays on the env's own map again
    assert e3.game_state.gmap.name == "duel" and e3.observe("player_0")["observation"].shape == (CHANNELS[2], 11, 11)
    with pytest.raises(ValueError, match="2-player game; this env has 3 players"):
        raw_env(num_players=3).reset(options={"state": state})


def test_retaliation_selects_the_loser_and_returns_control():
    e = raw_env.from_state(retaliation_position(forced_dice=(6, 6, 6, 1)).build())
    e.step(e.encode_action("activate cavalry", (0, 0)))
    e.step(e.encode_action("attack", (1, 0)))
    assert e.agent_selection == "player_0" and e.infos["player_0"]["interrupt"] == ""
    e.step(e.encode_action("end activation"))
    assert e.agent_selection == "player_1"
    assert e.infos["player_1"]["interrupt"] == "retaliation"
    allowed = {e.decode_action(i) for i in np.flatnonzero(e.infos["player_1"]["action_mask"])}
    # 1 silver: the soldier left (cost 1) may act; the archer (cost 2) may not.
    assert allowed == {"player_1: activate soldier at (3, 0)", "player_1: end turn"}
    assert e.observe("player_1")["observation"][e.channel_names.index("retaliator_self")].max() == 1
    e.step(e.encode_action("end turn"))
    assert e.agent_selection == "player_0" and e.infos["player_0"]["interrupt"] == ""
    assert e.game_state.turn_player == 0 and e.game_state.retaliator == -1


def test_package_exports():
    assert vigtavl_env.env is env and vigtavl_env.raw_env is raw_env
    assert callable(vigtavl_env.SingleSeatEnv)


# ---------------------------------------------------------------------- out-of-turn decisions: defend
def plane_hexes(e, obs: np.ndarray, name: str) -> set[tuple[int, int]]:
    """Axial hexes where an observation plane is non-zero."""
    R = e.gmap.board.radius
    return {(int(col) - R, int(row) - R) for row, col in np.argwhere(obs[e.channel_names.index(name)])}


def scalar(e, obs: np.ndarray, name: str) -> float:
    """A broadcast scalar channel's value (read on the centre hex)."""
    R = e.gmap.board.radius
    return float(obs[e.channel_names.index(name)][R, R])


def hex_verbs(e, mask: np.ndarray) -> set[int]:
    """The hex verbs of the masked-in actions (global verbs as -1 - g)."""
    hw, glob0 = e.codec.hw, A.N_HEX_VERBS * e.codec.hw
    return {int(i) // hw if i < glob0 else -1 - (int(i) - glob0) for i in np.flatnonzero(mask)}


CHOOSE_VERBS = set(range(A.CHOOSE, A.CHOOSE + 6))
PENDING_KINDS = ("side", "defend", "guard", "breacher", "seizer", "variant", "prison", "rescue", "load")


def test_defend_selects_the_defending_players_agent_out_of_turn():
    e = defend_env(forced_dice=(6, 6, 6, 1))
    assert e.agent_selection == "player_1" and e.game_state.turn_player == 0
    info = e.infos["player_1"]
    assert info["interrupt"] == "defend"
    assert hex_verbs(e, info["action_mask"]) <= CHOOSE_VERBS  # exactly the choose verbs: no end turn
    assert {e.decode_action(i) for i in np.flatnonzero(info["action_mask"])} == {
        "player_1: defend with soldier at (1, 0)", "player_1: defend with archer at (1, 0)",
        "player_1: defend with soldier at (1, -1)"}
    assert np.array_equal(e.observe("player_1")["action_mask"], info["action_mask"])
    assert e.infos["player_0"]["interrupt"] == "" and e.infos["player_0"]["action_mask"].sum() == 0
    e.step(e.encode_action("choose soldier", (1, -1)))  # the weaker unit next to both defends
    battle = [ev for ev in e.game_state.events if ev["event"] == "battle"][-1]
    assert battle["won"] and battle["at"] == e.gmap.board.index[(1, -1)]
    assert e.agent_selection == "player_0" and e.infos["player_0"]["interrupt"] == ""
    assert e.game_state.pending is None and e.game_state.active is not None  # the cavalry may still move


def test_the_wrapped_env_hands_the_defender_its_decision():
    e = env(map=ring_map(), num_players=2)
    e.reset(options={"state": defend_position().build()})
    e.step(e.unwrapped.encode_action("activate cavalry", (0, 0)))
    e.step(e.unwrapped.encode_action("attack", (1, 0)))
    agent = next(iter(e.agent_iter()))
    obs, _, term, trunc, info = e.last()
    assert agent == "player_1" and not (term or trunc) and info["interrupt"] == "defend"
    assert hex_verbs(e.unwrapped, obs["action_mask"]) <= CHOOSE_VERBS
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.agent_selection == "player_0"


def test_defending_a_seizure_may_also_be_declined():
    e = raw_env.from_state(guard_position().build())
    e.step(e.encode_action("seize", (0, 0)))
    assert e.agent_selection == "player_1" and e.infos["player_1"]["interrupt"] == "defend"
    mask = e.infos["player_1"]["action_mask"]
    assert {e.decode_action(i) for i in np.flatnonzero(mask)} == {
        "player_1: defend with soldier at (1, -1)", "player_1: no defence"}
    assert hex_verbs(e, mask) == {A.CHOOSE, -1 - A.NO_DEFENCE}
    obs = e.observe("player_1")["observation"]
    assert [scalar(e, obs, f"pending_{k}") for k in PENDING_KINDS] == [0, 0, 1, 0, 0, 0, 0, 0, 0]
    assert plane_hexes(e, obs, "pending_cell") == {(0, 0)}
    assert plane_hexes(e, obs, "pending_origin") == plane_hexes(e, obs, "pending_attacker") == {(1, 0)}
    assert scalar(e, obs, "pending_dice") == 0  # v2 (F6): naming a defender of a seizure rolls no dice
    e.step(e.encode_action("no defence"))
    assert e.game_state.dev_owner[e.gmap.board.index[(0, 0)]] == 0
    # Losing the camp, player 1 retaliates at once (no unit of player 0 is active), then the
    # decision goes back to player 0.
    assert e.agent_selection == "player_1" and e.infos["player_1"]["interrupt"] == "retaliation"
    e.step(e.encode_action("end turn"))
    assert e.agent_selection == "player_0" and e.infos["player_0"]["interrupt"] == ""


def test_observation_shows_the_defender_what_he_is_deciding_about():
    e = defend_env()
    views = [e.observe(a)["observation"] for a in e.possible_agents]
    for obs in views:  # every seat sees the same question; the asked one has the mask
        assert [scalar(e, obs, f"pending_{k}") for k in PENDING_KINDS] == [0, 1, 0, 0, 0, 0, 0, 0, 0]
        assert plane_hexes(e, obs, "pending_cell") == {(1, 0)}  # the attacked hex
        assert plane_hexes(e, obs, "pending_origin") == {(0, 0)}  # where the attack comes from
        assert plane_hexes(e, obs, "pending_attacker") == {(0, 0)}  # the cavalry's hex
        assert scalar(e, obs, "pending_dice") == pytest.approx(3 / 6)  # a cavalry rolls 3
        assert scalar(e, obs, "pending_range") == 0  # close combat
    e.step(e.encode_action("choose archer", (1, 0)))
    obs = e.observe(e.agent_selection)["observation"]
    pending = [i for i, n in enumerate(e.channel_names) if n.startswith("pending_")]
    assert len(pending) == 3 + len(PENDING_KINDS) + 2 == 14 and not obs[pending].any()  # answered: nothing pending


def test_observation_of_a_shot_shows_its_range_and_origin():
    sc = Scenario(ring_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "archer", (0, 0))
    sc.unit(1, "cavalry", (2, 0))
    sc.unit(1, "soldier", (1, 0))  # between them: next to both, it may take the shot
    e = raw_env.from_state(sc.build())
    e.step(e.encode_action("activate archer", (0, 0)))
    e.step(e.encode_action("shoot", (2, 0)))
    assert e.agent_selection == "player_1" and e.infos["player_1"]["interrupt"] == "defend"
    obs = e.observe("player_1")["observation"]
    assert plane_hexes(e, obs, "pending_cell") == {(2, 0)}
    assert plane_hexes(e, obs, "pending_origin") == plane_hexes(e, obs, "pending_attacker") == {(0, 0)}
    assert scalar(e, obs, "pending_range") == pytest.approx(2 / 3)
    assert scalar(e, obs, "pending_dice") == pytest.approx(2 / 6)


def test_pending_dice_count_the_flank_as_the_battle_will():
    """The second attack on a hex comes from its rear: the defender sees the +3 flanking dice
    before he chooses, and the battle rolls exactly that many."""
    sc = Scenario(ring_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "soldier", (0, 0))  # west of the target
    sc.unit(0, "archer", (2, 0))  # east of it: the rear once the front faces west
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "cavalry", (1, 0))
    e = raw_env.from_state(sc.build())
    e.game_state.forced_dice[:] = [1, 6, 6, 6]  # the soldier's attack fails: both defenders stay
    seen = []
    for attacker, at in (("soldier", (0, 0)), ("archer", (2, 0))):
        e.step(e.encode_action(f"activate {attacker}", at))
        e.step(e.encode_action("attack", (1, 0)))
        assert e.infos["player_1"]["interrupt"] == "defend"
        seen.append(round(scalar(e, e.observe("player_1")["observation"], "pending_dice") * 6))
        e.step(e.encode_action("choose cavalry", (1, 0)))
        seen.append([ev for ev in e.game_state.events if ev["event"] == "battle"][-1]["dice"])
        if e.game_state.active is not None:
            e.step(e.encode_action("end activation"))
    assert seen == [1, 1, 5, 5]  # soldier 1; archer 2 + 3 from the rear


def test_battle_move_side_is_an_in_turn_choice():
    sc = Scenario(ring_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (2, 0))
    e = raw_env.from_state(sc.build())
    e.step(e.encode_action("activate cavalry", (0, 0)))
    e.step(e.encode_action("move", (2, 0)))
    assert e.agent_selection == "player_0" and e.infos["player_0"]["interrupt"] == ""
    assert hex_verbs(e, e.action_mask()) == {A.ATTACK_FROM}
    obs = e.observe("player_0")["observation"]
    assert [scalar(e, obs, f"pending_{k}") for k in PENDING_KINDS] == [1, 0, 0, 0, 0, 0, 0, 0, 0]
    assert plane_hexes(e, obs, "pending_cell") == {(2, 0)} and plane_hexes(e, obs, "pending_attacker") == {(0, 0)}
    assert not plane_hexes(e, obs, "pending_origin")  # the side is what is being chosen
    e.step(e.encode_action("attack from", (1, 0)))
    assert e.game_state.pending is None


@pytest.mark.parametrize("n", PLAYERS)
def test_each_player_loads_his_freighters_first(n):
    e = raw_env(num_players=n)
    e.reset(seed=n)
    loads = {-1 - (A.LOAD + i) for i in range(3)}
    for seat in range(n):
        agent = f"player_{seat}"
        assert e.agent_selection == agent and e.infos[agent]["interrupt"] == ""
        assert hex_verbs(e, e.action_mask()) == loads
        assert scalar(e, e.observe(agent)["observation"], "pending_load") == 1
        e.step(e.encode_action(A.encode_global(A.LOAD + seat % 3, e.gmap.board.n_cells)))
    assert scalar(e, e.observe(e.agent_selection)["observation"], "pending_load") == 0
    assert hex_verbs(e, e.action_mask()) <= {A.PLACE, A.PLACE + 1, A.PLACE + 2}
    assert [ev["event"] for ev in e.game_state.events].count("load") == n
