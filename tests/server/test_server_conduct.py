"""The rules of conduct, handler by handler, without HTTP or a store: each intent's legal case
gives the change the engine implies (the move it plays, the moves a take-back pops, the outcome
of an end), and each refusal names its reason with its status."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.core import Color, Termination
from ludoteca.server.errors import ActionError
from ludoteca.server.play import conduct, views
from ludoteca.server.play.catalogue import from_code, new_state
from ludoteca.server.play.clock import parse_control
from ludoteca.server.play.conduct import Change, Context
from ludoteca.server.play.live import LiveGame, token_hash
from ludoteca.server.play.opening import Opening, build
from ludoteca.server.schemas import HUMAN, Mode, MoveIntent, Plain, Status

GAME = RULES = "felli"
#: black to move; c3xa1 takes White's last piece: the move ends the game
ENDING = "b../..b/b/w../... b 5 53"
START = new_state(GAME, RULES, seed=0).position_code()
NOW = 10_000_000
CONTEXT = Context(NOW, rematch_key=b"the server's key")
BOTH = frozenset({"white", "black"})
WHITE, BLACK = frozenset({"white"}), frozenset({"black"})


def live_game(
    mode: str = Mode.HOTSEAT,
    position: str | None = None,
    computer: str | None = None,
    clock: str | None = None,
    tokens: dict[str, str] | None = None,
    users: dict[str, int | None] | None = None,
    rated: bool = False,
) -> LiveGame:
    """A game as the hub holds it, from ``position`` (default: the usual start)."""
    kinds = {"white": HUMAN, "black": HUMAN}
    if computer:
        kinds[computer] = "level:1"
    row, state = build(
        Opening(
            game=GAME,
            rules=RULES,
            start=from_code(GAME, RULES, position or START),
            mode=mode,
            kinds=kinds,
            tokens={"white": "w", "black": "b"} if tokens is None else tokens,
            control=parse_control(clock) if clock else None,
            names={"white": "Ann", "black": "Bo"},
            users=users or {},
            rated=rated,
        ),
        NOW,
    )
    return LiveGame(row, state)


def move(text: str, ply: int) -> MoveIntent:
    return MoveIntent(type="move", move=text, ply=ply)


def plain(kind: str) -> Plain:
    return Plain.model_validate({"type": kind})


def decide(live: LiveGame, seats: frozenset[str], intent: MoveIntent | Plain) -> Change:
    return conduct.decide(live, seats, intent, CONTEXT)


def done(live: LiveGame, seats: frozenset[str], intent: MoveIntent | Plain) -> Change:
    """Decide and apply (as the hub does once the change is stored)."""
    change = decide(live, seats, intent)
    conduct.apply(live, change)
    return change


def refused(live: LiveGame, seats: frozenset[str], intent: Any, status: int, words: str) -> None:
    before = (live.state.position_code(), dict(vars(live.row)))
    with pytest.raises(ActionError) as caught:
        decide(live, seats, intent)
    assert caught.value.status == status and words in caught.value.message
    assert (live.state.position_code(), dict(vars(live.row))) == before  # nothing changed


def play_first(live: LiveGame, seats: frozenset[str] = BOTH) -> str:
    """Play the engine's first legal move; its notation."""
    text = str(next(iter(live.state.legal_moves)))
    done(live, seats, move(text, live.ply))
    return text


def over(live: LiveGame) -> LiveGame:
    done(live, BOTH, plain("resign"))
    assert live.row.status == Status.OVER
    return live


# --- moves --------------------------------------------------------------------------------------
def test_every_legal_move_is_played_as_the_engine_plays_it() -> None:
    for legal in list(live_game().state.legal_moves):
        live = live_game()
        expected = live.state.copy()
        expected.push(str(legal))
        change = done(live, BOTH, move(str(legal), 0))
        assert change.push == legal and change.outcome is None and change.pop == 0
        assert change.fields == {"draw_offer": None, "undo_offer": None}
        assert live.state.position_code() == expected.position_code() and live.version == 1


def test_a_move_that_ends_the_game_carries_the_engines_outcome() -> None:
    live = live_game(position=ENDING)
    after = live.state.copy()
    after.push("c3xa1")
    expected = after.outcome()
    assert expected is not None and expected.winner is Color.BLACK
    change = decide(live, BLACK, move("c3xa1", 0))
    assert change.outcome == expected
    assert change.fields["status"] == Status.OVER and change.fields["result"] == expected.result
    assert change.fields["termination"] == expected.termination.label


