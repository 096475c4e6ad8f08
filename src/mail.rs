//! SMTP via lettre: builds the German notification (text + HTML, deterministic Message-ID, Reply-To the
//! returning officer) and sends it under a timeout. Knows nothing of election law.

use std::time::Duration;

use lettre::message::{header, Mailbox, MultiPart, SinglePart};
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
}

impl Mailer {
    pub fn new(cfg: &SmtpConfig) -> Result<Mailer, MailConfigError> {
        let timeout = cfg.timeout();
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&cfg.url)
            .map_err(|e| MailConfigError::Url(e.to_string()))?
            .timeout(Some(timeout))
            .build();
        let from: Mailbox =
            cfg.from.parse().map_err(|e: lettre::address::AddressError| MailConfigError::From(e.to_string()))?;
        Ok(Mailer { transport, from, timeout })
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
        match tokio::time::timeout(self.timeout + Duration::from_secs(5), self.transport.send(message)).await {
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

/// Build the MIME message: multipart/alternative with text and HTML.
pub fn build(from: &Mailbox, to: &str, m: &PendingMail) -> Result<Message, String> {
    let to: Mailbox = to.parse().map_err(|_| "invalid e-mail address of the successor".to_owned())?;
    let reply_to: Mailbox =
        m.reply_to.parse().map_err(|_| "invalid e-mail address of the returning officer".to_owned())?;
    Message::builder()
        .from(from.clone())
        .to(to)
        .reply_to(reply_to)
        .subject(m.subject.clone())
        .message_id(Some(m.message_id.clone()))
        .multipart(
            MultiPart::alternative()
                .singlepart(SinglePart::builder().header(header::ContentType::TEXT_PLAIN).body(m.text_body.clone()))
                .singlepart(SinglePart::builder().header(header::ContentType::TEXT_HTML).body(m.html_body.clone())),
        )
        .map_err(|e| format!("message: {e}"))
}
