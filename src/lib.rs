//! `nachfolge` determines the list successor (Listennachfolger) of a German municipal council member
//! who leaves, as the Land's election law prescribes, and runs the procedure that follows.
//!
//! This crate is the thin shell around the legal core [`nachfolge_core`] (re-exported below under the
//! same module names): it stores, sends and schedules what the core returns, and knows no election law.
//!
//! * shell: [`config`], [`store`] (PostgreSQL), [`bus`] (RabbitMQ), [`mail`] (SMTP), [`templates`] (the
//!   German texts, rendered), [`worker`] (the loops), [`http`], [`console`] (the Wahlleiter's web pages), [`letter`] (its documents as PDF), [`metrics`], [`telemetry`] (logs, trace
//!   export), [`ops`] (operator commands), [`import`] (`nachfolge import`: published results in).
//! * core (re-exported): [`calendar`], [`trail`], [`model`], [`rules`], [`land`], [`deadline`],
//!   [`messages`], [`procedure`], [`offline`].

pub use nachfolge_core::{calendar, deadline, land, messages, model, offline, procedure, rules, trail};

pub mod bus;
pub mod config;
pub mod console;
pub mod http;
pub mod import;
pub mod letter;
pub mod mail;
pub mod metrics;
pub mod ops;
pub mod store;
pub mod telemetry;
pub mod templates;
pub mod worker;
