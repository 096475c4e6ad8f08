//! TLS test fixtures: a throw-away test CA with a server certificate for `localhost`/127.0.0.1 (made with
//! the `openssl` command-line tool, no network), a TLS-terminating TCP proxy (for AMQPS in front of the
//! machine's plain RabbitMQ), and a small SMTP server that offers STARTTLS, implicit TLS or no TLS and
//! records on which side of the upgrade every command arrived.
//!
//! ```ignore
//! let pki = TestPki::get();                       // generated once per test process
//! let proxy = TlsProxy::start(pki, "127.0.0.1:5672").await;
//! let smtp = TlsSmtpServer::start(pki, SmtpTls::StartTls).await;
//! ```
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;

/// The files of the generated test PKI.
#[derive(Debug)]
pub struct TestPki {
    pub dir: PathBuf,
    /// The self-signed test CA (PEM): what `amqp.ca_file` / `smtp.ca_file` point at.
    pub ca_file: PathBuf,
    /// The server certificate (PEM), signed by the CA, SAN `DNS:localhost`, `IP:127.0.0.1`.
    pub cert_file: PathBuf,
    /// The server's private key (PKCS#8 PEM).
    pub key_file: PathBuf,
}

static PKI: OnceLock<TestPki> = OnceLock::new();

impl TestPki {
    /// The test PKI of this process, generated on first use in a fresh temporary directory.
    pub fn get() -> &'static TestPki {
        PKI.get_or_init(|| {
            remove_stale_dirs();
            let dir = std::env::temp_dir().join(format!("{DIR_PREFIX}{}", std::process::id()));
            TestPki::generate(&dir)
        })
    }

    /// Generates a P-256 CA and a server certificate for `localhost` into `dir` with the `openssl` CLI.
    pub fn generate(dir: &Path) -> TestPki {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).expect("create the test PKI directory");
        let pki = TestPki {
            dir: dir.to_path_buf(),
            ca_file: dir.join("ca.pem"),
            cert_file: dir.join("server.pem"),
            key_file: dir.join("server.key"),
        };
        let ca_key = dir.join("ca.key");
        let csr = dir.join("server.csr");
        let ext = dir.join("server.ext");
        std::fs::write(
            &ext,
            "basicConstraints = critical, CA:FALSE\n\
             keyUsage = critical, digitalSignature\n\
             extendedKeyUsage = serverAuth\n\
             subjectAltName = DNS:localhost, IP:127.0.0.1\n",
        )
        .expect("write the extension file");
        let p = |path: &Path| path.to_str().expect("UTF-8 temp path").to_owned();
        openssl(&[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            &p(&ca_key),
            "-out",
            &p(&pki.ca_file),
            "-days",
            "2",
            "-subj",
            "/CN=nachfolge test CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ]);
        openssl(&[
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            &p(&pki.key_file),
            "-out",
            &p(&csr),
            "-subj",
            "/CN=localhost",
        ]);
        openssl(&[
            "x509",
            "-req",
            "-in",
            &p(&csr),
            "-CA",
            &p(&pki.ca_file),
            "-CAkey",
            &p(&ca_key),
            "-set_serial",
            "4242",
            "-days",
            "2",
            "-extfile",
            &p(&ext),
            "-out",
            &p(&pki.cert_file),
        ]);
        pki
    }

    /// A rustls acceptor serving the server certificate.
    pub fn acceptor(&self) -> TlsAcceptor {
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&self.cert_file)
            .expect("open the server certificate")
            .collect::<Result<_, _>>()
            .expect("parse the server certificate");
        let key = PrivateKeyDer::from_pem_file(&self.key_file).expect("parse the server key");
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("protocol versions")
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .expect("server certificate and key");
        TlsAcceptor::from(Arc::new(config))
    }
}

const DIR_PREFIX: &str = "nachfolge-tls-test-";

/// Removes the PKI directories of earlier test processes that are gone (a static is never dropped, so
/// each run leaves its directory behind).
fn remove_stale_dirs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(DIR_PREFIX)) else { continue };
        if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

