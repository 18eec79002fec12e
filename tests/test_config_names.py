"""Training configs by path or by the name of a shipped one (``training/config.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from training.config import CONFIG_DIR, config_path, load_config, shipped_configs


def test_the_shipped_configs_are_those_of_the_checkout() -> None:
    checkout = Path(__file__).resolve().parent.parent / "configs"
    assert shipped_configs() == sorted(p.stem for p in checkout.glob("*.yaml"))
    assert "ppo_quick" in shipped_configs()


@pytest.mark.parametrize("name", ["ppo_quick", "ppo_quick.yaml"])
def test_a_shipped_config_loads_by_name_from_any_folder(name: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert config_path(name) == CONFIG_DIR / "ppo_quick.yaml"
    assert load_config(name).total_timesteps == load_config(CONFIG_DIR / "ppo_quick.yaml").total_timesteps


def test_a_file_of_that_name_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ppo_quick.yaml").write_text("total_timesteps: 1234\n")
    assert load_config("ppo_quick.yaml").total_timesteps == 1234


@pytest.mark.parametrize("name", ["nothing_here", "configs/nothing.yaml", "../ppo_quick"])
def test_an_unknown_config_names_the_shipped_ones_in_one_line(name: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError) as err:
        load_config(name)
    assert "shipped configs: " in str(err.value) and "ppo_quick" in str(err.value)
    assert "\n" not in str(err.value)
