"""A bot process that accepts a takeback request and is killed with SIGKILL (issue 27's crash test):
``python -m tests.takeback.crash_child DB GAME USER REQUEST WHEN`` with WHEN ``inside`` (killed inside
the takeback's transaction, before its commit) or ``after`` (killed right after the commit, before
anything else happens)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import Any

from bot.core.sessions import SessionManager
from bot.core.store import Store


async def main(path: str, game_id: int, user: int, request: str, when: str) -> None:
    store = await Store.open(path)
    sessions = SessionManager(store)
    await sessions.restore()
    if when == "inside":
        real = store.db.execute

        def dying(sql: str, params: Any = ()) -> Any:
            if sql.startswith("DELETE FROM takeback_points WHERE game_id = ? AND seq >="):
                os.kill(os.getpid(), signal.SIGKILL)  # the last statement before COMMIT
            return real(sql, params)

        store.db.execute = dying  # type: ignore[method-assign]
    else:
        commit = store.commit_takeback

        async def committed(*args: Any, **kwargs: Any) -> None:
            await commit(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)

        store.commit_takeback = committed  # type: ignore[method-assign]
    try:
        await sessions.answer_takeback(game_id, user, request, True)
    except BaseException as exc:  # a failure must end the process, not leave the database thread waiting
        print(f"not killed: {exc!r}", file=sys.stderr, flush=True)
    os._exit(3)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]))
