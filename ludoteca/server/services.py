"""The composition root: every service of a server process is built here, once, in the order
they depend on each other (like lila's ``Env``), and nowhere else.

:func:`build_services` builds the :class:`~.deps.Services` the routers are handed (through the
dependencies of :mod:`.deps`), with the processes and connections they stand on (the worker
pools, the Redis fan-out and job queue), and closes them all, in the reverse order, when its
context exits.  The background work of the running server (the cluster's adoption, the duties'
sweep, the reports' resumption, the explorer's refresh) is started and stopped by the app's
lifespan (:func:`.app.create_app`)."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager

from .cluster.adoption import Cluster
from .cluster.fanout import Fanout
from .community.bots import Bots
from .community.challenges import Challenges
from .community.chat import Chat
from .community.events import Events
from .community.level_ratings import LevelRatings
from .community.moderation import ChatRules, Moderation, read_words
from .community.people import Accounts
from .community.seeks import Seeks
from .computer.computer import Computer
from .computer.interrupt import Interrupts, shared_ticket
from .computer.memory import MIB
from .computer.pool import WorkerPool, close_pools
from .computer.queue import JobQueue
from .computer.workers import analysis_worker, die_with_parent, load_compiled, report_worker
from .deps import Guards, Services
from .notify.challenge_notes import ChallengeNote
from .notify.notifier import Notifier
from .play.bot_feeds import GameFeeds
from .play.correspondence import Correspondence
from .play.duties import Duties
from .play.hub import Hub
from .play.tasks import Tasks
from .settings import Settings
from .store import Store, default_url
from .study.analysis import loaded as analysis_loaded
from .study.explorer import Explorer
from .study.mistakes import Mistakes
from .study.reports import Reports
from .study.studies import Studies
from .study.training import Training
from .tournaments.service import Tournaments

__all__ = ["build_services", "store_only"]

log = logging.getLogger("ludoteca.server")

#: how long a stopping server lets each worker process finish its job under way before it is
#: killed: nobody is left to take a result (the hub has closed), and every file a job writes is
#: written whole or not at all (:mod:`ludoteca.files`), so the stop waits for no warm-up or report
STOP_GRACE = 3.0


async def _load_compiled(first: WorkerPool, rest: list[WorkerPool]) -> None:
    """Load the compiled search in ``first``'s process (the analysis process), then the module
    of the analysis board's jobs there (:func:`~.study.analysis.loaded`), then the search once in
    each of ``rest`` (a pool listed N times: N of its processes): on a fresh machine the first
    compiles it and the others load numba's cache, rather than each compiling it at the same
    time.  A failure is logged and the others are loaded all the same (each process compiles on
    its first job otherwise)."""
    try:
        await asyncio.wrap_future(first.submit(load_compiled))
        await asyncio.wrap_future(first.submit(analysis_loaded))
    except Exception:
        log.exception("loading the compiled search in the analysis process failed")
    for executor in rest:
        try:
            executor.submit(load_compiled)
        except RuntimeError:  # a broken or closed pool: its processes start with a job instead
            log.exception("loading the compiled search in a worker process failed")


async def _cancelled(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait until it has unwound."""
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


@asynccontextmanager
async def store_only(url: str | None) -> AsyncIterator[Store]:
    """The store alone (``url``, else the default SQLite file), opened and upgraded, closed
    when the context exits: for the operator's commands (``ludoteca tournaments``, ``users``)."""
    store = Store(url or default_url())
    await store.open()
    try:
        yield store
    finally:
        await store.close()


