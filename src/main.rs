//! `nachfolge` command line: a thin shell over the library.

use std::path::PathBuf;
use std::process::ExitCode;

use chrono::{DateTime, FixedOffset};
use clap::{Parser, Subcommand};

/// `--help`: every Land served (`Land::ALL`), with its code (`body.land`) and its succession norm; tests/cli.rs
/// checks that none is missing.
const LONG_ABOUT: &str = "Listennachfolge for German municipal councils and Kreistage: determines the list \
successor when a member leaves and runs the procedure that follows (notification, deadlines, membership, \
announcement).

Länder served (body.land):
  Nordrhein-Westfalen (NW)      § 45 KWahlG NRW
  Hessen (HE)                   § 34 KWG
  Rheinland-Pfalz (RP)          § 45 KWG
  Niedersachsen (NI)            § 44 NKWG
  Sachsen-Anhalt (ST)           § 47 KWG LSA
  Thüringen (TH)                § 23 ThürKWG
  Schleswig-Holstein (SH)       § 44 GKWG
  Bayern (BY)                   Art. 37, 38 GLKrWG; Bezirkstage: Art. 4 BezWG, Art. 46 LWG (confirmed)
  Baden-Württemberg (BW)        § 31 Abs. 2 GemO, § 26 KomWG
  Sachsen (SN)                  § 34 Abs. 2 SächsGemO, § 21 KomWG
  Mecklenburg-Vorpommern (MV)   § 46 LKWG M-V
  Brandenburg (BB)              § 60 BbgKWahlG
  Saarland (SL)                 § 57 KWO (§ 44 KWG not verified: the Wahlleitung confirms)

Bezirkstage (body.kind bezirkstag): the Bezirkstag Pfalz (RP) and Bayern's Bezirkstage.
Saarland's Kreistage and the Regionalversammlung Saarbrücken (body.kind regionalversammlung): on the
Gemeinderat's rules, the Wahlleitung confirming (docs/legal.md, Saarland).";

#[derive(Parser)]
#[command(
    name = "nachfolge",
    version,
    about = "Listennachfolge for German municipal councils and Kreistage in thirteen Länder: Nordrhein-Westfalen, \
             Hessen, Rheinland-Pfalz, Niedersachsen, Sachsen-Anhalt, Thüringen, Schleswig-Holstein, Bayern, \
             Baden-Württemberg, Sachsen, Mecklenburg-Vorpommern, Brandenburg, Saarland",
    long_about = LONG_ABOUT
)]
struct Cli {
    /// Configuration file (default: config/default.toml if present; env NACHFOLGE__… overrides)
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the worker: consume commands, determine successors, send mail, fire deadlines, publish events.
    Run,
    /// Determine the successor offline from an election snapshot and a vacancy (no services needed).
    Decide {
        /// Election snapshot (JSON); `-` for stdin
        #[arg(long)]
        election: String,
        /// `vacancy.reported` data (JSON); `-` for stdin
        #[arg(long)]
        vacancy: String,
        /// Reference time (RFC 3339); default: the vacancy's effective_at
        #[arg(long)]
        at: Option<DateTime<FixedOffset>>,
    },
    /// Print, for every list, the order in which candidates would succeed now, and why others are passed over.
    SuccessionOrder {
        /// Election snapshot (JSON); `-` for stdin
        #[arg(long)]
        election: String,
        /// Reference time (RFC 3339); default: now
        #[arg(long)]
        at: Option<DateTime<FixedOffset>>,
    },
    /// Import one council election's published result files (votemanager, Offene Wahldaten) from DIR: prints
    /// the election snapshot (JSON) on stdout and the report on stderr (docs/import.md).
    Import(Box<ImportArgs>),
    /// Print the JSON Schemas of the snapshot and of every message.
    Schema,
    /// Create the database if needed and apply the migrations.
    Migrate,
    /// Print the current snapshot of a body, with its cases.
    Export {
        #[arg(long)]
        body: String,
    },
    /// Publish a message to the commands exchange (smoke tests); prints its id.
    Publish {
        /// A full CloudEvent (has `specversion`) or bare `data` (then --type is required); `-` for stdin
        file: String,
        /// Event type (required for bare data; overrides the type of a full CloudEvent)
        #[arg(long = "type")]
        ty: Option<String>,
        /// Event id (default for bare data: a new UUID v4; overrides the id of a full CloudEvent)
        #[arg(long)]
        id: Option<String>,
    },
    /// Inspect and replay dead-lettered messages (ids, types and reasons only).
    #[command(name = "dead-letters", subcommand)]
    DeadLetters(DeadLettersCmd),
    /// Local accounts of the Wahlleiter console (passwords from standard input or a file, never argv).
    #[command(subcommand)]
    User(UserCmd),
    /// List succession cases: id, body, state, round, successor id, deadline (ids only, no names).
    Cases {
        /// Only open cases (offered, awaiting a lot)
        #[arg(long)]
        open: bool,
        /// Only the cases of this body
        #[arg(long)]
        body: Option<String>,
        /// One JSON object per line instead of a table
        #[arg(long)]
        json: bool,
    },
}

