//! Drives the in-process SMTP sink with a raw SMTP conversation.

#[path = "support/smtp_sink.rs"]
mod smtp_sink;

use std::time::Duration;

use smtp_sink::{SinkMode, SmtpSink};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

struct Client {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
}

impl Client {
    async fn connect(sink: &SmtpSink) -> Client {
        let stream = TcpStream::connect(sink.addr).await.expect("connect");
        let (reader, writer) = stream.into_split();
        let mut client = Client { reader: BufReader::new(reader), writer };
        let greeting = client.reply().await;
        assert!(greeting[0].starts_with("220 "), "{greeting:?}");
        client
    }

    /// Reads one (possibly multi-line) reply.
    async fn reply(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = tokio::time::timeout(Duration::from_secs(5), self.reader.read_line(&mut line))
                .await
                .expect("reply in time")
                .expect("read");
            assert!(n > 0, "connection closed; lines so far: {lines:?}");
            let line = line.trim_end().to_owned();
            let last = line.as_bytes().get(3) != Some(&b'-');
            lines.push(line);
            if last {
                return lines;
            }
        }
    }

    async fn send(&mut self, command: &str) -> Vec<String> {
        self.writer.write_all(format!("{command}\r\n").as_bytes()).await.expect("write");
        self.reply().await
    }

    async fn code(&mut self, command: &str) -> String {
        let reply = self.send(command).await;
        reply.last().expect("reply line")[..3].to_owned()
    }
}

#[tokio::test]
async fn accepts_a_message_and_unstuffs_dots() {
    let sink = SmtpSink::start().await;
    let mut client = Client::connect(&sink).await;

    let ehlo = client.send("EHLO client.test").await;
    assert!(ehlo.len() > 1, "{ehlo:?}");
    assert!(ehlo.iter().any(|l| l.ends_with("8BITMIME")), "{ehlo:?}");
    assert!(ehlo.iter().any(|l| l.ends_with("SMTPUTF8")), "{ehlo:?}");
    assert!(ehlo.last().expect("line").starts_with("250 "), "{ehlo:?}");

    assert_eq!(client.code("RCPT TO:<early@example.org>").await, "503");
    assert_eq!(client.code("NOOP").await, "250");
    assert_eq!(client.code("MAIL FROM:<nachfolge@example.org> BODY=8BITMIME SMTPUTF8").await, "250");
    assert_eq!(client.code("RCPT TO:<a@example.org>").await, "250");
    assert_eq!(client.code("rcpt to:<b@example.org>").await, "250");
    assert_eq!(client.code("DATA").await, "354");
    let body = "Subject: Test\r\nMessage-ID: <case-1.round-1@nachfolge>\r\n\r\nHallo\r\n..leading dot\r\n.\r\n";
    client.writer.write_all(body.as_bytes()).await.expect("data");
    let reply = client.reply().await;
    assert!(reply[0].starts_with("250 "), "{reply:?}");

    // A second transaction on the same connection after RSET.
    assert_eq!(client.code("MAIL FROM:<x@example.org>").await, "250");
    assert_eq!(client.code("RSET").await, "250");
    assert_eq!(client.code("DATA").await, "503");
    assert_eq!(client.code("QUIT").await, "221");

    let messages = sink.wait_for(1, Duration::from_secs(5)).await;
    assert_eq!(messages.len(), 1);
    let message = &messages[0];
    assert_eq!(message.mail_from, "nachfolge@example.org");
    assert_eq!(message.rcpt_to, vec!["a@example.org", "b@example.org"]);
    assert_eq!(
        message.data,
        "Subject: Test\r\nMessage-ID: <case-1.round-1@nachfolge>\r\n\r\nHallo\r\n.leading dot\r\n"
    );
    assert_eq!(message.header("message-id").as_deref(), Some("<case-1.round-1@nachfolge>"));
}

#[tokio::test]
async fn failure_modes() {
    let sink = SmtpSink::start().await;

    sink.set_mode(SinkMode::PermFail);
    let mut client = Client::connect(&sink).await;
    assert_eq!(client.code("HELO client.test").await, "250");
    assert_eq!(client.code("MAIL FROM:<n@example.org>").await, "250");
    assert_eq!(client.code("RCPT TO:<a@example.org>").await, "550");
    assert_eq!(client.code("DATA").await, "503");
    assert_eq!(client.code("QUIT").await, "221");

    sink.set_mode(SinkMode::TempFail);
    let mut client = Client::connect(&sink).await;
    assert_eq!(client.code("EHLO client.test").await, "250");
    assert_eq!(client.code("MAIL FROM:<n@example.org>").await, "250");
    assert_eq!(client.code("RCPT TO:<a@example.org>").await, "250");
    assert_eq!(client.code("DATA").await, "354");
    client.writer.write_all(b"Subject: x\r\n\r\nbody\r\n.\r\n").await.expect("data");
    assert!(client.reply().await[0].starts_with("451 "));
    assert_eq!(client.code("QUIT").await, "221");
    assert!(sink.messages().is_empty());

    sink.set_mode(SinkMode::Down);
    let stream = TcpStream::connect(sink.addr).await;
    if let Ok(stream) = stream {
        // The sink drops the connection without a greeting.
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        let read =
            tokio::time::timeout(Duration::from_secs(5), reader.read_line(&mut line)).await.expect("closed in time");
        assert!(matches!(read, Ok(0) | Err(_)), "{read:?} {line:?}");
    }

    sink.set_mode(SinkMode::Accept);
    let mut client = Client::connect(&sink).await;
    assert_eq!(client.code("EHLO client.test").await, "250");
    assert_eq!(client.code("MAIL FROM:<n@example.org>").await, "250");
    assert_eq!(client.code("RCPT TO:<a@example.org>").await, "250");
    assert_eq!(client.code("DATA").await, "354");
    client.writer.write_all(b"Subject: y\r\n\r\nbody\r\n.\r\n").await.expect("data");
    assert!(client.reply().await[0].starts_with("250 "));
    assert_eq!(sink.wait_for(1, Duration::from_secs(5)).await.len(), 1);
    assert!(sink.connections() >= 4);
}
