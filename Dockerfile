# Two stages: build the wheel from the sources, then install it into a clean slim image together with
# the dependencies pinned (with hashes) in requirements.lock. The data files travel inside the wheel.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY render ./render
COPY data ./data
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/tabletop.sqlite3

COPY requirements.lock /tmp/requirements.lock
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-cache-dir --require-hashes -r /tmp/requirements.lock \
    && pip install --no-cache-dir --no-deps /tmp/wheels/*.whl \
    && rm -rf /tmp/wheels /tmp/requirements.lock \
    && useradd --create-home --uid 10001 tabletop \
    && mkdir -p /data && chown tabletop:tabletop /data

# PostgreSQL as the store (DATABASE_URL, issue 14): `docker build --build-arg WITH_PG=1 .` adds asyncpg and
# orjson, the faster JSON encoder of bot/core/jsontext.py (docker-compose.yml does), pinned with hashes in
# requirements-pg.lock like the rest (issue 23); without it the image stays SQLite-only.
ARG WITH_PG=0
COPY requirements-pg.lock /tmp/requirements-pg.lock
RUN if [ "$WITH_PG" = "1" ]; then pip install --no-cache-dir --require-hashes -r /tmp/requirements-pg.lock; fi \
    && rm -f /tmp/requirements-pg.lock

USER tabletop
# Run from the home directory: the bot is imported from site-packages, not from a source folder.
WORKDIR /home/tabletop
VOLUME ["/data"]
# `docker stop` sends SIGTERM and waits 10 s before SIGKILL. The bot closes within that: posts still
# pending after a few seconds are left unpublished in SQLite and re-published at the next start, so
# the default is enough; pass `--stop-timeout`/`stop_grace_period` only to give posts longer to finish.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
