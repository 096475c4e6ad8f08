//! The legal core of `nachfolge`: who succeeds a member who leaves a German municipal council, and the
//! procedure that follows, as pure functions and a pure state machine — no I/O, no clock, no async runtime
//! (as quinn-proto is to quinn). The service crate (`nachfolge`) stores, sends and schedules what this
//! crate returns.
//!
//! Read it bottom-up; no module imports one listed after it:
//!
//! * [`calendar`] — days in Europe/Berlin, Easter, §§ 187, 188 BGB arithmetic, German dates.
//! * [`model`] — the election snapshot (wire form), its shared validation, the indexed [`model::Body`].
//! * [`trail`] — a decision's steps, each with its citation.
//! * [`rules`] — who succeeds, one rule set per Land (`rules/nw.rs`, `rules/he.rs`), and the Nachrückerliste.
//! * [`land`] — the Länder: [`land::LandLaw`], implemented once per Land (`land/nw.rs`, `land/he.rs`), and
//!   the one registration point [`land::Land::law`].
//! * [`deadline`] — service (Zustellung), one-week periods, objection periods.
//! * [`messages`] — the public message contract (serde + JSON Schema) and the CloudEvents envelope.
//! * [`texts`] — the words: German subjects, titles, remedies and the template context of every e-mail and
//!   announcement, from what the procedure says happened.
//! * [`procedure`] — the succession procedure: `(council, command, now) → (council', effects)`, split by
//!   phase.
//! * [`offline`] — `decide`, `succession-order` and `schema` without services.
//!
//! `.ci/core-layers` checks the `use crate::…` imports against this order in CI.

pub mod calendar;
pub mod deadline;
pub mod land;
pub mod messages;
pub mod model;
pub mod offline;
pub mod procedure;
pub mod rules;
pub mod texts;
pub mod trail;