@asynccontextmanager
async def build_services(
    settings: Settings, *, clock: Callable[[], int] | None = None
) -> AsyncIterator[Services]:
    """The services of a server process run as ``settings`` say: games stored in
    ``settings.db``, the computer thinking in ``settings.workers`` processes (or, with
    ``settings.queue``, in ``ludoteca worker`` processes through Redis), one of several
    processes with ``settings.redis``; with ``settings.warm``, the compiled search loaded in
    the worker processes in the background; ``clock`` (tests only) stands in for the wall
    clock of the players' intents and the correspondence deadlines.  Everything built is
    closed when the context exits (the hub first, the store last)."""
    async with AsyncExitStack() as stack:
        guards = Guards(settings.games_per_minute, settings.origins)
        store = Store(settings.db or default_url(), settings.sqlite_sync)
        store.timings = guards.timings
        await store.open()
        stack.push_async_callback(store.close)

        ticket = shared_ticket()
        idle = settings.study_at_idle
        memory = settings.worker_memory * MIB or None
        analysis = WorkerPool(1, analysis_worker, (os.getpid(), ticket, idle), memory)
        reporting = WorkerPool(1, report_worker, (os.getpid(), idle), memory)
        pool = analysis
        if not settings.queue:
            pool = WorkerPool(settings.workers, die_with_parent, (os.getpid(),), memory)
        # stopped side by side (no process is started before a job is submitted)
        stack.callback(close_pools, {analysis, reporting, pool}, STOP_GRACE)
        if settings.warm:
            rest = [reporting] + ([] if settings.queue else [pool] * settings.workers)
            warming = asyncio.get_running_loop().create_task(_load_compiled(analysis, rest))
            stack.push_async_callback(_cancelled, warming)

        fanout = Fanout(settings.redis, guards.registry) if settings.redis else None
        if fanout is not None:
            stack.push_async_callback(fanout.close)
        jobs = None
        if settings.queue and settings.redis:
            jobs = JobQueue(settings.redis, guards.registry)
            stack.push_async_callback(jobs.close)
            await jobs.start()
        computer = Computer(
            pool,
            settings.workers,
            analysis,
            settings.report_limit,
            guards.registry,
            jobs,
            reports=reporting,
            interrupts=Interrupts(ticket),
        )

        tasks = Tasks()
        cluster = Cluster(fanout)
        duties = Duties()
        reports = Reports(store, computer, tasks.spawn)
        explorer = Explorer(store, computer, tasks)
        # notifications: told of every change the hub commits (see .notify), closed after it
        notifier = await Notifier.open(store, settings, cluster.presence)
        stack.push_async_callback(notifier.close)
        hub = Hub(
            store,
            computer,
            cluster,
            duties,
            reports,
            explorer,
            tasks,
            guards.registry,
            guards.timings,
        )
        stack.push_async_callback(hub.close)
        hub.committed = notifier.game_changed
        # moderation: the rules every chat line passes (the words the operator forbids, a rate)
        words = read_words(settings.chat_words) if settings.chat_words else ()
        chat_rules = ChatRules(store, words, settings.chat_lines_per_minute)
        # --- challenges and bots (see community.challenges, community.events) ---
        events = Events()
        challenges = Challenges(
            store,
            hub.open,
            hub.now,
            events,
            lambda user, view: notifier.tell(ChallengeNote(user, view)),
        )
        seeks = Seeks(store, hub.open)
        bots = Bots(
            store,
            challenges,
            seeks,
            settings.bot_games,
            settings.bot_requests_per_minute,
            settings.bot_streams,
            settings.seek_wait,
        )
        # --- end of challenges and bots ---
        yield Services(
            guards=guards,
            store=store,
            computer=computer,
            cluster=cluster,
            duties=duties,
            reports=reports,
            explorer=explorer,
            hub=hub,
            chat=Chat(store, hub.games, cluster, chat_rules),
            accounts=Accounts(store, settings.password_cost),
            seeks=seeks,
            level_ratings=LevelRatings(store),
            training=Training(store, computer.advisers),
            mistakes=Mistakes(store, reports, computer),
            moderation=Moderation(store, hub, chat_rules),
            # days per move: deadlines, your-turn lists, planned moves
            correspondence=Correspondence(hub, clock),
            notifier=notifier,
            # --- tournaments: their rounds paired as their games end (a hub listener)
            tournaments=Tournaments(hub),
            events=events,
            challenges=challenges,
            bots=bots,
            game_feeds=GameFeeds(hub, events),
            studies=Studies(store),
        )
