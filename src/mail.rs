//! SMTP via lettre: builds the German notification (text + HTML, deterministic Message-ID, Reply-To the
//! returning officer) and sends it under a timeout. Knows nothing of election law.
//!
//! TLS follows the URL (lettre's syntax): `smtps://` is implicit TLS, `smtp://…?tls=required` demands
//! STARTTLS and never sends in clear, `?tls=opportunistic` upgrades when offered, plain `smtp://` is
//! unencrypted. `smtp.ca_file` adds CA certificates to the built-in webpki roots for the TLS modes.

use std::path::Path;
use std::time::Duration;

use lettre::message::{header, Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Certificate, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};
use lettre::{AsyncSmtpTransport, Message, Tokio1Executor};

use crate::config::SmtpConfig;
use crate::store::PendingMail;

/// Outcome of one send attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendResult {
    /// The server accepted the message (SMTP 250).
    Sent,
    /// Try again later (4xx, connection trouble, timeout).
    Transient(String),
    /// Never deliverable (5xx, invalid address).
    Permanent(String),
}

/// The SMTP sender.
pub struct Mailer {
    target: Target,
    from: Mailbox,
    /// The timeout of each command (connecting with greeting and EHLO, STARTTLS, AUTH, MAIL, RCPT, DATA).
    timeout: Duration,
    /// The timeout for the server's answer to the message's final `.` (RFC 5321 § 4.5.3.2.6: 10 minutes).
    data_timeout: Duration,
}

/// Where and how to connect, read from `smtp.url` (lettre's syntax, which lettre checks as well).
struct Target {
    host: String,
    port: u16,
    /// `None` plain; else the mode and the parameters (the host's name, the CA file's roots).
    tls: Option<(UrlTls, TlsParameters)>,
    hello: ClientId,
    credentials: Option<Credentials>,
}

/// A mailer could not be configured.
#[derive(Debug, thiserror::Error)]
pub enum MailConfigError {
    #[error("smtp.url: {0}")]
    Url(String),
    #[error("smtp.from: {0}")]
    From(String),
    #[error("smtp.ca_file: {0}")]
    CaFile(String),
}

impl Mailer {
    pub fn new(cfg: &SmtpConfig) -> Result<Mailer, MailConfigError> {
        // lettre's own parser decides what is a valid URL, as before
        AsyncSmtpTransport::<Tokio1Executor>::from_url(&cfg.url).map_err(|e| MailConfigError::Url(e.to_string()))?;
        let target = target(&cfg.url, cfg.ca_file.as_deref())?;
        let from: Mailbox =
            cfg.from.parse().map_err(|e: lettre::address::AddressError| MailConfigError::From(e.to_string()))?;
        Ok(Mailer { target, from, timeout: cfg.timeout(), data_timeout: cfg.data_timeout() })
    }

    /// Build and send one e-mail.
    pub async fn send(&self, m: &PendingMail) -> SendResult {
        let Some(to) = m.recipient.as_deref() else {
            return SendResult::Permanent("no e-mail address".into());
        };
        let message = match build(&self.from, to, m) {
            Ok(msg) => msg,
            Err(e) => return SendResult::Permanent(e),
        };
        match self.session(&message).await {
            Ok(()) => SendResult::Sent,
            Err(Failure::Timeout(step)) => SendResult::Transient(format!("timeout waiting for the answer to {step}")),
            Err(Failure::Smtp(e)) if e.is_permanent() => SendResult::Permanent(format!(
                "SMTP permanent failure: {}",
                e.status().map(|c| c.to_string()).unwrap_or_else(|| e.to_string())
            )),
            Err(Failure::Smtp(e)) => SendResult::Transient(format!("SMTP: {e}")),
            Err(Failure::Refused(why)) => SendResult::Transient(format!("SMTP: {why}")),
        }
    }

