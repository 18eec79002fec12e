"""One run lifecycle for every trainer (training/lifecycle.py, issue 56 item 6): signals given
back, what the run owns closed last-taken first, and on a stop the saver's checkpoint and a
TrainingStopped saying how to resume."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from training.lifecycle import NOTHING_SAVED, RunLifecycle
from training.stopping import TrainingStopped


class Part:
    def __init__(self, name: str, closed: list[str]) -> None:
        self.name, self.closed = name, closed

    def close(self) -> None:
        self.closed.append(self.name)


class FakeRun(Part):
    dir = Path("runs/x")


def test_a_stop_saves_through_the_saver_and_closes_everything_last_taken_first():
    closed: list[str] = []
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(TrainingStopped) as e:
        with RunLifecycle("vigtavl az train") as life:
            life.own(Part("env", closed))
            life.run = FakeRun("run", closed)
            life.own(Part("logger", closed))
            life.on_stop(lambda: "at 64 steps; checkpoint c.zip")
            os.kill(os.getpid(), signal.SIGTERM)  # the handler only notes it outside at_once
            life.stop.check()
    assert str(e.value) == "stopped by SIGTERM at 64 steps; checkpoint c.zip; continue with: vigtavl az train --resume runs/x"
    assert e.value.status == 128 + signal.SIGTERM
    assert closed == ["logger", "env", "run"]
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_stop_during_set_up_saves_nothing_new():
    closed: list[str] = []
    with pytest.raises(TrainingStopped, match=NOTHING_SAVED):
        with RunLifecycle() as life:
            with life.setting_up():
                life.own(Part("env", closed))
                os.kill(os.getpid(), signal.SIGINT)  # raises at once inside the set-up
                pytest.fail("the set-up went on after the signal")
            life.on_stop(lambda: pytest.fail("no saver before the set-up is over"))
    assert closed == ["env"]


def test_another_error_passes_through_with_everything_closed():
    closed: list[str] = []
    with pytest.raises(ValueError, match="bad map"):
        with RunLifecycle() as life:
            life.run = FakeRun("run", closed)
            life.at_end(lambda: closed.append("ray"))
            raise ValueError("bad map")
    assert closed == ["ray", "run"]


def test_a_ctrl_c_without_a_stop_signal_is_not_turned_into_a_stop():
    with pytest.raises(KeyboardInterrupt) as e:
        with RunLifecycle():
            raise KeyboardInterrupt
    assert not isinstance(e.value, TrainingStopped)
