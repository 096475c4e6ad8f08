//! An in-process SMTP sink for integration tests: enough ESMTP (no TLS, no AUTH) for lettre's client.
//!
//! ```ignore
//! let sink = SmtpSink::start().await;
//! // point the worker at format!("smtp://{}", sink.addr)
//! let mails = sink.wait_for(1, Duration::from_secs(10)).await;
//! sink.set_mode(SinkMode::TempFail);
//! ```
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// One accepted message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// The reverse path of `MAIL FROM` (without angle brackets or parameters).
    pub mail_from: String,
    /// The forward paths of the accepted `RCPT TO` commands.
    pub rcpt_to: Vec<String>,
    /// The raw message as sent after `DATA` (headers and body, CRLF line endings kept), dot-unstuffed,
    /// without the terminating `.` line.
    pub data: String,
}

impl Received {
    /// The value of the first header named `name` (case-insensitive), unfolded.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next().unwrap_or(self.data.as_str());
        let mut value: Option<String> = None;
        for line in head.split("\r\n") {
            if let Some(current) = value.as_mut() {
                if line.starts_with([' ', '\t']) {
                    current.push(' ');
                    current.push_str(line.trim());
                    continue;
                }
                break;
            }
            if let Some((field, rest)) = line.split_once(':') {
                if field.eq_ignore_ascii_case(name) {
                    value = Some(rest.trim().to_owned());
                }
            }
        }
        value
    }
}

/// How the sink answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SinkMode {
    /// Accept every message.
    #[default]
    Accept,
    /// Answer `451` after the data (transient failure; nothing is stored).
    TempFail,
    /// Answer `550` to every `RCPT TO` (permanent failure).
    PermFail,
    /// Drop every connection at once (as if the server were down), including open ones at their next
    /// command.
    Down,
}

#[derive(Debug, Default)]
struct Shared {
    mode: SinkMode,
    messages: Vec<Received>,
    connections: usize,
    /// Answer the end of DATA only after this long for messages to a recipient containing the text (a slow
    /// or hanging server). The message is stored when the pause ends, whether or not the client still
    /// waits (the worst case: a server that delivers what its client gave up on).
    slow_data: Option<(String, Duration)>,
    /// Messages whose DATA ended and whose answer is held back now.
    held: usize,
}

/// A running SMTP sink; stops when dropped.
pub struct SmtpSink {
    /// The address the sink listens on (127.0.0.1, random port).
    pub addr: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    task: JoinHandle<()>,
}

impl SmtpSink {
    /// Binds 127.0.0.1:0 and serves in a background task.
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind SMTP sink on 127.0.0.1:0");
        let addr = listener.local_addr().expect("SMTP sink address");
        let shared = Arc::new(Mutex::new(Shared::default()));
        let task = tokio::spawn(accept_loop(listener, shared.clone()));
        SmtpSink { addr, shared, task }
    }

    /// The URL for lettre (`smtp://127.0.0.1:PORT`, no TLS).
    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        lock(&self.shared)
    }

    /// The messages accepted so far.
    pub fn messages(&self) -> Vec<Received> {
        self.lock().messages.clone()
    }

    /// Forgets the messages accepted so far.
    pub fn clear(&self) {
        self.lock().messages.clear();
    }

    /// The number of connections accepted so far (including those dropped in `Down` mode).
    pub fn connections(&self) -> usize {
        self.lock().connections
    }

    /// Switches how the sink answers from now on.
    pub fn set_mode(&self, mode: SinkMode) {
        self.lock().mode = mode;
    }

    /// Answer the end of DATA for messages to recipients containing `recipient` only after `delay`
    /// (`None`: at once again).
    pub fn set_slow_data(&self, slow: Option<(&str, Duration)>) {
        self.lock().slow_data = slow.map(|(r, d)| (r.to_owned(), d));
    }

    /// How many messages wait for their held-back answer now.
    pub fn held(&self) -> usize {
        self.lock().held
    }

    /// Polls until a message's data are held back (`set_slow_data`) or `timeout` passed; returns how many are held.
    pub async fn wait_held(&self, timeout: Duration) -> usize {
        let deadline = tokio::time::Instant::now() + timeout;
        while self.held() == 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.held()
    }

    /// Polls until at least `n` messages were accepted or `timeout` passed; returns all messages (fewer
    /// than `n` on timeout).
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let messages = self.messages();
            if messages.len() >= n || tokio::time::Instant::now() >= deadline {
                return messages;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn mode(shared: &Mutex<Shared>) -> SinkMode {
    lock(shared).mode
}

async fn accept_loop(listener: TcpListener, shared: Arc<Mutex<Shared>>) {
    let mut sessions = tokio::task::JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                lock(&shared).connections += 1;
                if mode(&shared) == SinkMode::Down {
                    drop(stream);
                    continue;
                }
                let shared = shared.clone();
                sessions.spawn(async move {
                    let _ = session(stream, &shared).await;
                });
            }
            Some(_) = sessions.join_next(), if !sessions.is_empty() => {}
        }
    }
    // Dropping the JoinSet (when this task is aborted) aborts the open sessions too.
}