fn openssl(args: &[&str]) {
    let out = Command::new("openssl").args(args).output().unwrap_or_else(|e| {
        panic!("the TLS tests generate their test CA with the `openssl` command-line tool, which failed to start: {e}")
    });
    assert!(out.status.success(), "openssl {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
}

/// A TLS-terminating TCP proxy on 127.0.0.1: every accepted connection is TLS-handshaked with the test
/// certificate and then forwarded in clear to `upstream`.
pub struct TlsProxy {
    pub addr: SocketAddr,
    /// Completed handshakes.
    pub handshakes: Arc<Mutex<u32>>,
    /// Errors of failed handshakes (e.g. the client rejected the certificate).
    pub failures: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl TlsProxy {
    pub async fn start(pki: &TestPki, upstream: SocketAddr) -> TlsProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the TLS proxy");
        let addr = listener.local_addr().expect("proxy address");
        let acceptor = pki.acceptor();
        let handshakes = Arc::new(Mutex::new(0));
        let failures = Arc::new(Mutex::new(Vec::new()));
        let (h, f) = (handshakes.clone(), failures.clone());
        let task = tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let (acceptor, h, f) = (acceptor.clone(), h.clone(), f.clone());
                tokio::spawn(async move {
                    let mut tls = match acceptor.accept(tcp).await {
                        Ok(tls) => tls,
                        Err(e) => {
                            f.lock().expect("lock").push(e.to_string());
                            return;
                        }
                    };
                    *h.lock().expect("lock") += 1;
                    let Ok(mut plain) = TcpStream::connect(upstream).await else { return };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                });
            }
        });
        TlsProxy { addr, handshakes, failures, task }
    }

    pub fn handshakes(&self) -> u32 {
        *self.handshakes.lock().expect("lock")
    }

    pub fn failures(&self) -> Vec<String> {
        self.failures.lock().expect("lock").clone()
    }
}

impl Drop for TlsProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// What the test SMTP server offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain greeting; `EHLO` lists `STARTTLS`.
    StartTls,
    /// Plain greeting; no `STARTTLS` (a downgraded or misconfigured server).
    NoStartTls,
    /// TLS from the first byte (`smtps://`).
    Implicit,
}

/// One command line the server received, and whether it came over TLS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtpCommand {
    pub tls: bool,
    pub line: String,
}

/// One accepted message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsReceived {
    pub tls: bool,
    pub mail_from: String,
    pub rcpt_to: Vec<String>,
    pub data: String,
}

#[derive(Debug, Default)]
struct Log {
    commands: Vec<SmtpCommand>,
    messages: Vec<TlsReceived>,
    handshake_failures: Vec<String>,
}

/// A minimal ESMTP server (no AUTH) with STARTTLS / implicit TLS, on 127.0.0.1.
pub struct TlsSmtpServer {
    pub addr: SocketAddr,
    log: Arc<Mutex<Log>>,
    task: JoinHandle<()>,
}

impl TlsSmtpServer {
    pub async fn start(pki: &TestPki, mode: SmtpTls) -> TlsSmtpServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the SMTP server");
        let addr = listener.local_addr().expect("SMTP address");
        let acceptor = pki.acceptor();
        let log = Arc::new(Mutex::new(Log::default()));
        let shared = log.clone();
        let task = tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let (acceptor, log) = (acceptor.clone(), shared.clone());
                tokio::spawn(async move {
                    let _ = serve(tcp, acceptor, mode, &log).await;
                });
            }
        });
        TlsSmtpServer { addr, log, task }
    }

    /// Every command received so far, in order.
    pub fn commands(&self) -> Vec<SmtpCommand> {
        self.log.lock().expect("lock").commands.clone()
    }

    /// Every message accepted so far.
    pub fn messages(&self) -> Vec<TlsReceived> {
        self.log.lock().expect("lock").messages.clone()
    }

    /// Errors of failed TLS handshakes.
    pub fn handshake_failures(&self) -> Vec<String> {
        self.log.lock().expect("lock").handshake_failures.clone()
    }
}

impl Drop for TlsSmtpServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

enum Next {
    Quit,
    StartTls,
}

