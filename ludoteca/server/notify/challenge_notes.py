"""The notifications of challenges (kind "challenge"): a challenge received, told to the
challenged player; a challenge declined, told to the challenger with the reason."""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import _
from ..community.challenges import REASONS, ChallengeView
from ..play.catalogue import rules_title
from .schemas import Kind

__all__ = ["ChallengeNote"]


@dataclass(frozen=True)
class ChallengeNote:
    """A challenge's step told to the account ``user`` (``view.status``: "open", received;
    "declined", its challenger told)."""

    user: int
    view: ChallengeView

    @property
    def game_id(self) -> str:
        return self.view.id

    @property
    def kind(self) -> Kind:
        return Kind.CHALLENGE

    @property
    def path(self) -> str:
        return "/#challenges"

    @property
    def tag(self) -> str:
        return f"challenge-{self.view.id}"

    def words(self) -> tuple[str, str]:
        """The title and text, in the current language."""
        view = self.view
        what = rules_title(view.game, view.rules) + (f", {view.clock}" if view.clock else "")
        if view.status == "declined":
            reason = view.reason or "generic"
            return (
                _("%(name)s declined your challenge", name=view.challenged),
                f"{what}: {_(REASONS[reason])}",
            )
        return (_("%(name)s challenges you", name=view.challenger), what)
