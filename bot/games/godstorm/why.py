"""Why a Godstorm move is not possible now (issue 25, item 7), for ``Godstorm.why_not``.

``/risk attack from:Atlantis to:Moscow``, an attack from someone else's territory and a placement out of
step all used to answer "That move is not possible now". These functions name the reason, as an i18n key
under ``godstorm.why.`` and its parameters. Places are ids in the parameters ``where``, ``frm`` and ``to``,
a step is its id in ``step`` (:func:`localise` names them in the reader's language); a name the player typed that is no place stays
as typed. Each check mirrors one the rules make (``combat.py``, ``turn.py``), so a legal move is never
given a reason; what they do not recognise is left to the generic refusal (None).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.i18n import has, t
from bot.games.godstorm import board
from bot.games.godstorm.core import as_int
from bot.games.godstorm.text import tname

if TYPE_CHECKING:
    from bot.games.godstorm.game import Godstorm

Reason = tuple[str, dict[str, Any]]
HEAVEN = "heaven"
PLACE_PARAMS = ("where", "frm", "to")
"""Parameters that carry a place id (named in the reader's language by :func:`localise`)."""


def localise(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """``params`` with every place id named in ``lang`` (a typed name that is no place is kept)."""
    out = {k: tname(v, lang) if k in PLACE_PARAMS and isinstance(v, str) else v for k, v in params.items()}
    step = params.get("step")
    if isinstance(step, str) and has(f"godstorm.step.{step}"):
        out["step"] = t(f"godstorm.step.{step}", lang)
    return out


def _why(key: str, **params: Any) -> Reason:
    return "godstorm.why." + key, params


def is_place(where: Any) -> bool:
    return isinstance(where, str) and (where in board.TERR_IDS or where in board.SPACE_IDS or where == HEAVEN)


def why_not(game: Godstorm, seat: int, action: Any) -> Reason | None:
    """The reason ``action`` is not possible for ``seat`` now, or None (no better word than "not possible")."""
    if not isinstance(action, dict) or seat not in game.actors():
        return None
    kind = action.get("type")
    if kind in ("attack", "attack_until"):
        return _attack(game, seat, action)
    if kind == "place":
        return _place(game, seat, action)
    if kind == "move_in":
        return _move_in(game, seat, action)
    if kind == "fortify":
        return _fortify(game, seat, action)
    return None


def _busy(game: Godstorm) -> Reason | None:
    """A decision inside the turn that comes before any other move (a battle, armies to move in...)."""
    decision = game.decision()
    if decision == "move_in":
        return _why("move_in_first")
    if decision in ("battle", "defend", "answer", "pick_card"):
        return _why("battle_first")
    if decision == "roll":  # an attack declared in the undo window (issue 27)
        return _why("roll_first")
    return None


def _step(game: Godstorm) -> str:
    s = game.s
    return s.step if s.phase == "turn" else s.phase


def _unknown(*places: Any) -> Reason | None:
    for where in places:
        if not is_place(where):
            return _why("no_such_place", where=str(where) if where is not None else "—")
    return None


def _owner(game: Godstorm, where: str, seat: int) -> int | None:
    s = game.s
    if where == HEAVEN:
        return seat
    return s.terr[where].owner if where in s.terr else s.uw[where].owner


def _armies(game: Godstorm, seat: int, where: str) -> int:
    s = game.s
    if where == HEAVEN:
        return s.players[seat].heaven
    return s.terr[where].armies if where in s.terr else s.uw[where].armies


# ---- attacks -------------------------------------------------------------------------------------
def _attack(game: Godstorm, seat: int, a: dict[str, Any]) -> Reason | None:
    s = game.s
    src, dst = a.get("from"), a.get("to")
    if (unknown := _unknown(src)) is not None:
        return unknown
    assert isinstance(src, str)
    if (busy := _busy(game)) is not None:
        return busy
    step = _step(game)
    if step not in ("invade", "underworld"):
        return _why("attack_step", step=step)
    if s.pending > 0 or s.turn.forced_trade:
        return _why("place_first", n=s.pending)
    # "Вы можете атаковать территорию, только соседствующую с вашей." (rulebook, l. 359)
    if _owner(game, src, seat) != seat:
        return _why("not_yours", where=src)
    if (unknown := _unknown(dst)) is not None:
        return unknown
    assert isinstance(dst, str)
    underworld = step == "underworld"
    if underworld and src in s.terr:
        return _why("underworld_from", where=src)
    if not underworld and src not in s.terr:
        return _why("earth_from", where=src)
    if _owner(game, dst, seat) == seat and dst != HEAVEN:
        return _why("own_target", where=dst)
    if dst not in game._targets(seat, src):
        if src in s.terr and dst in s.terr and dst in board.NEIGHBOURS[src]:
            return _why("cut_off", frm=src, to=dst)  # a miracle cut the link or made the land sacred
        if dst == HEAVEN or (src == HEAVEN and dst not in board.GATES):
            return _why("heaven_target", to=dst)
        return _why("not_adjacent", frm=src, to=dst)
    # "Вы должны иметь хотя бы 2 армии в той территории из которой производится атака" (rulebook, l. 359)
    available = game._available(seat, src)
    if available < 1:
        return _why("too_few", where=src, n=_armies(game, seat, src))
    # "Вы (атакующий) можете бросить 1, 2 или 3 куба, но вы обязаны иметь хотя бы на 1 армию больше в
    # захватываемой территории чем количество объявленных кубов." (rulebook, l. 389)
    dice = as_int(a.get("dice"))
    most = 1 if _owner(game, dst, seat) is None else min(3, available)
    if dice is None or not 1 <= dice <= most:
        return _why("too_many_dice", where=src, n=most)
    if a.get("type") == "attack_until":
        if game._godswar_due(src, dst) or _owner(game, dst, seat) is None:
            return _why("single_attack")
        stop = as_int(a.get("stop_at"))
        if stop is None or stop < 0:
            return _why("bad_stop")
    return None


# ---- placement -----------------------------------------------------------------------------------
def _place(game: Godstorm, seat: int, a: dict[str, Any]) -> Reason | None:
    s = game.s
    where, count = a.get("territory"), as_int(a.get("count"))
    if (unknown := _unknown(where)) is not None:
        return unknown
    assert isinstance(where, str)
    if where not in s.terr:
        return _why("place_earth", where=where)
    owner = s.terr[where].owner
    decision = game.decision()
    if decision == "claim":
        return _why("claimed", where=where) if owner is not None else None
    if decision == "setup_place":
        return _why("not_yours", where=where) if owner != seat else None
    if (busy := _busy(game)) is not None:
        return busy
    if decision != "turn":
        return _why("place_step", step=_step(game))
    if s.pending <= 0:
        return _why("place_step", step=_step(game))
    if owner != seat:
        return _why("not_yours", where=where)
    if count is None or count < 1:
        return _why("bad_count")
    if count > s.pending:
        return _why("too_many_armies", n=s.pending)
    return None


# ---- after a conquest ----------------------------------------------------------------------------
def _move_in(game: Godstorm, seat: int, a: dict[str, Any]) -> Reason | None:
    m = game.s.move
    if m is None or game.s.current != seat:
        return _why("no_move_in")
    n = as_int(a.get("count"))
    # "введите в неё хотя бы столько армий сколько вы бросали кубиков при последней атаке. Вы обязаны
    # оставлять хотя бы 1 армии у той территории из которой производилась атака." (rulebook, l. 436)
    if n is None or not m.min <= n <= m.max:
        return _why("move_range", min=m.min, max=m.max)
    return None


# ---- fortifying ----------------------------------------------------------------------------------
def _fortify(game: Godstorm, seat: int, a: dict[str, Any]) -> Reason | None:
    s = game.s
    src, dst = a.get("from"), a.get("to")
    if (unknown := _unknown(src, dst)) is not None:
        return unknown
    assert isinstance(src, str) and isinstance(dst, str)
    if (busy := _busy(game)) is not None:
        return busy
    if _step(game) != "fortify":
        return _why("fortify_step", step=_step(game))
    if s.turn.fortified:
        return _why("fortified")
    owned = game.owned(seat)
    for where in (src, dst):
        if where not in owned:
            return _why("not_yours", where=where)
    if src == dst:
        return _why("same_place")
    # "вы обязаны иметь непрерывный путь от начальной территории до конечной через принадлежащие вам
    # земли" (rulebook, l. 452); classic Risk: "в одну (и только одну) соседнюю территорию" (l. 716)
    if game.godstorm and dst not in game.connected(src, owned):
        return _why("no_path", frm=src, to=dst)
    if not game.godstorm and dst not in board.NEIGHBOURS[src]:
        return _why("not_adjacent", frm=src, to=dst)
    n = as_int(a.get("count"))
    most = s.terr[src].armies - 1
    if n is None or n < 0 or n > most:
        # "Вы обязаны оставить хотя бы 1 армию в территории из которой производится переброска." (l. 452)
        return _why("leave_one", where=src, n=max(most, 0))
    return None
