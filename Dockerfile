FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TRUCO_ENV=production \
    PORT=8000

WORKDIR /srv
# the runtime set only: the test and CI tools (requirements-dev.txt) stay out of the image
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
RUN useradd --system --no-create-home truco
USER truco

EXPOSE 8000
CMD ["sh", "-c", "flask --app wsgi db upgrade && exec gunicorn -c gunicorn.conf.py wsgi:app"]
