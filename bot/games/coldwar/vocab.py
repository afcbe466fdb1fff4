"""Cold War's actions and events as typed records (``TypedDict``: their JSON form is the dict itself).

Every action a seat sends has a ``type`` (the move) and the fields below; every event the rules emit has
a ``type`` and the fields below, with ``to`` (the seats it is private to) on private ones. Events are built
with ``type`` last, as they have always been stored.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# ---- actions ---------------------------------------------------------------------------------


class AgentAction(TypedDict):
    """Planning: send ``agent`` (1-6) as agent X."""

    type: Literal["agent"]
    agent: int


class FirstAction(TypedDict):
    """The balance holder names the seat that acts first in the struggle."""

    type: Literal["first"]
    seat: int


class EventAction(TypedDict):
    """Use the captured event ``card`` (Olympic Games: ``agent``, the eliminated agent brought back)."""

    type: Literal["event"]
    card: str
    agent: NotRequired[int]


class SkipAction(TypedDict):
    """Do not use the event offered at a window."""

    type: Literal["skip"]


class OrderAction(TypedDict):
    """Put the looked-at top cards back in this order (Analyst, Space Race)."""

    type: Literal["order"]
    order: list[str]


class DoubleAction(TypedDict):
    """The Double Agent: learn the next agent X (``peek``) or send ``agent`` on leave (``leave``)."""

    type: Literal["double"]
    mode: Literal["peek", "leave"]
    agent: NotRequired[int]


class MediaAction(TypedDict):
    """What to do with the group card a media group looked at."""

    type: Literal["media"]
    choice: Literal["take", "discard", "return"]


class DiscardAction(TypedDict):
    """A nuclear event: the next group to destroy."""

    type: Literal["discard"]
    group: str


class RecruitAction(TypedDict):
    type: Literal["recruit"]


class WaitAction(TypedDict):
    type: Literal["wait"]


class UseAction(TypedDict):
    """Use the active group ``group`` (on ``target``, except a media group)."""

    type: Literal["use"]
    group: str
    target: NotRequired[str]


TurnAction = RecruitAction | WaitAction | UseAction | EventAction
"""What a struggle turn takes."""
WindowAction = EventAction | SkipAction
"""What an event window takes."""

# ---- events ----------------------------------------------------------------------------------


class RoundEvent(TypedDict):
    round: int
    type: Literal["round"]


class TargetReshuffleEvent(TypedDict):
    type: Literal["target_reshuffle"]


class RevealEvent(TypedDict):
    target: str
    type: Literal["reveal"]


class BalanceEvent(TypedDict):
    seat: int
    why: Literal["random", "behind", "stays", "loser", "olympics"]
    type: Literal["balance"]


class ShuffleEvent(TypedDict):
    type: Literal["shuffle"]


class GroupReshuffleEvent(TypedDict):
    type: Literal["group_reshuffle"]


class PlanningEvent(TypedDict):
    type: Literal["planning"]


class AgentChosenEvent(TypedDict):
    """Private to the seat: its agent X."""

    seat: int
    agent: int
    to: list[int]
    type: Literal["agent_chosen"]


class ChosenEvent(TypedDict):
    """Public: a seat has chosen (not what)."""

    seat: int
    type: Literal["chosen"]


class PeekXEvent(TypedDict):
    """Private to the Double Agent's seat: the opponent's agent X."""

    seat: int
    agent: int
    to: list[int]
    type: Literal["peek_x"]


class FirstEvent(TypedDict):
    seat: int
    first: int
    type: Literal["first"]


class AnalystDoneEvent(TypedDict):
    seat: int
    type: Literal["analyst_done"]


class SpaceDoneEvent(TypedDict):
    seat: int
    type: Literal["space_done"]


class WaitEvent(TypedDict):
    seat: int
    type: Literal["wait"]


class RecruitEvent(TypedDict):
    seat: int
    group: str
    how: Literal["recruit", "benefit", "protest"]
    type: Literal["recruit"]


class UseEvent(TypedDict):
    seat: int
    group: str
    on: str
    owner: int
    effect: Literal["destroy", "activate", "deactivate", "steal", "give"]
    type: Literal["use"]


class MediaUseEvent(TypedDict):
    seat: int
    group: str
    type: Literal["media_use"]


class MediaPeekEvent(TypedDict):
    """Private to the seat: the top group card its media group looked at."""

    seat: int
    group: str
    to: list[int]
    type: Literal["media_peek"]


class MediaTakeEvent(TypedDict):
    seat: int
    group: str
    type: Literal["media_take"]


class MediaDiscardEvent(TypedDict):
    seat: int
    group: str
    type: Literal["media_discard"]


class MediaReturnEvent(TypedDict):
    seat: int
    type: Literal["media_return"]


class DestroyedEvent(TypedDict):
    seat: int
    group: str
    owner: int
    by: Literal["nuclear"]
    type: Literal["destroyed"]


class EventUsedEvent(TypedDict):
    seat: int
    card: str
    vp: int
    type: Literal["event_used"]


class XRevealedEvent(TypedDict):
    seat: int
    agent: int | None
    by: int
    type: Literal["x_revealed"]


class AgentReturnedEvent(TypedDict):
    seat: int
    agent: int
    type: Literal["agent_returned"]


class StruggleOverEvent(TypedDict):
    type: Literal["struggle_over"]


class TruceEvent(TypedDict):
    influence: list[int]
    stability: int
    type: Literal["truce"]


class UnrestEvent(TypedDict):
    seat: int
    agent: int | None
    type: Literal["unrest"]


class DoubleUnrestEvent(TypedDict):
    target: str | None
    type: Literal["double_unrest"]


class NoWinnerEvent(TypedDict):
    target: str | None
    type: Literal["no_winner"]


class TokenEvent(TypedDict):
    seat: int
    why: str
    """``influence``, or the faction whose priority broke the tie."""
    type: Literal["token"]


class DeputySurvivesEvent(TypedDict):
    seat: int
    reason: Literal["unrest", "assassin"]
    type: Literal["deputy_survives"]


class NobelSavedEvent(TypedDict):
    seat: int
    agent: int
    type: Literal["nobel_saved"]


class EliminatedEvent(TypedDict):
    seat: int
    agent: int
    reason: Literal["unrest", "assassin"]
    type: Literal["eliminated"]


class ReportEvent(TypedDict):
    agents: list[int | None]
    exposed: list[bool]
    type: Literal["report"]


class AbilityEvent(TypedDict):
    """Agent ``agent`` of ``seat`` used its ability (``effect``; the Double Agent's victim)."""

    seat: int
    agent: int
    effect: Literal["none", "transfer", "peek", "leave", "analyst", "kill", "bottom"]
    victim: NotRequired[int]
    type: Literal["ability"]


class ToBottomEvent(TypedDict):
    target: str | None
    type: Literal["to_bottom"]


class CaptureEvent(TypedDict):
    seat: int
    target: str
    how: Literal["unrest", "spy", "director", "token"]
    vp: int
    type: Literal["capture"]


class DetenteEvent(TypedDict):
    scores: list[int]
    type: Literal["detente"]


class ExtraRoundEvent(TypedDict):
    type: Literal["extra_round"]


class GameOverEvent(TypedDict):
    winners: list[int]
    scores: list[int]
    exhausted: bool
    type: Literal["game_over"]


ColdWarEvent = (
    RoundEvent | TargetReshuffleEvent | RevealEvent | BalanceEvent | ShuffleEvent | GroupReshuffleEvent
    | PlanningEvent | AgentChosenEvent | ChosenEvent | PeekXEvent | FirstEvent | AnalystDoneEvent
    | SpaceDoneEvent | WaitEvent | RecruitEvent | UseEvent | MediaUseEvent | MediaPeekEvent | MediaTakeEvent
    | MediaDiscardEvent | MediaReturnEvent | DestroyedEvent | EventUsedEvent | XRevealedEvent
    | AgentReturnedEvent | StruggleOverEvent | TruceEvent | UnrestEvent | DoubleUnrestEvent | NoWinnerEvent
    | TokenEvent | DeputySurvivesEvent | NobelSavedEvent | EliminatedEvent | ReportEvent | AbilityEvent
    | ToBottomEvent | CaptureEvent | DetenteEvent | ExtraRoundEvent | GameOverEvent
)
"""Every event the rules emit."""