    /// One SMTP session for one message, each command under its own timeout and the answer to the data under
    /// the longer `data_timeout`. A timeout after the data were sent leaves it open whether the server took
    /// the message: the mail is tried again later, with the same Message-ID (docs/reliability.md).
    async fn session(&self, message: &Message) -> Result<(), Failure> {
        let t = &self.target;
        let implicit = match &t.tls {
            Some((UrlTls::Wrapper, params)) => Some(params.clone()),
            _ => None,
        };
        let mut conn = timed(
            self.timeout,
            "the greeting",
            AsyncSmtpConnection::connect_tokio1(
                (t.host.as_str(), t.port),
                Some(self.timeout),
                &t.hello,
                implicit,
                None,
            ),
        )
        .await?;
        // on a failure the connection is dropped (closed) without a QUIT: after a failed TLS upgrade there
        // is no stream to send it on, after a timeout no answer to wait for
        self.exchange(&mut conn, message).await
    }

    async fn exchange(&self, conn: &mut AsyncSmtpConnection, message: &Message) -> Result<(), Failure> {
        let t = &self.target;
        match &t.tls {
            Some((UrlTls::Required, params)) => {
                if !conn.can_starttls() {
                    return Err(Failure::Refused("the server offers no STARTTLS, smtp.url requires it".into()));
                }
                timed(self.timeout, "STARTTLS", conn.starttls(params.clone(), &t.hello)).await?;
            }
            Some((UrlTls::Opportunistic, params)) if conn.can_starttls() => {
                timed(self.timeout, "STARTTLS", conn.starttls(params.clone(), &t.hello)).await?;
            }
            _ => {}
        }
        if let Some(credentials) = &t.credentials {
            timed(self.timeout, "AUTH", conn.auth(DEFAULT_MECHANISMS, credentials)).await?;
        }
        let envelope = message.envelope();
        let email = message.formatted();
        let mut options = Vec::new();
        let non_ascii = |a: &lettre::Address| !AsRef::<str>::as_ref(a).is_ascii();
        if envelope.from().is_some_and(non_ascii) || envelope.to().iter().any(non_ascii) {
            if !conn.server_info().supports_feature(Extension::SmtpUtfEight) {
                return Err(Failure::Refused("non-ASCII address, the server does not support SMTPUTF8".into()));
            }
            options.push(MailParameter::SmtpUtfEight);
        }
        if !email.is_ascii() {
            if !conn.server_info().supports_feature(Extension::EightBitMime) {
                return Err(Failure::Refused("non-ASCII message, the server does not support 8BITMIME".into()));
            }
            options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
        }
        timed(self.timeout, "MAIL", conn.command(Mail::new(envelope.from().cloned(), options))).await?;
        for to in envelope.to() {
            timed(self.timeout, "RCPT", conn.command(Rcpt::new(to.clone(), vec![]))).await?;
        }
        timed(self.timeout, "DATA", conn.command(Data)).await?;
        timed(self.data_timeout, "the data", conn.message(&email)).await?;
        // the message is taken; a QUIT that fails or times out changes nothing
        let _ = tokio::time::timeout(self.timeout, conn.quit()).await;
        Ok(())
    }
}

