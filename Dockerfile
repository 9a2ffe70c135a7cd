FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite:////data/cookie_jar.db

RUN useradd --create-home --uid 10001 cookie && mkdir /data && chown cookie /data
# FriBiDi: Pillow's raqm loads it to shape Thai and Arabic names in pictures (games/core/fonts.py).
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app

COPY pyproject.toml README.md ./
COPY games ./games
COPY bot ./bot
COPY cogs ./cogs
COPY data ./data
# Editable: the code runs from /app, where games/ finds its card data in data/.
RUN pip install --no-cache-dir -e .

USER cookie
VOLUME ["/data"]
# SIGTERM (docker stop) drains the bot: give it the time that takes (docker stop -t 30).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
