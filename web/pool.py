"""Where bots think: a fixed number of threads, outside the server's event loop.

A bot's decision is handed to a Pool and awaited; the event loop goes on answering pages
meanwhile. Decisions wait their turn first come, first served, and each game asks for one
decision at a time, so with every worker busy a game waits for a free one and nothing else
does. The threads are daemons: a server told to stop never waits for a decision (a search
given an hour by the command line, say) to end.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any, TypeVar

T = TypeVar("T")

Job = tuple[Callable[..., Any], tuple[Any, ...], asyncio.AbstractEventLoop,
            "asyncio.Future[Any]"]


class Pool:
    """`workers` threads taking decisions from one queue, started at the first one."""

    def __init__(self, workers: int, name: str):
        self.workers = workers
        self.name = name
        self.jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self.threads: list[threading.Thread] = []
        self.busy = 0  # decisions being made now (read by tests and the load benchmark)
        self.closed = False
        self._guard = threading.Lock()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in one of the pool's threads; its result or its exception."""
        if self.closed:
            raise RuntimeError(f"the {self.name} pool is closed")
        self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self.jobs.put((fn, args, loop, future))
        return await future

    def _start(self) -> None:
        """Start the threads, once."""
        with self._guard:
            while len(self.threads) < self.workers:
                thread = threading.Thread(target=self._work, daemon=True,
                                          name=f"{self.name}-{len(self.threads) + 1}")
                thread.start()
                self.threads.append(thread)

    def _work(self) -> None:
        """One thread: make decisions until the pool closes."""
        while True:
            job = self.jobs.get()
            if job is None:
                return
            fn, args, loop, future = job
            if future.cancelled():  # its game was freed, or the server stops
                continue
            with self._guard:
                self.busy += 1
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # handed to the awaiting task, which says why
                result, error = None, exc
            finally:
                with self._guard:
                    self.busy -= 1
            with suppress(RuntimeError):  # the event loop has closed: nobody waits now
                loop.call_soon_threadsafe(_settle, future, result, error)

    def close(self) -> None:
        """Let the threads end once their current decision is made (none is waited for)."""
        self.closed = True
        for _ in self.threads:
            self.jobs.put(None)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """Give the awaiting task its result (in the event loop), unless it has gone."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
