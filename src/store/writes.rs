//! The one statement of data-modifying CTEs that writes a batch: bodies, cases, mails, outbox, audit log,
//! inbox; timers; and the single-row inserts of the refusal path.

use super::*;

/// The data-modifying CTEs both batch statements share (`Writes::flush`, `Writes::flush_unlocked`): cases
/// (`$6`–`$11`), mails (`$12`–`$23`), outbox (`$24`–`$27`, in publishing order) and audit log (`$28`–`$34`),
/// all stamped with `$1`; bound by `Writes::into_query`.
macro_rules! row_ctes {
    () => {
        "c AS (INSERT INTO cases (id, body_id, state, round, successor, deadline, updated_at)
                   SELECT *, $1 FROM UNNEST($6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::timestamptz[])
                   ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, round = EXCLUDED.round,
                     successor = EXCLUDED.successor, deadline = EXCLUDED.deadline, updated_at = EXCLUDED.updated_at),
             m AS (INSERT INTO mail_outbox (message_id, body_id, case_id, round, candidate, recipient, reply_to, subject,
                     text_body, html_body, calendar, kind, created_at, next_attempt_at)
                   SELECT *, $1, $1 FROM UNNEST($12::text[], $13::text[], $14::text[], $15::int[], $16::text[],
                     $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[])
                   ON CONFLICT (message_id) DO NOTHING),
             o AS (INSERT INTO outbox (event_id, body_id, type, event, created_at, next_attempt_at)
                   SELECT e, bo, ty, ev::json, $1, $1 FROM UNNEST($24::text[], $25::text[], $26::text[], $27::text[])
                     WITH ORDINALITY AS t(e, bo, ty, ev, n)
                   ORDER BY n
                   ON CONFLICT (event_id) DO NOTHING),
             a AS (INSERT INTO audit_log (body_id, seq, at, kind, type, message_id, payload)
                   SELECT b, s, a, k, ty, m, p::json FROM UNNEST($28::text[], $29::bigint[], $30::timestamptz[],
                     $31::text[], $32::text[], $33::text[], $34::text[]) AS t(b, s, a, k, ty, m, p))"
    };
}

/// The inbox rows of the applied messages (`$35`–`$38`), a message seen before left as it is.
macro_rules! inbox_insert {
    () => {
        "INSERT INTO inbox (message_id, type, body_id, digest, outcome)
             SELECT *, 'applied' FROM UNNEST($35::text[], $36::text[], $37::text[], $38::text[])
             ON CONFLICT (body_id, message_id) DO NOTHING"
    };
}

/// The timers' upsert from six arrays (key, body, case, kind, round, due time; the placeholders given, as
/// `Writes::write_timers` and `Writes::flush_unlocked` number them differently), bound by [`bind_timers`]:
/// a key scheduled again gets the new due time and loses its lease and its fired mark.
macro_rules! timers_upsert {
    ($k:literal, $b:literal, $c:literal, $kind:literal, $r:literal, $d:literal) => {
        concat!(
            "INSERT INTO timers (key, body_id, case_id, kind, round, due_at)
                   SELECT * FROM UNNEST(",
            $k,
            "::text[], ",
            $b,
            "::text[], ",
            $c,
            "::text[], ",
            $kind,
            "::text[], ",
            $r,
            "::int[], ",
            $d,
            "::timestamptz[])
                   ON CONFLICT (key) DO UPDATE SET due_at = EXCLUDED.due_at, leased_until = NULL, fired_at = NULL"
        )
    };
}

/// Audit rows, column by column (one statement writes them all).
#[derive(Default)]
pub(super) struct AuditCols {
    body: Vec<String>,
    seq: Vec<i64>,
    at: Vec<DateTime<Utc>>,
    kind: Vec<String>,
    ty: Vec<String>,
    id: Vec<Option<String>>,
    /// JSON text
    payload: Vec<String>,
}

/// One audit entry: kind (`command`, `effect`, `rejected`), type, message or event id, payload.
pub(super) struct Entry<'a> {
    pub(super) kind: &'a str,
    pub(super) ty: &'a str,
    pub(super) id: Option<&'a str>,
    pub(super) payload: String,
}

