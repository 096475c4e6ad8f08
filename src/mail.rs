//! SMTP via lettre: builds the German notification (text + HTML, deterministic Message-ID, Reply-To the
//! returning officer) and sends it under a timeout. Knows nothing of election law.
//!
//! TLS follows the URL (lettre's syntax): `smtps://` is implicit TLS, `smtp://…?tls=required` demands
//! STARTTLS and never sends in clear, `?tls=opportunistic` upgrades when offered, plain `smtp://` is
//! unencrypted. `smtp.ca_file` adds CA certificates to the built-in webpki roots for the TLS modes.

use std::path::Path;
use std::time::Duration;

use lettre::message::{header, Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

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
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    timeout: Duration,
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
        let timeout = cfg.timeout();
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(&cfg.url)
            .map_err(|e| MailConfigError::Url(e.to_string()))?
            .timeout(Some(timeout));
        if let Some(path) = &cfg.ca_file {
            builder = builder.tls(tls_with_ca(&cfg.url, path)?);
        }
        let transport = builder.build();
        let from: Mailbox =
            cfg.from.parse().map_err(|e: lettre::address::AddressError| MailConfigError::From(e.to_string()))?;
        Ok(Mailer { transport, from, timeout })
    }

    /// The longest one send can take before it is given up ([`Mailer::send`]'s timeout).
    pub fn session_bound(&self) -> Duration {
        self.timeout + Duration::from_secs(5)
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
        match tokio::time::timeout(self.session_bound(), self.transport.send(message)).await {
            Err(_) => SendResult::Transient("timeout".into()),
            Ok(Ok(_)) => SendResult::Sent,
            Ok(Err(e)) if e.is_permanent() => SendResult::Permanent(format!(
                "SMTP permanent failure: {}",
                e.status().map(|c| c.to_string()).unwrap_or_else(|| e.to_string())
            )),
            Ok(Err(e)) => SendResult::Transient(format!("SMTP: {e}")),
        }
    }
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

/// The URL's TLS mode (as lettre reads it) with the CA certificates of `ca_file` trusted in addition to
/// the built-in roots. A URL without TLS is an error: the CA file would suggest an encryption that does
/// not happen.
fn tls_with_ca(url: &str, ca_file: &Path) -> Result<Tls, MailConfigError> {
    let (_, rest) = url.split_once("://").ok_or_else(|| MailConfigError::Url("no scheme".into()))?;
    let host = url_host(rest).ok_or_else(|| MailConfigError::Url("no host".into()))?;
    let mode: fn(TlsParameters) -> Tls = match url_tls(url) {
        Some(UrlTls::Wrapper) => Tls::Wrapper,
        Some(UrlTls::Required) => Tls::Required,
        Some(UrlTls::Opportunistic) => Tls::Opportunistic,
        None => {
            return Err(MailConfigError::CaFile(
                "set, but smtp.url uses no TLS: use smtps://… or smtp://…?tls=required".into(),
            ))
        }
    };
    let file_error = |e: &dyn std::fmt::Display| MailConfigError::CaFile(format!("{}: {e}", ca_file.display()));
    let pem =
        crate::bus::read_pem_ca_file("smtp.ca_file", ca_file).map_err(|e| MailConfigError::CaFile(e.to_string()))?;
    let cert = Certificate::from_pem(pem.as_bytes()).map_err(|e| file_error(&e))?;
    let params = TlsParameters::builder(host).add_root_certificate(cert).build().map_err(|e| file_error(&e))?;
    Ok(mode(params))
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
        let err = tls_with_ca("smtps://localhost", &empty).expect_err("no certificate");
        assert!(err.to_string().contains("no PEM certificate"), "{err}");
        let err = tls_with_ca("smtps://localhost", &dir.join("missing.pem")).expect_err("missing file");
        assert!(err.to_string().contains("missing.pem"), "{err}");
        let cfg = SmtpConfig { url: "smtp://localhost:25".into(), ca_file: Some(empty), ..SmtpConfig::default() };
        let err = Mailer::new(&cfg).err().expect("plaintext URL with a CA file");
        assert!(err.to_string().contains("uses no TLS"), "{err}");
    }
}
