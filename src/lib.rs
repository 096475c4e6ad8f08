//! `nachfolge` determines the list successor (Listennachfolger) of a German municipal council member
//! who leaves, as the Land's election law prescribes: NRW (§ 45 KWahlG) and Hessen (§ 34 KWG).
//!
//! Layout: a pure core (no I/O, no clock reads) and a thin shell.
//!
//! * core: [`model`] (the election snapshot, validated), [`rules`] (who succeeds, one module per Land),
//!   [`deadline`] (service and one-week periods, public holidays), [`case`] (the succession procedure as a
//!   state machine: command in, effects out), [`trail`], [`messages`] (the public message contract).
//! * shell: [`config`], [`store`] (PostgreSQL), [`bus`] (RabbitMQ), [`mail`] (SMTP), [`worker`],
//!   [`http`], [`metrics`], [`telemetry`].

pub mod bus;
pub mod case;
pub mod cli;
pub mod config;
pub mod deadline;
pub mod http;
pub mod mail;
pub mod messages;
pub mod metrics;
pub mod model;
pub mod ops;
pub mod otlp;
pub mod rules;
pub mod store;
pub mod store_tls;
pub mod telemetry;
pub mod templates;
pub mod trail;
pub mod worker;