/// A statement with its arguments.
type PgQuery<'q> = sqlx::query::Query<'q, Postgres, sqlx::postgres::PgArguments>;

impl AuditCols {
    /// Bind the columns as the next seven arrays (body, seq, at, kind, type, id, payload).
    pub(super) fn bind(self, q: PgQuery<'_>) -> PgQuery<'_> {
        q.bind(self.body).bind(self.seq).bind(self.at).bind(self.kind).bind(self.ty).bind(self.id).bind(self.payload)
    }

    /// Append an entry to a body's log, taking the next number of its gap-free sequence.
    pub(super) fn push(&mut self, body: &str, seq: &mut i64, at: DateTime<Utc>, e: Entry<'_>) {
        *seq += 1;
        self.body.push(body.to_owned());
        self.seq.push(*seq);
        self.at.push(at);
        self.kind.push(e.kind.to_owned());
        self.ty.push(e.ty.to_owned());
        self.id.push(e.id.map(str::to_owned));
        self.payload.push(e.payload);
    }
}

/// Rendered e-mails, column by column.
#[derive(Default)]
pub(super) struct MailCols {
    message_id: Vec<String>,
    body_id: Vec<String>,
    case_id: Vec<String>,
    round: Vec<i32>,
    candidate: Vec<String>,
    recipient: Vec<Option<String>>,
    reply_to: Vec<String>,
    subject: Vec<String>,
    text_body: Vec<String>,
    html_body: Vec<String>,
    calendar: Vec<Option<String>>,
    kind: Vec<&'static str>,
}

/// Outbox events (JSON text), column by column, in publishing order.
#[derive(Default)]
pub(super) struct OutboxCols {
    event_id: Vec<String>,
    body_id: Vec<Option<String>>,
    ty: Vec<String>,
    event: Vec<String>,
}

/// Changed bodies and `cases` rows, column by column.
#[derive(Default)]
pub(super) struct BodyCols {
    id: Vec<String>,
    land: Vec<String>,
    state: Vec<String>,
    seq: Vec<i64>,
    /// The new `state_version` of each body (migration 0013), bound as `$39`.
    version: Vec<String>,
    case_id: Vec<String>,
    case_body: Vec<String>,
    case_state: Vec<String>,
    case_round: Vec<i32>,
    case_successor: Vec<Option<String>>,
    case_deadline: Vec<Option<DateTime<Utc>>>,
}

/// Inbox rows of the applied messages, column by column.
#[derive(Default)]
pub(super) struct InboxCols {
    id: Vec<String>,
    ty: Vec<String>,
    body: Vec<String>,
    digest: Vec<String>,
}

/// The mail results an optimistic write records: mails sent, and mails failed for good with their reasons.
#[derive(Default)]
pub(super) struct MailResults {
    pub(super) sent: Vec<String>,
    pub(super) failed: Vec<String>,
    pub(super) reasons: Vec<String>,
}

/// A scheduled timer waiting to be written.
pub(super) struct TimerRow {
    key: String,
    body: String,
    case: String,
    /// [`case::Timer::kind`]
    kind: &'static str,
    /// [`case::Timer::number`]: the round of a deadline, the announcement of an objection period
    round: i32,
    due_at: DateTime<Utc>,
}

/// The rows a batch writes, buffered and written with one statement at the end. Timers are buffered too;
/// a cancel writes the buffered ones first and deletes at once (it reports whether it found the timer).
pub(super) struct Writes {
    now: DateTime<Utc>,
    pub(super) audit: AuditCols,
    pub(super) outbox: OutboxCols,
    pub(super) mails: MailCols,
    pub(super) bodies: BodyCols,
    pub(super) inbox: InboxCols,
    timers: Vec<TimerRow>,
}

impl Writes {
    /// How many inbound messages the batch marks as seen (the inbox insert's expected row count).
    pub(super) fn inbound(&self) -> usize {
        self.inbox.id.len()
    }

