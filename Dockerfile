# Slim image, non-root user, the SQLite database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/tabletop.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY render ./render
COPY data ./data
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 tabletop \
    && mkdir -p /data && chown tabletop:tabletop /data

USER tabletop
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
