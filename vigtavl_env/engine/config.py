"""Rule options: the places where the v0.93 document leaves a real design choice open.

Every field has the default that reads closest to the document; docs/rules.md says which rule
each option belongs to. A config is immutable and travels with the state (and its JSON).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .stats import ARCHER, CAVALRY, SOLDIER

LIMIT_SCOPES = ("in_play", "per_turn")
SURRENDER_ESCAPES = ("phase", "battle")
RETALIATION_ORDERS = ("turn_order", "losses")


@dataclass(frozen=True)
class RulesConfig:
    """Options of the rules engine.

    Attributes:
        rounds_per_phase: rounds in the build phase and in the battle phase ("Each phase lasts 2
            rounds"). The placement phase lasts until every ship is placed.
        gold_per_turn: gold received at the start of each turn ("he receives 6 gold").
        silver_per_turn: silver received at the start of each turn.
        retaliation_silver: silver a retaliating player receives ("receives 1 silver token").
        limit_scope: how the plain limits of the Stats table (freighter 3, galleon 1,
            artillery 1) apply: ``"in_play"`` (pieces a player may own at once; the "2/turn"
            rows say "/turn" and these do not) or ``"per_turn"`` (built per turn).
        freighter_loads: ``None`` (default): each player chooses how to load his two freighters
            at the start of the game, a decision of his ("Each player must load his 2 freighters
            with 3 land units each"); or a fixed split, two loads of 3 land units each, for a
            fixed start without that decision.
        overwhelm_dice: attack dice at which the defender surrenders before the battle.
        attrition_attacks: the attack on a hex from the same direction that first gets the
            attrition bonus ("the same hex from the same direction 3 times").
        attrition_bonus: extra dice from attrition.
        ranged_tactics: whether flanking, attrition and overwhelm also apply to ranged attacks.
        surrender: whether surrounded units surrender (Tactics: Surrender).
        surrender_escape: which movement judges "unable to move" (T4): ``"phase"`` (default)
            the movement of the phase in which the ring closes, so in the build phase a unit
            that can pass through the ring to a hex where it may stop is not surrounded;
            ``"battle"``: the battle phase's movement whatever the phase (no passing through).
        surrender_pays_tokens: whether units captured by surrender pay the encircler Battle
            tokens (O3: captured units count as defeated); False: only units defeated in a
            battle pay.
        retaliation_order: several players lost to one activation (R7): ``"turn_order"``
            (default) they retaliate in turn order after the active player; ``"losses"``: in
            the order they lost.
        end_awards_need_one: General, Admiral and Builder go only to players whose count is
            at least one (nobody is "the player with the most prisoners" at zero).
    """

    rounds_per_phase: int = 2
    gold_per_turn: int = 6
    silver_per_turn: int = 6
    retaliation_silver: int = 1
    limit_scope: str = "in_play"
    freighter_loads: tuple[tuple[int, ...], ...] | None = None
    overwhelm_dice: int = 6
    attrition_attacks: int = 3
    attrition_bonus: int = 2
    ranged_tactics: bool = True
    surrender: bool = True
    surrender_escape: str = "phase"
    surrender_pays_tokens: bool = True
    retaliation_order: str = "turn_order"
    end_awards_need_one: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.rounds_per_phase, int) or self.rounds_per_phase < 1:
            raise ValueError(f"rounds_per_phase must be a positive int, got {self.rounds_per_phase!r}")
        for name in ("gold_per_turn", "silver_per_turn", "retaliation_silver"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 0:
                raise ValueError(f"{name} must be a non-negative int, got {v!r}")
        if self.limit_scope not in LIMIT_SCOPES:
            raise ValueError(f"limit_scope must be one of {LIMIT_SCOPES}, got {self.limit_scope!r}")
        if self.surrender_escape not in SURRENDER_ESCAPES:
            raise ValueError(f"surrender_escape must be one of {SURRENDER_ESCAPES}, got {self.surrender_escape!r}")
        if self.retaliation_order not in RETALIATION_ORDERS:
            raise ValueError(f"retaliation_order must be one of {RETALIATION_ORDERS}, got {self.retaliation_order!r}")
        for name in ("ranged_tactics", "surrender", "surrender_pays_tokens", "end_awards_need_one"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        if self.freighter_loads is not None:
            try:
                loads = tuple(tuple(int(t) for t in load) for load in self.freighter_loads)
            except (TypeError, ValueError):
                raise ValueError("freighter_loads must be None or two loads of 3 land unit types") from None
            if len(loads) != 2 or any(len(load) != 3 for load in loads):
                raise ValueError("freighter_loads must be None or two loads of 3 land units each")
            if sorted(t for load in loads for t in load) != sorted((SOLDIER,) * 3 + (ARCHER,) * 2 + (CAVALRY,)):
                raise ValueError("freighter_loads must carry exactly 3 soldiers, 2 archers and 1 cavalry")
            object.__setattr__(self, "freighter_loads", loads)
        if self.overwhelm_dice < 2 or self.attrition_attacks < 1 or self.attrition_bonus < 0:
            raise ValueError("overwhelm_dice >= 2, attrition_attacks >= 1, attrition_bonus >= 0")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if self.freighter_loads is not None:
            d["freighter_loads"] = [list(x) for x in self.freighter_loads]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RulesConfig":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"unknown rules option(s) {unknown}; known: {sorted(known)}")
        kw = dict(d)
        if kw.get("freighter_loads") is not None:
            kw["freighter_loads"] = tuple(tuple(x) for x in kw["freighter_loads"])
        return cls(**kw)