/// `nachfolge import`: the folder, the format, and the body's facts that no published file holds.
#[derive(clap::Args)]
struct ImportArgs {
    /// The folder with the election's files (only its regular files are read)
    dir: PathBuf,
    /// votemanager or owd (default: detected from the files' names and headers)
    #[arg(long, value_parser = parse_format)]
    format: Option<nachfolge_import::Format>,
    /// The Land: NW, HE, RP, NI, ST, TH, SH, BY, BW, SN, MV, BB
    #[arg(long, value_parser = parse_land)]
    land: nachfolge::model::Land,
    /// The body's id (`body.id`)
    #[arg(long)]
    body: String,
    /// The body's name („Rat der Stadt …“)
    #[arg(long)]
    name: String,
    /// council (default) or kreistag
    #[arg(long, value_parser = parse_kind, default_value = "council")]
    kind: nachfolge::model::BodyKind,
    /// Gesetzliche Mitgliederzahl (default: the seats the result JSON allocated, where there is one)
    #[arg(long)]
    statutory_size: Option<u32>,
    /// First day of the term (YYYY-MM-DD)
    #[arg(long)]
    term_start: chrono::NaiveDate,
    /// Last day of the term (YYYY-MM-DD)
    #[arg(long)]
    term_end: chrono::NaiveDate,
    #[arg(long)]
    returning_officer_name: String,
    #[arg(long)]
    returning_officer_email: String,
    /// Postal address with the place („Rathausplatz 1, 12345 Musterstadt“)
    #[arg(long)]
    returning_officer_address: Option<String>,
    /// The officer's own title under a signature („Wahlleiterin“)
    #[arg(long)]
    returning_officer_title: Option<String>,
    /// The Verwaltungsgericht a Rechtsbehelfsbelehrung names („Verwaltungsgericht Oldenburg“); with
    /// --remedy-court-address required for registration wherever the texts teach a remedy (§ 58 Abs. 1 VwGO)
    #[arg(long)]
    remedy_court_name: Option<String>,
    /// The court's postal address with its seat („Schloßplatz 10, 26122 Oldenburg“)
    #[arg(long)]
    remedy_court_address: Option<String>,
    /// Thüringen: the Rechtsaufsichtsbehörde a Wahlanfechtung is lodged with (§ 31 Abs. 1 ThürKWG)
    #[arg(long)]
    supervisory_authority_name: Option<String>,
    /// Its postal address with its seat
    #[arg(long)]
    supervisory_authority_address: Option<String>,
    /// Contacts CSV merged in: addresses, e-mail, form of address, missing names, seats (docs/import.md)
    #[arg(long)]
    contacts: Option<PathBuf>,
    /// Import an interim count (fewer Schnellmeldungen than expected), with a point to confirm
    #[arg(long)]
    allow_incomplete: bool,
    /// Publish the snapshot as `election.registered` to the commands exchange (as `nachfolge publish`)
    #[arg(long)]
    publish: bool,
}

fn parse_land(s: &str) -> Result<nachfolge::model::Land, String> {
    serde_json::from_value(serde_json::Value::String(s.to_uppercase()))
        .map_err(|_| format!("unknown Land {s:?} (NW, HE, RP, NI, ST, TH, SH, BY, BW, SN, MV, BB)"))
}

fn parse_kind(s: &str) -> Result<nachfolge::model::BodyKind, String> {
    serde_json::from_value(serde_json::Value::String(s.to_lowercase()))
        .map_err(|_| format!("unknown kind {s:?} (council, kreistag)"))
}

fn parse_format(s: &str) -> Result<nachfolge_import::Format, String> {
    match s.to_lowercase().as_str() {
        "votemanager" => Ok(nachfolge_import::Format::Votemanager),
        "owd" => Ok(nachfolge_import::Format::Owd),
        _ => Err(format!("unknown format {s:?} (votemanager, owd)")),
    }
}