/// Why a session failed.
enum Failure {
    /// No answer to this step within its timeout.
    Timeout(&'static str),
    /// The server's error answer, or the connection's.
    Smtp(lettre::transport::smtp::Error),
    /// Refused before sending (TLS required but not offered, an extension missing).
    Refused(String),
}

async fn timed<T>(
    limit: Duration,
    step: &'static str,
    f: impl std::future::Future<Output = Result<T, lettre::transport::smtp::Error>>,
) -> Result<T, Failure> {
    match tokio::time::timeout(limit, f).await {
        Err(_) => Err(Failure::Timeout(step)),
        Ok(r) => r.map_err(Failure::Smtp),
    }
}

/// Host, port, TLS, EHLO name and credentials of an SMTP URL in lettre's syntax (`smtp://user:pass@host:port/
/// ehlo-name?tls=required`): default ports 25 (plain), 587 (STARTTLS), 465 (`smtps://`); credentials only
/// with a password, percent-decoded.
fn target(url: &str, ca_file: Option<&Path>) -> Result<Target, MailConfigError> {
    let (_, rest) = url.split_once("://").ok_or_else(|| MailConfigError::Url("no scheme".into()))?;
    let host = url_host(rest).ok_or_else(|| MailConfigError::Url("no host".into()))?;
    let before_query = rest.split(['?', '#']).next().unwrap_or_default();
    let (authority, path) = before_query.split_once('/').unwrap_or((before_query, ""));
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, authority),
    };
    let port_text = match host_port.rsplit_once(']') {
        Some((_, after)) => after.strip_prefix(':'),
        None => host_port.split_once(':').map(|(_, p)| p),
    };
    let mode = url_tls(url);
    let port = match port_text.filter(|p| !p.is_empty()) {
        Some(p) => p.parse::<u16>().map_err(|_| MailConfigError::Url("invalid port".into()))?,
        None => match mode {
            None => 25,
            Some(UrlTls::Wrapper) => 465,
            Some(_) => 587,
        },
    };
    let tls = match mode {
        None if ca_file.is_some() => {
            return Err(MailConfigError::CaFile(
                "set, but smtp.url uses no TLS: use smtps://… or smtp://…?tls=required".into(),
            ))
        }
        None => None,
        Some(mode) => {
            // the server name without IPv6 brackets
            let name = host.trim_start_matches('[').trim_end_matches(']').to_owned();
            Some((mode, tls_parameters(name, ca_file)?))
        }
    };
    let path = path.trim_matches('/');
    let hello = if path.is_empty() { ClientId::default() } else { ClientId::Domain(path.to_owned()) };
    let credentials = match userinfo.and_then(|u| u.split_once(':')) {
        Some((user, password)) => Some(Credentials::new(
            percent_decode(user).ok_or_else(|| MailConfigError::Url("user name is not valid UTF-8".into()))?,
            percent_decode(password).ok_or_else(|| MailConfigError::Url("password is not valid UTF-8".into()))?,
        )),
        None => None,
    };
    // a host name is sent lower-cased, an IPv6 literal without brackets (as lettre does)
    let host = host.trim_start_matches('[').trim_end_matches(']').to_owned();
    Ok(Target { host, port, tls, hello, credentials })
}

/// `%XX` sequences decoded; `None` if the result is no UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The TLS an SMTP URL asks for, in lettre's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlTls {
    /// `smtps://`: implicit TLS.
    Wrapper,
    /// `smtp://…?tls=required`: STARTTLS, never in clear.
    Required,
    /// `smtp://…?tls=opportunistic`: STARTTLS when offered.
    Opportunistic,
}

/// The TLS mode of an SMTP URL; `None` for plain `smtp://` (or an unknown scheme). The one parser of it:
/// the mailer and the configuration check both use it.
pub fn url_tls(url: &str) -> Option<UrlTls> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.eq_ignore_ascii_case("smtps") {
        return Some(UrlTls::Wrapper);
    }
    if !scheme.eq_ignore_ascii_case("smtp") {
        return None;
    }
    let query = rest.split_once('?').map_or("", |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    match query.split('&').find_map(|pair| pair.strip_prefix("tls=")) {
        Some("required") => Some(UrlTls::Required),
        Some("opportunistic") => Some(UrlTls::Opportunistic),
        _ => None,
    }
}