def test_refused_moves() -> None:
    live = live_game(mode=Mode.ONLINE)
    legal = str(next(iter(live.state.legal_moves)))
    refused(live, BLACK, move(legal, 0), 409, "White's turn, not yours")
    refused(live, frozenset(), move(legal, 0), 403, "watching only")
    refused(live, WHITE, move(legal, 1), 409, "position has changed")
    illegal = "a1-a1"
    assert illegal not in {str(m) for m in live.state.legal_moves}
    refused(live, WHITE, move(illegal, 0), 400, "")
    waiting = live_game(mode=Mode.ONLINE, tokens={"white": "w"})
    assert waiting.row.status == Status.WAITING
    refused(waiting, WHITE, move(legal, 0), 409, "has not started")
    refused(over(live_game()), BOTH, move(legal, 0), 409, "the game is over")


def test_the_computers_turn_is_not_a_players() -> None:
    live = live_game(mode=Mode.COMPUTER, computer="white", tokens={"black": "b"})
    legal = str(next(iter(live.state.legal_moves)))
    refused(live, BLACK, move(legal, 0), 409, "not yours")
    assert conduct.computer_move(live, live.version + 1, legal, CONTEXT) is None  # stale
    change = conduct.computer_move(live, live.version, legal, CONTEXT)
    assert change is not None and str(change.push) == legal


def test_a_move_on_the_clock_adds_the_increment_and_restarts_the_clock() -> None:
    live = live_game(clock="5+2")
    first = decide(live, BOTH, move(str(next(iter(live.state.legal_moves))), 0))
    assert first.fields["clock_started"] == NOW and "white_ms" not in first.fields  # untimed
    conduct.apply(live, first)
    live.row.clock_started = NOW - 1_500
    second = decide(live, BOTH, move(str(next(iter(live.state.legal_moves))), 1))
    assert second.fields["black_ms"] == 300_000 - 1_500 + 2_000
    assert second.fields["clock_started"] == NOW


def test_a_move_after_the_time_ran_out_loses_on_time() -> None:
    live = live_game(clock="1+0")
    play_first(live)
    live.row.clock_started = NOW - 60_001
    change = decide(live, BOTH, move(str(next(iter(live.state.legal_moves))), 1))
    assert change.push is None and change.outcome is not None
    assert change.outcome.termination is Termination.TIME_FORFEIT
    assert change.outcome.winner is Color.WHITE and change.fields["black_ms"] == 0
    assert conduct.flag(live, CONTEXT).outcome == change.outcome


# --- resignation, cancellation ----------------------------------------------------------------
def test_resignation() -> None:
    live = live_game(mode=Mode.ONLINE)
    change = decide(live, BLACK, plain("resign"))
    assert change.outcome is not None and change.outcome.termination is Termination.RESIGNATION
    assert change.outcome.winner is Color.WHITE and change.fields["result"] == "1-0"
    hotseat = live_game()  # both seats: the side to move resigns
    assert decide(hotseat, BOTH, plain("resign")).fields["result"] == "0-1"
    refused(over(live_game()), BOTH, plain("resign"), 409, "the game is over")
    refused(live_game(Mode.ONLINE, tokens={"white": "w"}), WHITE, plain("resign"), 409, "started")


def test_cancelling_a_game_nobody_joined() -> None:
    waiting = live_game(mode=Mode.ONLINE, tokens={"white": "w"})
    change = decide(waiting, WHITE, plain("cancel"))
    assert change.fields["status"] == Status.OVER and change.fields["termination"] == "cancelled"
    assert change.outcome is None  # no result: nothing to rate
    refused(live_game(mode=Mode.ONLINE), WHITE, plain("cancel"), 409, "only a game still waiting")


# --- draws ------------------------------------------------------------------------------------
def test_a_draw_offered_accepted_and_declined() -> None:
    live = live_game(mode=Mode.ONLINE)
    refused(live, BLACK, plain("accept_draw"), 409, "no draw offer")
    refused(live, BLACK, plain("decline_draw"), 409, "no draw offer")
    assert done(live, WHITE, plain("offer_draw")).fields == {"draw_offer": "white"}
    refused(live, WHITE, plain("accept_draw"), 409, "no draw offer")  # one's own
    assert decide(live, BLACK, plain("decline_draw")).fields == {"draw_offer": None}
    change = decide(live, BLACK, plain("accept_draw"))
    assert change.outcome is not None and change.outcome.termination is Termination.DRAW_AGREED
    assert change.outcome.winner is None and change.fields["draw_offer"] is None
    refused(over(live_game()), BOTH, plain("offer_draw"), 409, "the game is over")


def test_the_computer_answers_a_draw_offer_by_its_evaluation() -> None:
    """It accepts unless it stands better than 0.1 (the engine's evaluation, its side)."""
    answers = set()
    for position in (START, ENDING):
        for computer in ("white", "black"):
            human = "black" if computer == "white" else "white"
            live = live_game(Mode.COMPUTER, position, computer, tokens={human: "h"})
            sign = 1 if live.state.turn is Color[computer.upper()] else -1
            if live.state.evaluate() * sign > 0.1:
                refused(live, frozenset({human}), plain("offer_draw"), 409, "declines")
                answers.add("declined")
            else:
                change = decide(live, frozenset({human}), plain("offer_draw"))
                assert change.outcome is not None
                assert change.outcome.termination is Termination.DRAW_AGREED
                answers.add("accepted")
    assert answers == {"declined", "accepted"}