/// `nachfolge import`: 0 with a valid snapshot on stdout, 2 with the error (file, line, column) on stderr.
fn run_import(args: ImportArgs, config: Option<&std::path::Path>) -> ExitCode {
    nachfolge::telemetry::init(false);
    let fail = |e: nachfolge_import::ImportError| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    };
    let (files, skipped) = match nachfolge::import::read_dir(&args.dir) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let contacts = match args.contacts.as_deref().map(nachfolge::import::read_contacts).transpose() {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    let facts = nachfolge_import::BodyFacts {
        land: args.land,
        id: args.body,
        name: args.name,
        kind: args.kind,
        statutory_size: args.statutory_size,
        term_start: args.term_start,
        term_end: args.term_end,
        returning_officer: nachfolge::model::ReturningOfficer {
            name: args.returning_officer_name,
            email: args.returning_officer_email,
            address: args.returning_officer_address,
            title: args.returning_officer_title,
        },
    };
    let options = nachfolge_import::Options { allow_incomplete: args.allow_incomplete };
    let mut imported =
        match nachfolge_import::import_with_contacts(&files, args.format, &facts, &options, contacts.as_ref()) {
            Ok(i) => i,
            Err(e) => return fail(e),
        };
    imported.report.points.extend(skipped);
    // the venues of the Rechtsbehelfsbelehrung: no published file holds them
    let venue = |name: Option<String>, address: Option<String>, what: &str| match (name, address) {
        (None, None) => Ok(None),
        (Some(name), Some(address)) => Ok(Some(nachfolge::model::Authority { name, address })),
        _ => Err(format!("--{what}-name and --{what}-address go together")),
    };
    let venues = venue(args.remedy_court_name, args.remedy_court_address, "remedy-court").and_then(|court| {
        Ok((
            court,
            venue(args.supervisory_authority_name, args.supervisory_authority_address, "supervisory-authority")?,
        ))
    });
    match venues {
        Ok((court, supervisory)) => {
            imported.snapshot.body.remedy_court = court;
            imported.snapshot.body.supervisory_authority = supervisory;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    // what registration would refuse is said before anything is published
    if let Err(e) = nachfolge::land::validate_remedy_venues(&imported.snapshot.body) {
        if args.publish {
            eprintln!("error: registration would refuse the snapshot: {e}");
            return ExitCode::from(2);
        }
        imported.report.point(
            nachfolge_import::Severity::ToConfirm,
            None,
            None,
            format!("registration will refuse the snapshot until it is added: {e} (--remedy-court-name/-address)"),
            format!("Die Registrierung lehnt den Datensatz ab, bis dies ergänzt ist: {e}"),
        );
    }
    let json = match serde_json::to_string_pretty(&imported.snapshot) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{json}");
    eprint!("{}", nachfolge::import::render_report(&imported.report));
    if !args.publish {
        return ExitCode::SUCCESS;
    }
    let published = nachfolge::config::Config::load(config).map_err(anyhow::Error::from).and_then(|config| {
        let rt = tokio::runtime::Runtime::new()?;
        rt.block_on(nachfolge::import::publish(&config, json.as_bytes()))
    });
    match published {
        Ok(id) => {
            eprintln!("published election.registered {id}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: publishing: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[derive(Subcommand)]
enum UserCmd {
    /// Create an account; its password is read from standard input (or --password-file).
    Add {
        /// Login name (a-z, 0-9, '.', '_', '-', '@'; stored in lower case)
        login: String,
        /// wahlleiter or viewer (for the councils given with --body), or admin (with --all-councils)
        #[arg(long)]
        role: String,
        /// Council (body id) the role holds for; repeat for several ('*' is no body id)
        #[arg(long = "body")]
        bodies: Vec<String>,
        /// Every council, present and future: only with --role admin, which needs it
        #[arg(long)]
        all_councils: bool,
        /// Read the password from this file instead of standard input (one trailing line break is dropped)
        #[arg(long)]
        password_file: Option<PathBuf>,
    },
    /// Give an existing account a role (for further councils, or another role for one).
    Grant {
        login: String,
        #[arg(long)]
        role: String,
        #[arg(long = "body")]
        bodies: Vec<String>,
        /// Every council: only with --role admin, which needs it
        #[arg(long)]
        all_councils: bool,
    },
    /// Set a new password (standard input or --password-file); the account's sessions end.
    Passwd {
        login: String,
        #[arg(long)]
        password_file: Option<PathBuf>,
    },
    /// Delete an account with its roles and sessions.
    Delete { login: String },
    /// List the accounts with their roles (no hashes).
    List,
}

#[derive(Subcommand)]
enum DeadLettersCmd {
    /// Show dead letters with their reason, leaving them in the queue in their order.
    List {
        /// Show at most N (default: all)
        #[arg(long)]
        limit: Option<usize>,
        /// One JSON object per line instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Move dead letters back to the commands exchange (progress on stderr).
    Redrive {
        /// Redrive at most N (default: all)
        #[arg(long)]
        limit: Option<usize>,
        /// Only the message(s) with this CloudEvents id
        #[arg(long)]
        id: Option<String>,
        /// One JSON object per line instead of a table
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Cmd::Decide { election, vacancy, at } => {
            nachfolge::telemetry::init(false);
            let read = |p: &str| nachfolge::ops::read_input(p).map_err(|e| format!("{p}: {e}"));
            let result = read(&election)
                .and_then(|e| Ok((e, read(&vacancy)?)))
                .and_then(|(e, v)| nachfolge::offline::decide(&e, &v, at));
            match result {
                Ok(v) => {
                    println!("{v}");
                    ExitCode::SUCCESS
                }
                Err(msg) => {
                    eprintln!("error: {msg}");
                    ExitCode::from(2)
                }
            }
        }
        Cmd::SuccessionOrder { election, at } => {
            nachfolge::telemetry::init(false);
            let at = at.map_or_else(chrono::Utc::now, |t| t.with_timezone(&chrono::Utc));
            let result = nachfolge::ops::read_input(&election)
                .map_err(|e| format!("{election}: {e}"))
                .and_then(|e| nachfolge::offline::succession_order(&e, at));
            match result {
                Ok(v) => {
                    println!("{v}");
                    ExitCode::SUCCESS
                }
                Err(msg) => {
                    eprintln!("error: {msg}");
                    ExitCode::from(2)
                }
            }
        }
        Cmd::Import(args) => run_import(*args, cli.config.as_deref()),
        Cmd::Schema => match serde_json::to_string_pretty(&nachfolge::offline::schema()) {
            Ok(s) => {
                println!("{s}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        cmd => {
            let config = match nachfolge::config::Config::load(cli.config.as_deref()) {
                Ok(c) => c,
                Err(e) => {
                    nachfolge::telemetry::init(true);
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            // the worker exports traces when `telemetry.otlp_endpoint` is set; the other commands only log
            let telemetry = if matches!(cmd, Cmd::Run) {
                nachfolge::telemetry::init_worker(&config.telemetry)
            } else {
                nachfolge::telemetry::init(true);
                Ok(nachfolge::telemetry::Tracing::none())
            };
            let telemetry = match telemetry {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let rt = match tokio::runtime::Runtime::new() {
                Ok(rt) => rt,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let result = rt.block_on(async move {
                match cmd {
                    Cmd::Run => nachfolge::worker::run(config).await,
                    Cmd::Migrate => {
                        nachfolge::store::Store::connect(&config.database).await.map(|_| ()).map_err(Into::into)
                    }
                    Cmd::Export { body } => {
                        let store = nachfolge::store::Store::connect(&config.database).await?;
                        let json = store.export(&body).await?;
                        println!("{}", serde_json::to_string_pretty(&json)?);
                        Ok(())
                    }
                    Cmd::Publish { file, ty, id } => {
                        nachfolge::ops::run_publish(&config, &file, ty.as_deref(), id.as_deref()).await
                    }
                    Cmd::DeadLetters(DeadLettersCmd::List { limit, json }) => {
                        nachfolge::ops::run_dead_letters_list(&config, limit, json).await
                    }
                    Cmd::DeadLetters(DeadLettersCmd::Redrive { limit, id, json }) => {
                        nachfolge::ops::run_dead_letters_redrive(&config, limit, id.as_deref(), json).await
                    }
                    Cmd::User(UserCmd::Add { login, role, bodies, all_councils, password_file }) => {
                        nachfolge::console::auth::run_add(
                            &config,
                            &login,
                            &role,
                            &bodies,
                            all_councils,
                            password_file.as_deref(),
                        )
                        .await
                    }
                    Cmd::User(UserCmd::Grant { login, role, bodies, all_councils }) => {
                        nachfolge::console::auth::run_grant(&config, &login, &role, &bodies, all_councils).await
                    }
                    Cmd::User(UserCmd::Passwd { login, password_file }) => {
                        nachfolge::console::auth::run_passwd(&config, &login, password_file.as_deref()).await
                    }
                    Cmd::User(UserCmd::Delete { login }) => nachfolge::console::auth::run_delete(&config, &login).await,
                    Cmd::User(UserCmd::List) => nachfolge::console::auth::run_list(&config).await,
                    Cmd::Cases { open, body, json } => {
                        nachfolge::ops::run_cases(&config, open, body.as_deref(), json).await
                    }
                    Cmd::Decide { .. } | Cmd::Schema | Cmd::Import(_) => Ok(()),
                    Cmd::SuccessionOrder { .. } => Ok(()),
                }
            });
            // the worker has stopped: export the spans still queued (blocks until sent or timed out)
            telemetry.shutdown();
            match result {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    tracing::error!(error = %format!("{e:#}"), "nachfolge failed");
                    eprintln!("error: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
