"""The research environments (issue 25 §1): PettingZoo's API test, Gymnasium's checker and OpenSpiel's random
simulation on one scenario of every ruleset; every action legal and replayable from its notation; the same seed the
same episode, also in another process and after pickling."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from kessen import Match  # noqa: E402
from kessen.envs import aec_env, gym_env, openspiel_game  # noqa: E402
from kessen.envs.episode import LAYOUTS, layout_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ONE_OF_EACH = {
    "song-of-blades": ROOT / "examples/song-of-blades/hero-against-mob.toml",
    "battlehost": ROOT / "examples/battlehost/monster.toml",
    "legions": ROOT / "examples/legions/titan-at-bay.toml",
    "armies-clash": ROOT / "examples/armies-clash/skirmish-ridge.toml",
}
SOB = ONE_OF_EACH["song-of-blades"]


def play(env, seed: int, limit: int = 10_000) -> list[tuple[str, int, float]]:
    """A whole episode with actions drawn from the mask by *seed*: (agent, action, reward) at each step."""
    rng = np.random.default_rng(seed)
    seen = []
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            seen.append((agent, -1, reward))
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        seen.append((agent, action, reward))
    return seen


@pytest.mark.parametrize("ruleset", sorted(ONE_OF_EACH))
def test_pettingzoo_api(ruleset: str) -> None:
    """PettingZoo's own API test passes on a scenario of every ruleset."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(ONE_OF_EACH[ruleset], seed=1, points=ruleset != "armies-clash"), num_cycles=300)


@pytest.mark.parametrize("ruleset", sorted(ONE_OF_EACH))
def test_gymnasium_check_env(ruleset: str) -> None:
    """Gymnasium's environment checker passes, the other side played by greedy."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym_env(ONE_OF_EACH[ruleset], opponent="greedy", seed=2, points=False), skip_render_check=True)


@pytest.mark.parametrize("ruleset", sorted(ONE_OF_EACH))
def test_openspiel_random_simulation_with_serialization(ruleset: str) -> None:
    """OpenSpiel's random-simulation consistency check, each state serialized and loaded again, on every ruleset."""
    pyspiel.random_sim_test(openspiel_game(ONE_OF_EACH[ruleset], points=False), num_sims=1, serialize=True, verbose=False)


def test_openspiel_random_simulation_with_points() -> None:
    """The same check with the candidate points offered at free moves (song-of-blades)."""
    pyspiel.random_sim_test(openspiel_game(SOB), num_sims=1, serialize=False, verbose=False)


def test_openspiel_chance_nodes_are_exact() -> None:
    """A chance node lists every outcome with its exact probability (they sum to exactly 1), and OpenSpiel's floats
    are those fractions."""
    state = openspiel_game(SOB).new_initial_state()
    assert state.is_chance_node()
    exact = state.chance_fractions()
    assert sum(p for _, p in exact) == 1
    assert [(a, float(p)) for a, p in exact] == state.chance_outcomes()


def test_every_action_replays_through_match_from_its_notation() -> None:
    """Every action the environment takes is legal: its notation, chosen in a kessen.Match on the same seed's
    outcomes, plays the same battle to the same result."""
    env = aec_env(SOB, seed=5)
    rng = np.random.default_rng(5)
    notations, points = [], 0
    while env.episode.terminal is None:
        mask = env.observe(env.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        notations.append(env.notation(action))
        points += action >= env.episode.layout.max_options
        env.step(action)
    assert points > 0  # candidate points as well as suggestions
    match = Match.open(str(SOB), seed=5, people=set(env.possible_agents))
    match.run()
    for notation in notations:
        match.choose(notation)
    assert match.result is not None and env.episode.terminal is not None
    assert match.result.winner == env.episode.terminal.winner
    assert match.state == env.episode.position.state


def test_same_seed_same_episode_and_reset_goes_on() -> None:
    """One seed, one episode; a reset without a seed plays the next battle of the stream."""
    first = play(aec_env(SOB, seed=11), 3)
    again = play(aec_env(SOB, seed=11), 3)
    assert first == again
    env = aec_env(SOB, seed=11)
    play(env, 3)
    env.reset()
    assert play(env, 3) != first


def test_same_seed_same_episode_in_another_process() -> None:
    """The episode of a seed is the same in a fresh process (another hash seed)."""
    code = ("import json, sys; sys.path.insert(0, 'tests/envs'); from test_envs import play, SOB; "
            "from kessen.envs import aec_env; print(json.dumps(play(aec_env(SOB, seed=13), 4)))")
    runs = [
        json.loads(subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True,
                                  env={"PYTHONHASHSEED": str(h), "PATH": "/usr/bin:/bin"}).stdout)
        for h in (1, 2)
    ]
    here = [list(step) for step in play(aec_env(SOB, seed=13), 4)]
    assert runs[0] == runs[1] == here


def test_pickle_and_deepcopy_go_on_with_the_same_episode() -> None:
    """A pickled or deep-copied environment goes on exactly as the original (vectorised environments in several
    processes)."""
    env = aec_env(SOB, seed=17)
    rng = np.random.default_rng(1)
    for _ in range(15):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    rest = [play(e, 9) for e in (env, *copies)]
    assert rest[0] == rest[1] == rest[2]


def test_gym_env_plays_the_goblins_against_greedy_to_the_end() -> None:
    """The Gymnasium wrapper plays one side; the other side's decisions are greedy's; a battle ends with ±1 or 0;
    an action outside the mask plays the first suggestion and says so."""
    env = gym_env(SOB, side="Goblins", opponent="greedy", seed=3)
    obs, _ = env.reset(seed=3)
    assert env.episode.decision is not None and env.episode.decision.player == "Goblins"
    outside = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, _trunc, info = env.step(outside)
    assert info == {"illegal_action": outside}
    while not done:
        obs, reward, done, _trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert reward in (-1.0, 0.0, 1.0)


def test_observation_layout_is_the_rulesets_for_every_scenario() -> None:
    """Every scenario of a ruleset has the same observation shapes and action space (its layout)."""
    for ruleset in LAYOUTS:
        shapes = set()
        for path in sorted((ROOT / "examples" / ruleset).glob("*.toml")):
            obs = aec_env(path, seed=1, points=False).observe(Match.open(str(path)).position().sides[0])
            shapes.add(tuple((k, v.shape) for k, v in obs.items()))
        layout = layout_of(ruleset, points=False)
        assert shapes == {tuple(layout.shapes().items())}


def test_status_words_of_every_ruleset_have_columns() -> None:
    """Every status word the board data gives in random battles has a column of its ruleset's model table."""
    for ruleset, path in ONE_OF_EACH.items():
        env = aec_env(path, seed=2, points=False)
        words = set()
        rng = np.random.default_rng(2)
        while env.episode.terminal is None:
            for m in env.episode.board["models"]:
                words.update(m["status"])
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        assert words <= set(layout_of(ruleset).status_words), ruleset
