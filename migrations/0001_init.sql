-- nachfolge: initial schema. One row per council (body) holds the aggregate; every command runs in one
-- transaction that locks that row.

CREATE TABLE IF NOT EXISTS bodies (
    id          TEXT PRIMARY KEY,
    land        TEXT NOT NULL,
    state       JSONB NOT NULL,
    audit_seq   BIGINT NOT NULL DEFAULT 0,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Succession cases, denormalised from the aggregate for listings (`nachfolge cases`) and metrics.
CREATE TABLE IF NOT EXISTS cases (
    id          TEXT PRIMARY KEY,
    body_id     TEXT NOT NULL REFERENCES bodies(id),
    state       TEXT NOT NULL,
    round       INT NOT NULL,
    successor   TEXT,
    deadline    TIMESTAMPTZ,
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS cases_body ON cases(body_id);

-- Inbound deduplication by CloudEvents id.
CREATE TABLE IF NOT EXISTS inbox (
    message_id  TEXT PRIMARY KEY,
    type        TEXT,
    body_id     TEXT,
    digest      TEXT NOT NULL,
    outcome     TEXT NOT NULL,          -- 'applied' | 'rejected'
    reason      TEXT,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The returning officer's record: every command and every effect, per body, gap-free.
CREATE TABLE IF NOT EXISTS audit_log (
    body_id     TEXT NOT NULL,
    seq         BIGINT NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    kind        TEXT NOT NULL,          -- 'command' | 'effect' | 'rejected'
    type        TEXT NOT NULL,
    message_id  TEXT,
    payload     JSONB NOT NULL,
    PRIMARY KEY (body_id, seq)
);

-- Transactional outbox of events, published in id order per body.
CREATE TABLE IF NOT EXISTS outbox (
    id              BIGSERIAL PRIMARY KEY,
    event_id        TEXT NOT NULL UNIQUE,
    body_id         TEXT,
    type            TEXT NOT NULL,
    event           JSONB NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    attempts        INT NOT NULL DEFAULT 0,
    last_error      TEXT,
    published_at    TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS outbox_pending ON outbox(id) WHERE published_at IS NULL;

-- Outbox of e-mails (rendered when written).
CREATE TABLE IF NOT EXISTS mail_outbox (
    message_id      TEXT PRIMARY KEY,
    body_id         TEXT NOT NULL,
    case_id         TEXT NOT NULL,
    round           INT NOT NULL,
    candidate       TEXT NOT NULL,
    recipient       TEXT,
    reply_to        TEXT NOT NULL,
    subject         TEXT NOT NULL,
    text_body       TEXT NOT NULL,
    html_body       TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    attempts        INT NOT NULL DEFAULT 0,
    last_error      TEXT,
    sent_at         TIMESTAMPTZ,
    failed_at       TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS mail_pending ON mail_outbox(next_attempt_at) WHERE sent_at IS NULL AND failed_at IS NULL;

-- Durable deadline timers.
CREATE TABLE IF NOT EXISTS timers (
    key          TEXT PRIMARY KEY,
    body_id      TEXT NOT NULL,
    case_id      TEXT NOT NULL,
    round        INT NOT NULL,
    due_at       TIMESTAMPTZ NOT NULL,
    leased_until TIMESTAMPTZ,
    fired_at     TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS timers_due ON timers(due_at) WHERE fired_at IS NULL;