# --- take-backs -------------------------------------------------------------------------------
def test_hotseat_undo_takes_back_the_last_move() -> None:
    live = live_game()
    refused(live, BOTH, plain("undo"), 409, "no move to take back")
    start = live.state.position_code()
    play_first(live)
    change = done(live, BOTH, plain("undo"))
    assert change.pop == 1 and change.push is None and change.fields["status"] == Status.LIVE
    assert live.state.position_code() == start and live.ply == 0


def test_undo_against_the_computer_goes_back_to_before_the_players_move() -> None:
    live = live_game(Mode.COMPUTER, computer="black", tokens={"white": "w"})
    start = live.state.position_code()
    play_first(live, WHITE)
    reply = str(next(iter(live.state.legal_moves)))
    change = conduct.computer_move(live, live.version, reply, CONTEXT)
    assert change is not None
    conduct.apply(live, change)
    assert done(live, WHITE, plain("undo")).pop == 2
    assert live.state.position_code() == start


def test_an_online_take_back_is_asked_for_then_accepted_or_declined() -> None:
    live = live_game(mode=Mode.ONLINE)
    refused(live, WHITE, plain("undo"), 409, "you have no move to take back")
    refused(live, BLACK, plain("decline_undo"), 409, "no take-back request")
    before = live.state.position_code()
    play_first(live, WHITE)
    refused(live, BLACK, plain("undo"), 409, "you have no move to take back")
    assert done(live, WHITE, plain("undo")).fields == {"undo_offer": "white"}
    refused(live, WHITE, plain("accept_undo"), 409, "no take-back request")  # one's own
    assert decide(live, BLACK, plain("decline_undo")).fields == {"undo_offer": None}
    change = done(live, BLACK, plain("accept_undo"))
    assert change.pop == 1 and change.fields["undo_offer"] is None
    assert live.state.position_code() == before
    refused(live, BLACK, plain("accept_undo"), 409, "no take-back request")


def test_a_take_back_on_the_clock_charges_the_side_to_move_and_restarts_its_clock() -> None:
    live = live_game(clock="5+0")
    play_first(live)
    live.row.clock_started = NOW - 2_000
    change = decide(live, BOTH, plain("undo"))
    assert change.fields["black_ms"] == 300_000 - 2_000 and change.fields["clock_started"] == NOW


# --- rematches and seats ----------------------------------------------------------------------
def test_a_rematch_swaps_the_colours_and_derives_the_players_tokens() -> None:
    live = live_game(mode=Mode.ONLINE, users={"white": 7, "black": 9})
    refused(live, WHITE, plain("rematch"), 409, "follows a finished game")
    over(live)
    change = decide(live, WHITE, plain("rematch"))
    rematch = change.rematch
    assert rematch is not None and change.fields == {"rematch": rematch.game_id}
    assert dict(rematch.users) == {"white": 9, "black": 7}
    assert dict(rematch.names) == {"white": "Bo", "black": "Ann"}
    assert rematch.mode == Mode.ONLINE and rematch.start is not None  # from the same position
    for seat, token in rematch.tokens.items():
        assert token == views.rematch_token(CONTEXT.rematch_key, rematch.game_id or "", seat)
    conduct.apply(live, change)
    refused(live, BLACK, plain("rematch"), 409, "already been started")


def test_joining_takes_the_free_seat() -> None:
    waiting = live_game(mode=Mode.ONLINE, tokens={"white": "w"})
    colour, change = conduct.join(waiting, "Cy", None, "new token", CONTEXT)
    assert colour == "black"
    assert change.fields == {
        "status": Status.LIVE,
        "black_token": token_hash("new token"),
        "black_name": "Cy",
        "black_user": None,
    }
    conduct.apply(waiting, change)
    assert waiting.seats("new token") == BLACK
    with pytest.raises(ActionError) as caught:
        conduct.join(waiting, "Di", None, "another", CONTEXT)
    assert caught.value.status == 409


def test_joining_a_rated_game_needs_an_account_of_ones_own() -> None:
    rated = live_game(Mode.ONLINE, tokens={}, users={"white": 7}, rated=True)
    for user, status in ((None, 403), ((7, "ann"), 409)):
        with pytest.raises(ActionError) as caught:
            conduct.join(rated, None, user, "t", CONTEXT)
        assert caught.value.status == status
    colour, change = conduct.join(rated, "bo", (9, "bo"), "t", CONTEXT)
    assert colour == "black" and change.rate == (7, 9)