async fn serve(tcp: TcpStream, acceptor: TlsAcceptor, mode: SmtpTls, log: &Mutex<Log>) -> std::io::Result<()> {
    let handshake = |tcp: TcpStream| {
        let acceptor = acceptor.clone();
        async move {
            acceptor.accept(tcp).await.inspect_err(|e| log.lock().expect("lock").handshake_failures.push(e.to_string()))
        }
    };
    if mode == SmtpTls::Implicit {
        let tls = handshake(tcp).await?;
        let mut reader = BufReader::new(tls);
        reply(reader.get_mut(), b"220 localhost ESMTP nachfolge TLS test server\r\n").await?;
        dialogue(&mut reader, true, false, log).await?;
        return Ok(());
    }
    let mut reader = BufReader::new(tcp);
    reply(reader.get_mut(), b"220 localhost ESMTP nachfolge TLS test server\r\n").await?;
    match dialogue(&mut reader, false, mode == SmtpTls::StartTls, log).await? {
        Next::Quit => Ok(()),
        Next::StartTls => {
            // RFC 3207 § 4: nothing may be pipelined after STARTTLS (command injection); the buffer must
            // be empty when the handshake starts.
            if !reader.buffer().is_empty() {
                return Err(std::io::Error::other("data pipelined after STARTTLS"));
            }
            let tls = handshake(reader.into_inner()).await?;
            // After the upgrade the client starts over with EHLO, without a new greeting.
            dialogue(&mut BufReader::new(tls), true, false, log).await?;
            Ok(())
        }
    }
}

async fn dialogue<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut BufReader<S>,
    tls: bool,
    offer_starttls: bool,
    log: &Mutex<Log>,
) -> std::io::Result<Next> {
    let mut mail_from: Option<String> = None;
    let mut rcpt_to = Vec::new();
    loop {
        let mut line = String::new();
        if stream.read_line(&mut line).await? == 0 {
            return Ok(Next::Quit);
        }
        let line = line.trim_end().to_owned();
        log.lock().expect("lock").commands.push(SmtpCommand { tls, line: line.clone() });
        let verb = line.split_whitespace().next().unwrap_or_default().to_ascii_uppercase();
        let answer: &[u8] = match verb.as_str() {
            "EHLO" if offer_starttls => b"250-localhost\r\n250-8BITMIME\r\n250 STARTTLS\r\n",
            "EHLO" => b"250-localhost\r\n250 8BITMIME\r\n",
            "HELO" => b"250 localhost\r\n",
            "STARTTLS" if offer_starttls => {
                reply(stream.get_mut(), b"220 2.0.0 ready to start TLS\r\n").await?;
                return Ok(Next::StartTls);
            }
            "MAIL" => {
                mail_from = Some(path_of(&line));
                rcpt_to.clear();
                b"250 2.1.0 OK\r\n"
            }
            "RCPT" if mail_from.is_some() => {
                rcpt_to.push(path_of(&line));
                b"250 2.1.5 OK\r\n"
            }
            "DATA" if mail_from.is_some() && !rcpt_to.is_empty() => {
                reply(stream.get_mut(), b"354 end with <CRLF>.<CRLF>\r\n").await?;
                let mut data = String::new();
                loop {
                    let mut l = String::new();
                    if stream.read_line(&mut l).await? == 0 {
                        return Ok(Next::Quit);
                    }
                    if l == ".\r\n" {
                        break;
                    }
                    data.push_str(l.strip_prefix('.').unwrap_or(&l));
                }
                log.lock().expect("lock").messages.push(TlsReceived {
                    tls,
                    mail_from: mail_from.take().unwrap_or_default(),
                    rcpt_to: std::mem::take(&mut rcpt_to),
                    data,
                });
                b"250 2.0.0 queued\r\n"
            }
            "RSET" => {
                mail_from = None;
                rcpt_to.clear();
                b"250 2.0.0 OK\r\n"
            }
            "NOOP" => b"250 2.0.0 OK\r\n",
            "QUIT" => {
                reply(stream.get_mut(), b"221 2.0.0 bye\r\n").await?;
                return Ok(Next::Quit);
            }
            _ => b"502 5.5.1 command not implemented\r\n",
        };
        reply(stream.get_mut(), answer).await?;
    }
}

async fn reply<S: AsyncWrite + Unpin>(stream: &mut S, bytes: &[u8]) -> std::io::Result<()> {
    stream.write_all(bytes).await?;
    stream.flush().await
}

/// `MAIL FROM:<a@b> SIZE=1` → `a@b`.
fn path_of(line: &str) -> String {
    let after = line.split_once(':').map_or("", |(_, rest)| rest).trim();
    let path = after.split_whitespace().next().unwrap_or_default();
    path.trim_start_matches('<').trim_end_matches('>').to_owned()
}
