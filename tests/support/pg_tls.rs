//! A private PostgreSQL server with TLS for the tests: `initdb` into a temporary directory, `ssl = on` with
//! the server certificate of the test PKI (tests/support/tls.rs), a free port on 127.0.0.1 and 127.0.0.2,
//! the unix socket in the temporary directory, and a pg_hba.conf that accepts TCP connections **only over
//! TLS** (`hostssl … trust`, `hostnossl … reject`). Stopped and removed when dropped.
//!
//! The PostgreSQL binaries are taken from `$NACHFOLGE_PG_BINDIR`, else `pg_config --bindir`, else the
//! newest `/usr/lib/postgresql/*/bin`. `initdb` refuses to run as root: as root the server runs as the OS
//! user `postgres` (`runuser -u postgres --`).
//!
//! ```ignore
//! let pg = TlsPostgres::start(TestPki::get());
//! let url = pg.url("localhost", "verify-full");
//! ```
#![allow(dead_code)]

use std::net::TcpListener;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::tls::TestPki;

const DIR_PREFIX: &str = "nachfolge-pg-tls-test-";

/// The running server; dropping it stops the server (`pg_ctl stop -m fast`) and removes its directory.
pub struct TlsPostgres {
    pub port: u16,
    pub dir: PathBuf,
    data: PathBuf,
    bindir: PathBuf,
    run_as_postgres: bool,
}

impl TlsPostgres {
    pub fn start(pki: &TestPki) -> TlsPostgres {
        remove_stale_dirs();
        let bindir = pg_bindir();
        let run_as_postgres = std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false);
        let dir = std::env::temp_dir().join(format!("{DIR_PREFIX}{}-{}", std::process::id(), unique()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the PostgreSQL test directory");
        let data = dir.join("data");
        let (cert, key) = (dir.join("server.crt"), dir.join("server.key"));
        std::fs::copy(&pki.cert_file, &cert).expect("copy the server certificate");
        std::fs::copy(&pki.key_file, &key).expect("copy the server key");
        // PostgreSQL refuses a key that others can read.
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).expect("chmod the key");
        if run_as_postgres {
            let out = Command::new("chown").args(["-R", "postgres:postgres"]).arg(&dir).output().expect("chown");
            assert!(out.status.success(), "chown -R postgres {}: {}", dir.display(), text(&out));
        }
        let port = free_port();
        let server = TlsPostgres { port, dir: dir.clone(), data: data.clone(), bindir, run_as_postgres };

        let out = server.run("initdb", &["-D", s(&data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
        assert!(out.status.success(), "initdb failed: {}", text(&out));
        let conf = format!(
            "\n# nachfolge TLS test\nlisten_addresses = '127.0.0.1,127.0.0.2'\nport = {port}\n\
             unix_socket_directories = '{dir}'\nssl = on\nssl_cert_file = '{cert}'\nssl_key_file = '{key}'\n\
             fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nshared_buffers = 16MB\n\
             max_connections = 30\n",
            dir = dir.display(),
            cert = cert.display(),
            key = key.display(),
        );
        append(&data.join("postgresql.conf"), &conf);
        // TCP only over TLS: a plaintext connection is refused, so a connection that works is encrypted.
        std::fs::write(
            data.join("pg_hba.conf"),
            "local all all trust\n\
             hostssl all all 127.0.0.1/32 trust\n\
             hostssl all all 127.0.0.2/32 trust\n\
             hostnossl all all 0.0.0.0/0 reject\n",
        )
        .expect("write pg_hba.conf");
        let log = dir.join("postgres.log");
        let out = server.run("pg_ctl", &["-D", s(&data), "-l", s(&log), "-w", "-t", "60", "start"]);
        assert!(
            out.status.success(),
            "pg_ctl start failed: {}\n--- server log:\n{}",
            text(&out),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        server
    }

    /// `postgres://postgres@<host>:<port>/<db>?sslmode=<mode>`.
    pub fn url(&self, host: &str, db: &str, sslmode: &str) -> String {
        format!("postgres://postgres@{host}:{}/{db}?sslmode={sslmode}", self.port)
    }

    /// The server log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("postgres.log")).unwrap_or_default()
    }

    fn run(&self, program: &str, args: &[&str]) -> Output {
        run(&self.bindir, self.run_as_postgres, program, args)
    }
}

impl Drop for TlsPostgres {
    fn drop(&mut self) {
        let _ = self.run("pg_ctl", &["-D", s(&self.data), "-m", "fast", "-w", "-t", "30", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn run(bindir: &Path, as_postgres: bool, program: &str, args: &[&str]) -> Output {
    let program = bindir.join(program);
    let mut cmd = if as_postgres {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(&program);
        c
    } else {
        Command::new(&program)
    };
    cmd.args(args).current_dir(std::env::temp_dir()).output().unwrap_or_else(|e| {
        panic!("cannot start {} (PostgreSQL server binaries and, as root, runuser are needed): {e}", program.display())
    })
}

/// Where `initdb` and `pg_ctl` are.
fn pg_bindir() -> PathBuf {
    let has_initdb = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Some(dir) = std::env::var_os("NACHFOLGE_PG_BINDIR") {
        let dir = PathBuf::from(dir);
        assert!(has_initdb(&dir), "NACHFOLGE_PG_BINDIR={} has no initdb and pg_ctl", dir.display());
        return dir;
    }
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && has_initdb(&dir) {
            return dir;
        }
    }
    let mut dirs: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, dir)| has_initdb(dir))
        .collect();
    dirs.sort();
    dirs.pop().map(|(_, dir)| dir).unwrap_or_else(|| {
        panic!(
            "the PostgreSQL TLS test starts its own server and needs initdb and pg_ctl: not found via \
             NACHFOLGE_PG_BINDIR, pg_config --bindir or /usr/lib/postgresql/*/bin"
        )
    })
}

/// A port that was free a moment ago.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("address").port()
}

fn unique() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Stops the servers of earlier test processes that are gone (killed before their guard ran) and removes
/// their directories.
fn remove_stale_dirs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(DIR_PREFIX)) else { continue };
        let pid = rest.split('-').next().unwrap_or_default();
        if pid.parse::<u32>().is_err() || Path::new("/proc").join(pid).exists() {
            continue;
        }
        let data = entry.path().join("data");
        if data.join("postmaster.pid").exists() {
            let as_postgres = std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false);
            let _ = run(&pg_bindir(), as_postgres, "pg_ctl", &["-D", s(&data), "-m", "immediate", "stop"]);
        }
        let _ = std::fs::remove_dir_all(entry.path());
    }
}

fn append(path: &Path, text: &str) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().append(true).open(path).expect("open postgresql.conf");
    f.write_all(text.as_bytes()).expect("append to postgresql.conf");
}

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}