/// Extracts the address between `<` and `>` after `FROM:` / `TO:`.
fn path_argument(argument: &str) -> Option<String> {
    let argument = argument.trim_start();
    if let Some(rest) = argument.strip_prefix('<') {
        let end = rest.find('>')?;
        return Some(rest[..end].to_owned());
    }
    // Tolerate a bare address without brackets.
    argument.split_whitespace().next().map(str::to_owned)
}

async fn session(stream: TcpStream, shared: &Mutex<Shared>) -> std::io::Result<()> {
    let (reader, mut writer) = stream.into_split();
    let mut reader = BufReader::new(reader);
    writer.write_all(b"220 smtp-sink.test ESMTP ready\r\n").await?;

    let mut mail_from: Option<String> = None;
    let mut rcpt_to: Vec<String> = Vec::new();
    let mut line = Vec::new();

    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).await? == 0 {
            return Ok(());
        }
        if mode(shared) == SinkMode::Down {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        let (verb, argument) = match text.split_once(' ') {
            Some((verb, argument)) => (verb.to_ascii_uppercase(), argument),
            None => (text.to_ascii_uppercase(), ""),
        };
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => {
                mail_from = None;
                rcpt_to.clear();
                b"250-smtp-sink.test greets you\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250-PIPELINING\r\n250 SIZE 52428800\r\n"
            }
            "HELO" => {
                mail_from = None;
                rcpt_to.clear();
                b"250 smtp-sink.test\r\n"
            }
            "MAIL" => {
                let upper = argument.to_ascii_uppercase();
                match upper.starts_with("FROM:").then(|| path_argument(&argument[5..])).flatten() {
                    Some(from) if mail_from.is_none() => {
                        mail_from = Some(from);
                        rcpt_to.clear();
                        b"250 2.1.0 OK\r\n"
                    }
                    Some(_) => b"503 5.5.1 nested MAIL command\r\n",
                    None => b"501 5.5.4 syntax: MAIL FROM:<address>\r\n",
                }
            }
            "RCPT" => {
                let upper = argument.to_ascii_uppercase();
                let to = upper.starts_with("TO:").then(|| path_argument(&argument[3..])).flatten();
                match (mail_from.is_some(), to) {
                    (false, _) => b"503 5.5.1 need MAIL first\r\n",
                    (true, None) => b"501 5.5.4 syntax: RCPT TO:<address>\r\n",
                    (true, Some(_)) if mode(shared) == SinkMode::PermFail => b"550 5.1.1 mailbox unavailable\r\n",
                    (true, Some(to)) => {
                        rcpt_to.push(to);
                        b"250 2.1.5 OK\r\n"
                    }
                }
            }
            "DATA" => {
                if mail_from.is_none() || rcpt_to.is_empty() {
                    b"503 5.5.1 need MAIL and RCPT first\r\n"
                } else {
                    writer.write_all(b"354 end data with <CR><LF>.<CR><LF>\r\n").await?;
                    let Some(data) = read_data(&mut reader).await? else {
                        return Ok(());
                    };
                    let from = mail_from.take().unwrap_or_default();
                    let to = std::mem::take(&mut rcpt_to);
                    let slow = lock(shared).slow_data.clone();
                    if let Some((_, delay)) = slow.filter(|(r, _)| to.iter().any(|t| t.contains(r.as_str()))) {
                        lock(shared).held += 1;
                        tokio::time::sleep(delay).await;
                        {
                            let mut s = lock(shared);
                            s.held -= 1;
                            s.messages.push(Received { mail_from: from, rcpt_to: to, data });
                        }
                        writer.write_all(b"250 2.0.0 OK queued (slowly)\r\n").await?;
                        continue;
                    }
                    match mode(shared) {
                        SinkMode::Down => return Ok(()),
                        SinkMode::TempFail => b"451 4.3.0 temporary failure, try again later\r\n",
                        SinkMode::Accept | SinkMode::PermFail => {
                            lock(shared).messages.push(Received { mail_from: from, rcpt_to: to, data });
                            b"250 2.0.0 OK queued\r\n"
                        }
                    }
                }
            }
            "RSET" => {
                mail_from = None;
                rcpt_to.clear();
                b"250 2.0.0 OK\r\n"
            }
            "NOOP" => b"250 2.0.0 OK\r\n",
            "QUIT" => {
                writer.write_all(b"221 2.0.0 bye\r\n").await?;
                let _ = writer.shutdown().await;
                return Ok(());
            }
            "STARTTLS" | "AUTH" => b"502 5.5.1 not implemented\r\n",
            _ => b"500 5.5.2 command not recognized\r\n",
        };
        writer.write_all(reply).await?;
    }
}

/// Reads the message after `354` up to the `.` line; `None` when the client disconnected first.
async fn read_data(reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>) -> std::io::Result<Option<String>> {
    let mut data = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).await? == 0 {
            return Ok(None);
        }
        if line == b".\r\n" || line == b".\n" {
            return Ok(Some(String::from_utf8_lossy(&data).into_owned()));
        }
        // Dot-unstuffing (RFC 5321 § 4.5.2).
        let content = line.strip_prefix(b".").unwrap_or(&line);
        data.extend_from_slice(content);
    }
}