    pub(super) fn new(now: DateTime<Utc>) -> Writes {
        Writes {
            now,
            audit: AuditCols::default(),
            outbox: OutboxCols::default(),
            mails: MailCols::default(),
            bodies: BodyCols::default(),
            inbox: InboxCols::default(),
            timers: Vec::new(),
        }
    }

    pub(super) fn outbox(&mut self, row: OutboxRow) {
        self.outbox.event_id.push(row.id);
        self.outbox.body_id.push(row.body_id);
        self.outbox.ty.push(row.ty);
        self.outbox.event.push(row.event);
    }

    /// The inbox row of an applied message.
    pub(super) fn applied(&mut self, cause: &Cause, body: &str, digest: String) {
        self.inbox.id.push(cause.key.clone());
        self.inbox.ty.push(cause.ty.clone());
        self.inbox.body.push(body.to_owned());
        self.inbox.digest.push(digest);
    }

    /// One command and its effects: the audit rows, outbox rows, mails and timers. `fired` is the timer
    /// this command fires, if any. `tx` is the locking path's transaction; the optimistic write has none
    /// and never passes a cancel (it checks the effects first: a cancel needs the row lock).
    pub(super) async fn command(
        &mut self,
        mut tx: Option<&mut Transaction<'_, Postgres>>,
        (body, seq): (&Council, &mut i64),
        cause: &Cause,
        effects: Vec<Effect>,
        templates: &Templates,
        fired: Option<&str>,
    ) -> Result<(), StoreError> {
        let (body_id, now) = (body.id(), self.now);
        let entry = Entry { kind: "command", ty: &cause.ty, id: Some(&cause.key), payload: audit_payload(cause) };
        self.audit.push(body_id, seq, now, entry);
        for (i, effect) in effects.into_iter().enumerate() {
            let id = event_id(body_id, &cause.key, i);
            match effect {
                Effect::Publish { event_type, data } => {
                    let data = data.to_string();
                    self.outbox(outbox_row(&id, Some(body_id), event_type, &data, now, cause)?);
                    let entry = Entry { kind: "effect", ty: event_type, id: Some(&id), payload: data };
                    self.audit.push(body_id, seq, now, entry);
                }
                Effect::Announce(a) => {
                    let text = templates.announcement(&a.template, &a.context)?;
                    let data = AnnouncementIssued {
                        body: body_id.into(),
                        case: a.case.into(),
                        kind: a.kind,
                        title: a.title,
                        text,
                        legal_basis: a.legal_basis,
                        objection_period: a.objection_period,
                        issued_at: crate::calendar::berlin(a.issued_at),
                        facts: a.context,
                    };
                    let ty = <AnnouncementIssued as crate::messages::Event>::TYPE;
                    let data = encode(ty, &data)?.to_string();
                    self.outbox(outbox_row(&id, Some(body_id), ty, &data, now, cause)?);
                    self.audit.push(body_id, seq, now, Entry { kind: "effect", ty, id: Some(&id), payload: data });
                }
                Effect::Mail(m) => {
                    let rendered = templates.mail(&m.template, &m.context)?;
                    let message_id = mail_message_id(&m.case, m.round, m.kind, m.variant.as_deref());
                    let audit = json!({"case": m.case, "round": m.round, "kind": m.kind, "candidate": m.candidate, "message_id": message_id, "template": m.template});
                    let entry =
                        Entry { kind: "effect", ty: "mail.queued", id: Some(&message_id), payload: audit.to_string() };
                    self.audit.push(body_id, seq, now, entry);
                    let c = &mut self.mails;
                    c.message_id.push(message_id);
                    c.body_id.push(body_id.to_owned());
                    c.case_id.push(m.case);
                    c.round.push(m.round as i32);
                    c.candidate.push(m.candidate);
                    c.recipient.push(m.to);
                    c.reply_to.push(m.reply_to);
                    c.subject.push(m.subject);
                    c.text_body.push(rendered.text);
                    c.html_body.push(rendered.html);
                    c.calendar.push(m.calendar);
                    c.kind.push(m.kind.as_str());
                }
                Effect::Schedule { timer, due_at } => {
                    let key = timer.key();
                    let audit = json!({"key": key, "due_at": due_at, "case": timer.case(), "kind": timer.kind(), "round": timer.number()});
                    let entry = Entry { kind: "effect", ty: "timer.scheduled", id: None, payload: audit.to_string() };
                    self.audit.push(body_id, seq, now, entry);
                    let (case, kind, round) = (timer.case().to_owned(), timer.kind(), timer.number() as i32);
                    self.timers.push(TimerRow { key, body: body_id.to_owned(), case, kind, round, due_at });
                }
                Effect::Cancel { timer } => {
                    let key = timer.key();
                    let pending = self.timers.iter().any(|t| t.key == key);
                    if fired == Some(key.as_str()) && !pending {
                        // the timer firing now: marked fired in this transaction, nothing to cancel
                        continue;
                    }
                    let Some(tx) = tx.as_deref_mut() else {
                        return Err(StoreError::Internal("a timer cancel outside the locking path"));
                    };
                    if pending {
                        self.write_timers(tx).await?;
                    }
                    let n = sqlx::query("DELETE FROM timers WHERE key = $1 AND fired_at IS NULL")
                        .bind(&key)
                        .execute(&mut **tx)
                        .await?;
                    if n.rows_affected() > 0 {
                        let payload = json!({"key": key}).to_string();
                        self.audit.push(
                            body_id,
                            seq,
                            now,
                            Entry { kind: "effect", ty: "timer.cancelled", id: None, payload },
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// Write the timers scheduled so far with one statement (the last schedule of a key wins).
    pub(super) async fn write_timers(&mut self, tx: &mut Transaction<'_, Postgres>) -> Result<(), StoreError> {
        if self.timers.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.timers);
        let rows = last_schedules(&rows);
        bind_timers(sqlx::query(timers_upsert!("$1", "$2", "$3", "$4", "$5", "$6")), &rows).execute(&mut **tx).await?;
        Ok(())
    }

    /// The changed body: its state, audit sequence, a new state version and changed `cases` rows. Returns
    /// the length of the state written (the aggregate cache's measure) and the new state version (a random
    /// UUID, which no earlier or restored copy of the row can hold: docs/reliability.md, "Failover and
    /// restore"). `memo` holds the cases as last written with their JSON; a case equal to its memo is
    /// copied, not serialised again, and the memo is brought up to date.
    pub(super) fn body(
        &mut self,
        body: &Council,
        before: &HashMap<CaseId, CaseRow>,
        seq: i64,
        memo: &mut super::cache::CaseMemo,
    ) -> Result<(usize, String), StoreError> {
        let state = encode_council(body, memo)?;
        let size = state.len();
        let land = match serde_json::to_value(body.body.land()) {
            Ok(Value::String(code)) => code,
            other => return Err(StoreError::Corrupt(body.id().to_owned(), format!("land code: {other:?}"))),
        };
        let c = &mut self.bodies;
        c.id.push(body.id().to_owned());
        c.land.push(land);
        c.state.push(state);
        c.seq.push(seq);
        let version = uuid::Uuid::new_v4().to_string();
        c.version.push(version.clone());
        for (id, row) in case_rows(body) {
            if before.get(&id) == Some(&row) {
                continue;
            }
            c.case_id.push(id.into());
            c.case_body.push(body.id().to_owned());
            c.case_state.push(row.state.to_owned());
            c.case_round.push(row.round);
            c.case_successor.push(row.successor);
            c.case_deadline.push(row.deadline);
        }
        Ok((size, version))
    }

    /// Write everything buffered, and the inbox rows of the applied messages, with one statement
    /// (data-modifying CTEs, one per table), whatever the number of commands. Returns how many inbox
    /// rows were written: fewer than buffered means an id was taken meanwhile.
    pub(super) async fn flush(mut self, tx: &mut Transaction<'_, Postgres>) -> Result<usize, StoreError> {
        if self.audit.seq.is_empty() {
            return Ok(0);
        }
        self.write_timers(tx).await?;
        let query = self.into_query(concat!(
            "WITH
             b AS (INSERT INTO bodies (id, land, state, audit_seq, state_version, updated_at)
                   SELECT i, l, s::json, a, v::uuid, $1
                   FROM UNNEST($2::text[], $3::text[], $4::text[], $5::bigint[], $39::text[]) AS t(i, l, s, a, v)
                   ON CONFLICT (id) DO UPDATE SET land = EXCLUDED.land, state = EXCLUDED.state,
                     audit_seq = EXCLUDED.audit_seq, state_version = EXCLUDED.state_version,
                     updated_at = EXCLUDED.updated_at),
             ",
            row_ctes!(),
            "
             ",
            inbox_insert!()
        ));
        let inserted = query.execute(&mut **tx).await?.rows_affected();
        Ok(inserted as usize)
    }

    /// The statement `sql` with the buffered rows bound as `$1` (now), `$2`–`$5` (bodies), `$6`–`$11`
    /// (cases), `$12`–`$23` (mails), `$24`–`$27` (outbox), `$28`–`$34` (audit), `$35`–`$38` (inbox),
    /// as `row_ctes!` and `inbox_insert!` number them, and `$39` (the bodies' new state versions). The timers are not bound: each statement writes
    /// them its own way.
    fn into_query<'q>(self, sql: &'q str) -> PgQuery<'q> {
        let (b, m, o, a, i) = (self.bodies, self.mails, self.outbox, self.audit, self.inbox);
        let query = sqlx::query(sql)
            .bind(self.now)
            .bind(b.id)
            .bind(b.land)
            .bind(b.state)
            .bind(b.seq)
            .bind(b.case_id)
            .bind(b.case_body)
            .bind(b.case_state)
            .bind(b.case_round)
            .bind(b.case_successor)
            .bind(b.case_deadline)
            .bind(m.message_id)
            .bind(m.body_id)
            .bind(m.case_id)
            .bind(m.round)
            .bind(m.candidate)
            .bind(m.recipient)
            .bind(m.reply_to)
            .bind(m.subject)
            .bind(m.text_body)
            .bind(m.html_body)
            .bind(m.calendar)
            .bind(m.kind)
            .bind(o.event_id)
            .bind(o.body_id)
            .bind(o.ty)
            .bind(o.event);
        a.bind(query).bind(i.id).bind(i.ty).bind(i.body).bind(i.digest).bind(b.version)
    }

    /// The optimistic write (docs/architecture.md, "Optimistic write"): everything buffered with one
    /// statement and no transaction around it, on condition that each body row still has the sequence
    /// and state version the batch read it at (`expected`, `expected_versions`, in the order the bodies
    /// were buffered; the sequence alone repeats after a failover or restore), every inbound message is
    /// new, and each mail result of `results` is the first of its mail. The rows are locked in id order
    /// first, as on the locking path. `Ok(false)`: a condition failed, the statement was aborted
    /// (`nachfolge_write_conflict()`, migration 0008) and nothing was written.
    pub(super) async fn flush_unlocked(
        mut self,
        pool: &PgPool,
        expected: Vec<i64>,
        expected_versions: Vec<String>,
        results: MailResults,
    ) -> Result<bool, StoreError> {
        let timers = std::mem::take(&mut self.timers);
        let timers = last_schedules(&timers);
        let query = self.into_query(concat!(
            "WITH
             locked AS (SELECT id FROM bodies WHERE id = ANY($2) ORDER BY id FOR UPDATE),
             b AS (UPDATE bodies SET land = t.l, state = t.s::json, audit_seq = t.a, state_version = t.v::uuid,
                     updated_at = $1
                   FROM UNNEST($2::text[], $3::text[], $4::text[], $5::bigint[], $39::text[], $40::bigint[],
                     $41::text[]) AS t(i, l, s, a, v, e, ev)
                   JOIN locked ON locked.id = t.i
                   WHERE bodies.id = t.i AND bodies.audit_seq = t.e AND bodies.state_version = t.ev::uuid
                   RETURNING 1),
             ",
            row_ctes!(),
            ",
             i AS (",
            inbox_insert!(),
            " RETURNING 1),
             tm AS (",
            timers_upsert!("$42", "$43", "$44", "$45", "$46", "$47"),
            "),
             sent AS (UPDATE mail_outbox SET sent_at = $1 WHERE message_id = ANY($48) AND sent_at IS NULL RETURNING 1),
             failed AS (UPDATE mail_outbox SET failed_at = $1, last_error = f.r
                   FROM UNNEST($49::text[], $50::text[]) AS f(id, r)
                   WHERE message_id = f.id AND failed_at IS NULL RETURNING 1)
             SELECT nachfolge_write_conflict()
             WHERE (SELECT count(*) FROM b) <> cardinality($2::text[])
                OR (SELECT count(*) FROM i) <> cardinality($35::text[])
                OR (SELECT count(*) FROM sent) <> cardinality($48::text[])
                OR (SELECT count(*) FROM failed) <> cardinality($49::text[])"
        ));
        let query = bind_timers(query.bind(expected).bind(expected_versions), &timers)
            .bind(results.sent)
            .bind(results.failed)
            .bind(results.reasons);
        match query.execute(pool).await {
            Ok(_) => Ok(true),
            Err(e) if lost_race(&e) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }
}

/// The timers of a batch as written: the last schedule of each key.
fn last_schedules(rows: &[TimerRow]) -> Vec<&TimerRow> {
    let last: HashMap<&str, usize> = rows.iter().enumerate().map(|(i, t)| (t.key.as_str(), i)).collect();
    rows.iter().enumerate().filter(|(i, t)| last.get(t.key.as_str()) == Some(i)).map(|(_, t)| t).collect()
}

/// Bind the six arrays of `timers_upsert!`, in its order.
fn bind_timers<'q>(q: PgQuery<'q>, rows: &[&'q TimerRow]) -> PgQuery<'q> {
    q.bind(rows.iter().map(|t| t.key.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.body.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.case.as_str()).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.kind).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.round).collect::<Vec<_>>())
        .bind(rows.iter().map(|t| t.due_at).collect::<Vec<_>>())
}

/// Whether a failed optimistic write lost a race rather than failed: its own conflict signal (SQLSTATE
/// `NF409`, migration 0008), an audit sequence another writer took meanwhile (`23505`), or a deadlock
/// (`40P01`). The batch then takes the locking path.
fn lost_race(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.code().is_some_and(|c| c == "NF409" || c == "23505" || c == "40P01"))
}

/// Write audit rows with one statement.
pub(super) async fn insert_audit(tx: &mut Transaction<'_, Postgres>, a: AuditCols) -> Result<(), StoreError> {
    if a.seq.is_empty() {
        return Ok(());
    }
    a.bind(sqlx::query(
        "INSERT INTO audit_log (body_id, seq, at, kind, type, message_id, payload)
         SELECT b, s, a, k, ty, m, p::json
         FROM UNNEST($1::text[], $2::bigint[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(b, s, a, k, ty, m, p)",
    ))
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Write one event into the outbox (`message.rejected`; batches write theirs with [`Writes::flush`]).
pub(super) async fn insert_event(
    tx: &mut Transaction<'_, Postgres>,
    row: OutboxRow,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO outbox (event_id, body_id, type, event, created_at, next_attempt_at)
         VALUES ($1, $2, $3, $4::json, $5, $5)
         ON CONFLICT (event_id) DO NOTHING",
    )
    .bind(row.id)
    .bind(row.body_id)
    .bind(row.ty)
    .bind(row.event)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
