# MathReel web app: `docker build -t mathreel .` then `docker run -p 7860:7860 mathreel` (demo set built in).
# Your datasets: `docker run -p 7860:7860 -v /path/to/datasets:/data -e MATHREEL_DATA=/data mathreel`.
# tests/test_deploy.py replays this file's COPY and RUN pip lines in a fresh virtual environment: keep every
# install step a RUN pip line and every path the app needs in a COPY line.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GRADIO_ANALYTICS_ENABLED=False \
    HOME=/home/mathreel \
    MATHREEL_CACHE=/home/mathreel/.cache/mathreel \
    GRADIO_TEMP_DIR=/home/mathreel/.cache/gradio

RUN useradd --create-home --uid 1000 mathreel \
    && mkdir -p /app /data \
    && chown mathreel:mathreel /data

WORKDIR /app
COPY pyproject.toml README.md app.py ./
COPY mathreel ./mathreel
COPY core ./core
COPY cli ./cli
COPY webapp ./webapp
COPY assets ./assets
# Editable: mathreel.core finds the demo set at /app/assets/demo, beside its folder (core.data.assets_dir()).
RUN pip install -e .

USER mathreel
VOLUME ["/data"]
EXPOSE 7860
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:7860/', timeout=4)"]
CMD ["mathreel", "serve", "--host", "0.0.0.0", "--port", "7860"]
