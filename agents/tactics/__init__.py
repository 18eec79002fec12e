"""Rules-based evaluation shared by the bots: battle odds, token values, threats, a position value.

Everything here reads a :class:`~vigtavl_env.engine.GameState` and never changes it.

- **Codes**: :func:`split_legal` groups the engine's legal codes by verb.
- **Odds** from the dice rules: close combat is won by the higher of the two highest dice with
  ties re-rolled, so ``p = P(A > D) / (1 - P(A = D))``; a ranged shot hits if any of ``n`` dice
  is at most ``k`` (3, 2, 1 at range 1, 2, 3): ``1 - (1 - k/6)^n``; an attack with at least
  ``overwhelm_dice`` dice wins outright. :func:`preview_dice` (the engine's
  ``preview_attack_dice``) adds flanking (the first attack on a hex sets its front) and
  attrition (the third attack from one side) without recording anything.
- **Defence** (rules v1: the attacked player chooses): :func:`choose_defender` is the choice
  that loses the fewest tokens on average, which is also what an attacker should expect;
  :func:`guard_outcome` plays out a defended seizure, the owner sending defenders while they
  are worth it.
- **Values**: what a defeated unit, a seized development (+3 for an owner's last one, plus the
  prisoners rescued there) and the end awards are worth in victory tokens.
- **Threats** (:class:`Threats`): for one player, what his units could attack or stand next to
  on his next turn, from static distances (walls and blocking units aside).
- **Position value** (:func:`evaluate`): tokens, the end awards as they stand now, and what each
  player's developments, prisoners and units are likely to win or lose before the game ends.

Per-map tables (:class:`MapInfo`) are built once per map by whoever owns the cache (a bot keeps
one per map it has seen; the tables also remember the threats of the last positions seen);
nothing here is cached at module level.

Where each part lives: :mod:`.codes` (the legal codes by verb), :mod:`.odds` (battle odds and
defence), :mod:`.values` (tokens, awards, turns left), :mod:`.maps` (per-map tables and caches),
:mod:`.threats` (threats, exposure, targets) and :mod:`.evaluation` (the position value).
"""

from .codes import GROUPS, GLOBAL_GROUPS, VERB_GROUP, split_legal, verb_group
from .odds import (
    close_win_prob, CLOSE_WIN, ranged_hit_prob, breach_prob, preview_dice, defender, attack_dice_from,
    loss_prob, stake_value, choose_defender, guard_outcome, attack_prob, attack_odds,
    expected_attack_tokens,
)
from .values import (
    LAST_DEVELOPMENT_BONUS, END_AWARD, COMPLEX_TOKENS, unit_value, dev_count, seize_value, end_counts,
    award_shares, projected_awards, battle_turns_left, turns_left,
)
from .maps import INF, Recent, MapInfo
from .threats import Threats, threats_of, target_field, approach_risk, guarded_beside, guards, seize_exposure
from .evaluation import Evaluation, DEFAULT_EVAL, player_scores, evaluate

__all__ = [
    "CLOSE_WIN", "COMPLEX_TOKENS", "DEFAULT_EVAL", "END_AWARD", "Evaluation", "GLOBAL_GROUPS", "GROUPS",
    "INF", "LAST_DEVELOPMENT_BONUS", "MapInfo", "Recent", "Threats", "VERB_GROUP", "approach_risk",
    "attack_dice_from", "attack_odds", "attack_prob", "award_shares", "battle_turns_left", "breach_prob",
    "choose_defender", "close_win_prob", "defender", "dev_count", "end_counts", "evaluate",
    "expected_attack_tokens", "guard_outcome", "guarded_beside", "guards", "loss_prob", "player_scores", "preview_dice",
    "projected_awards", "ranged_hit_prob", "seize_exposure", "seize_value", "split_legal", "stake_value",
    "target_field", "threats_of", "turns_left", "unit_value", "verb_group",
]
