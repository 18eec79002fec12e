"""A damaged or foreign model file is one line, never a traceback: through every command that
loads a model (evaluate, match and tournament with ppo: or ppo-search:, play) and through
make_agent, which raises agents.ppo.ModelFileError (an AgentUnavailableError, so a ValueError)."""

from __future__ import annotations

import base64
import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.vigtavl_match import make_agent
from agents.ppo import PRETRAINED_PATH, ModelFileError
from vigtavl.cli import main as cli_main
from vigtavl_env.agent import AgentUnavailableError

# A pickle of a class from a module this install lacks (protocol 0: GLOBAL then STOP).
MISSING_CLASS_PICKLE = b"cno_such_module_here\nGone\n."


def _entries() -> dict[str, bytes]:
    with zipfile.ZipFile(PRETRAINED_PATH) as z:
        return {name: z.read(name) for name in z.namelist()}


def _rezip(path: Path, drop: str = "", **changed: bytes) -> None:
    """The shipped model again at ``path``, less the entry ``drop``, with entries ``changed``."""
    with zipfile.ZipFile(path, "w") as z:
        for name, data in _entries().items():
            if name != drop:
                z.writestr(name, changed.get(name.replace(".", "_"), data))


def _data(**changed: object) -> bytes:
    """The shipped model's ``data`` entry with some keys replaced (None: removed)."""
    data = json.loads(_entries()["data"])
    for key, value in changed.items():
        data.pop(key) if value is None else data.__setitem__(key, value)
    return json.dumps(data).encode()


def _pickled(blob: bytes) -> dict[str, str]:
    return {":type:": "<class 'object'>", ":serialized:": base64.b64encode(blob).decode()}


# damage name -> (how to write it at a path, words the one line must say)
DAMAGES: dict[str, tuple[Callable[[Path], object], str]] = {
    "not a zip": (lambda p: p.write_text("a note, not a model\n"), "not a zip archive"),
    "truncated zip": (lambda p: p.write_bytes(PRETRAINED_PATH.read_bytes()[:200_000]), "truncated"),
    "empty file": (lambda p: p.write_bytes(b""), "an empty file"),
    "a folder": (lambda p: p.mkdir(), "is a folder"),
    "zip without data": (lambda p: _rezip(p, drop="data"), "without the 'data' entry"),
    "data not JSON": (lambda p: _rezip(p, data=b"{not json"), "'data' entry is not JSON"),
    "data without spaces": (lambda p: _rezip(p, data=_data(observation_space=None, action_space=None)),
                            "has no observation_space"),
    "a space that does not unpickle": (
        lambda p: _rezip(p, data=_data(action_space=_pickled(b"\x00garbage"))),
        "its action_space cannot be unpickled"),
    "a pickled class this install lacks": (
        lambda p: _rezip(p, data=_data(lr_schedule=_pickled(MISSING_CLASS_PICKLE))),
        "No module named 'no_such_module_here'"),
    "damaged weights": (lambda p: _rezip(p, policy_pth=b"not torch weights"), "cannot be loaded"),
}

COMMANDS: dict[str, Callable[[str], list[str]]] = {
    "evaluate": lambda f: ["evaluate", "--model", f, "--games", "1", "--no-progress"],
    "match ppo": lambda f: ["match", "--agents", f"ppo:{f},random", "--games", "1", "--no-progress"],
    "match ppo-search": lambda f: ["match", "--agents", f"ppo-search:{f},random", "--games", "1", "--no-progress"],
    "tournament": lambda f: ["tournament", "--agents", f"ppo:{f},random", "--games", "1", "--no-progress"],
    "play": lambda f: ["play", "--opponent", f"ppo:{f}"],
}


@pytest.fixture(scope="module", params=list(DAMAGES))
def damaged(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(a damaged model file, words its error must say), one per kind of damage."""
    write, words = DAMAGES[request.param]
    path = tmp_path_factory.mktemp("models") / "model.zip"
    write(path)
    return path, words


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_damaged_model_is_one_line_in_every_command(damaged, command, capsys):
    path, words = damaged
    assert cli_main(COMMANDS[command](str(path))) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert str(path) in err and words in err, err


@pytest.mark.parametrize("kind", ["ppo", "ppo-search"])
def test_make_agent_refuses_a_damaged_model_with_one_line(damaged, kind):
    path, words = damaged
    with pytest.raises(ModelFileError, match=words) as info:
        make_agent(f"{kind}:{path}")
    assert isinstance(info.value, AgentUnavailableError) and isinstance(info.value, ValueError)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_a_run_folder_points_at_its_model(tmp_path):
    (tmp_path / "best_model.zip").write_bytes(b"")
    with pytest.raises(ModelFileError, match=f"is a folder.*{tmp_path / 'best_model.zip'}"):
        make_agent(f"ppo:{tmp_path}")


@pytest.mark.parametrize("name,attr", [("pretrained", "PRETRAINED_PATH"), ("pretrained-3p", "PRETRAINED_3P_PATH"),
                                       ("pretrained-4p", "PRETRAINED_4P_PATH")])
def test_a_missing_shipped_model_is_refused_not_looked_for_as_a_relative_path(tmp_path, monkeypatch, name, attr):
    import agents.ppo
    from agents.ppo import resolve_model_path
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_bytes(b"a file by the shipped model's name, in the working folder")
    monkeypatch.setattr(agents.ppo, attr, tmp_path / "gone" / "model.zip")
    with pytest.raises(FileNotFoundError, match="does not exist yet") as e:
        resolve_model_path(name)
    assert "\n" not in str(e.value)