/// The TLS parameters for the server `name`, with the CA certificates of `ca_file` trusted in addition to
/// the built-in roots.
fn tls_parameters(name: String, ca_file: Option<&Path>) -> Result<TlsParameters, MailConfigError> {
    let Some(ca_file) = ca_file else {
        return TlsParameters::new(name).map_err(|e| MailConfigError::Url(e.to_string()));
    };
    let file_error = |e: &dyn std::fmt::Display| MailConfigError::CaFile(format!("{}: {e}", ca_file.display()));
    let pem =
        crate::bus::read_pem_ca_file("smtp.ca_file", ca_file).map_err(|e| MailConfigError::CaFile(e.to_string()))?;
    let cert = Certificate::from_pem(pem.as_bytes()).map_err(|e| file_error(&e))?;
    TlsParameters::builder(name).add_root_certificate(cert).build().map_err(|e| file_error(&e))
}

/// The host of the part of a URL after `scheme://`, lower-cased, as the TLS server name (IPv6 literals
/// keep their brackets, as lettre's own URL parsing does).
fn url_host(after_scheme: &str) -> Option<String> {
    let authority = after_scheme.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port.split_inclusive(']').next().unwrap_or_default()
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// The content type of a calendar attachment (RFC 5545 § 8.1, RFC 5546 `METHOD:PUBLISH`).
pub const CALENDAR_CONTENT_TYPE: &str = "text/calendar; charset=utf-8; method=PUBLISH";

/// The file name of a calendar attachment, as the console's download names the same entry.
pub const CALENDAR_FILE_NAME: &str = "frist.ics";

/// Build the MIME message: multipart/alternative with text and HTML; with a calendar (the period notice),
/// multipart/mixed of that alternative and the calendar as the attachment `frist.ics`.
pub fn build(from: &Mailbox, to: &str, m: &PendingMail) -> Result<Message, String> {
    let to: Mailbox = to.parse().map_err(|_| "invalid e-mail address of the successor".to_owned())?;
    let reply_to: Mailbox =
        m.reply_to.parse().map_err(|_| "invalid e-mail address of the returning officer".to_owned())?;
    let alternative = MultiPart::alternative()
        .singlepart(SinglePart::builder().header(header::ContentType::TEXT_PLAIN).body(m.text_body.clone()))
        .singlepart(SinglePart::builder().header(header::ContentType::TEXT_HTML).body(m.html_body.clone()));
    let body = match &m.calendar {
        None => alternative,
        Some(ics) => {
            let ty = header::ContentType::parse(CALENDAR_CONTENT_TYPE).map_err(|e| format!("calendar: {e}"))?;
            MultiPart::mixed()
                .multipart(alternative)
                .singlepart(Attachment::new(CALENDAR_FILE_NAME.to_owned()).body(ics.clone(), ty))
        }
    };
    Message::builder()
        .from(from.clone())
        .to(to)
        .reply_to(reply_to)
        .subject(m.subject.clone())
        .message_id(Some(m.message_id.clone()))
        .multipart(body)
        .map_err(|e| format!("message: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(calendar: Option<&str>) -> PendingMail {
        PendingMail {
            message_id: "<rat-1.r1.period-notice.20261203@nachfolge.invalid>".into(),
            body_id: "rat".into(),
            case_id: "rat-1".into(),
            round: 1,
            recipient: Some("l1-03@example.org".into()),
            reply_to: "wahlleitung@example.org".into(),
            subject: "Fristmitteilung".into(),
            text_body: "Die Frist endet mit Ablauf des 10.12.2026 (24:00 Uhr).".into(),
            html_body: "<p>Die Frist endet mit Ablauf des 10.12.2026 (24:00 Uhr).</p>".into(),
            calendar: calendar.map(str::to_owned),
            kind: crate::procedure::MailKind::PeriodNotice,
            attempts: 0,
            smtp_done: None,
            record_attempts: 0,
        }
    }

    #[test]
    fn a_calendar_is_attached_as_frist_ics_beside_the_text_and_html_alternative() {
        let from: Mailbox = "nachfolge@example.org".parse().expect("from");
        let ics = "BEGIN:VCALENDAR\r\nMETHOD:PUBLISH\r\nEND:VCALENDAR\r\n";
        let raw = String::from_utf8(build(&from, "l1-03@example.org", &pending(Some(ics))).expect("built").formatted())
            .expect("utf-8");
        let head = raw.split("\r\n\r\n").next().unwrap_or_default();
        assert!(head.contains("Content-Type: multipart/mixed"), "{raw}");
        assert!(raw.contains("Content-Type: multipart/alternative"), "{raw}");
        assert!(raw.contains("Content-Type: text/calendar; charset=utf-8; method=PUBLISH"), "{raw}");
        assert!(raw.contains("Content-Disposition: attachment; filename=\"frist.ics\""), "{raw}");
        assert!(raw.contains("METHOD:PUBLISH"), "{raw}");
        // without a calendar the message stays the plain alternative, as the notification always was
        let raw = String::from_utf8(build(&from, "l1-03@example.org", &pending(None)).expect("built").formatted())
            .expect("utf-8");
        assert!(!raw.contains("multipart/mixed") && !raw.contains("text/calendar"), "{raw}");
        assert!(raw.contains("Content-Type: multipart/alternative"), "{raw}");
    }

    #[test]
    fn smtp_url_gives_host_port_tls_hello_and_percent_decoded_credentials() {
        let t = target("smtp://127.0.0.1:1025", None).expect("plain");
        assert_eq!(
            (t.host.as_str(), t.port, t.tls.is_none(), t.credentials.is_none()),
            ("127.0.0.1", 1025, true, true)
        );
        let t = target("smtps://user:pa%40ss@Mail.Example.org/ehlo.example.org", None).expect("smtps");
        assert_eq!((t.host.as_str(), t.port), ("mail.example.org", 465));
        assert!(matches!(t.tls, Some((UrlTls::Wrapper, _))));
        assert_eq!(t.hello, ClientId::Domain("ehlo.example.org".into()));
        assert_eq!(t.credentials, Some(Credentials::new("user".into(), "pa@ss".into())));
        let t = target("smtp://mail.example.org?tls=required", None).expect("starttls");
        assert_eq!(t.port, 587);
        assert!(matches!(t.tls, Some((UrlTls::Required, _))));
        let t = target("smtp://[::1]:25", None).expect("ipv6");
        assert_eq!((t.host.as_str(), t.port), ("::1", 25));
        // a user without a password sends no AUTH (as lettre)
        assert!(target("smtp://user@localhost:25", None).expect("user").credentials.is_none());
        assert!(target("smtp://localhost:notaport", None).is_err());
        assert_eq!(percent_decode("a%2Fb%zz%4"), Some("a/b%zz%4".into()));
    }

    #[test]
    fn url_host_is_the_tls_server_name() {
        assert_eq!(url_host("localhost:2525?tls=required").as_deref(), Some("localhost"));
        assert_eq!(url_host("user:pa%40ss@Mail.Example.org:465/ehlo").as_deref(), Some("mail.example.org"));
        assert_eq!(url_host("[::1]:25").as_deref(), Some("[::1]"));
        assert_eq!(url_host("u:p@:25"), None);
    }

    #[test]
    fn ca_file_needs_a_tls_url_and_a_certificate() {
        let dir = std::env::temp_dir().join(format!("nachfolge-mail-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").expect("write");
        let err = target("smtps://localhost", Some(&empty)).err().expect("no certificate");
        assert!(err.to_string().contains("no PEM certificate"), "{err}");
        let err = target("smtps://localhost", Some(&dir.join("missing.pem"))).err().expect("missing file");
        assert!(err.to_string().contains("missing.pem"), "{err}");
        let cfg = SmtpConfig { url: "smtp://localhost:25".into(), ca_file: Some(empty), ..SmtpConfig::default() };
        let err = Mailer::new(&cfg).err().expect("plaintext URL with a CA file");
        assert!(err.to_string().contains("uses no TLS"), "{err}");
    }
}
