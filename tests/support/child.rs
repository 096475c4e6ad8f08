//! The worker as a child process (the real binary), for crash tests: started with the test's names by
//! environment, killed with SIGKILL, restarted.
#![allow(dead_code)]

/// The worker as a child process, killed with SIGKILL between (and during) steps and restarted.
pub struct Child {
    pub config: nachfolge::config::Config,
    pub offset_secs: i64,
    proc: Option<tokio::process::Child>,
    pub log: std::path::PathBuf,
}

impl Child {
    pub fn new(config: nachfolge::config::Config, log: std::path::PathBuf) -> Child {
        Child { offset_secs: config.clock.offset_secs, config, proc: None, log }
    }

    /// Is the process still running?
    pub fn running(&mut self) -> bool {
        self.proc.as_mut().is_some_and(|p| matches!(p.try_wait(), Ok(None)))
    }

    pub fn env(&self) -> Vec<(String, String)> {
        let c = &self.config;
        vec![
            ("NACHFOLGE__DATABASE__URL".into(), c.database.url.clone()),
            ("NACHFOLGE__AMQP__URL".into(), c.amqp.url.clone()),
            ("NACHFOLGE__AMQP__COMMANDS_EXCHANGE".into(), c.amqp.commands_exchange.clone()),
            ("NACHFOLGE__AMQP__COMMANDS_QUEUE".into(), c.amqp.commands_queue.clone()),
            ("NACHFOLGE__AMQP__EVENTS_EXCHANGE".into(), c.amqp.events_exchange.clone()),
            ("NACHFOLGE__AMQP__EVENTS_QUEUE".into(), c.amqp.events_queue.clone()),
            ("NACHFOLGE__AMQP__DEAD_LETTER_EXCHANGE".into(), c.amqp.dead_letter_exchange.clone()),
            ("NACHFOLGE__AMQP__DEAD_LETTER_QUEUE".into(), c.amqp.dead_letter_queue.clone()),
            ("NACHFOLGE__SMTP__URL".into(), c.smtp.url.clone()),
            ("NACHFOLGE__SMTP__TIMEOUT_SECS".into(), c.smtp.timeout_secs.to_string()),
            ("NACHFOLGE__HTTP__ADDR".into(), "127.0.0.1:0".into()),
            ("NACHFOLGE__CONSOLE__ADDR".into(), "127.0.0.1:0".into()),
            ("NACHFOLGE__WORKER__POLL_INTERVAL_MS".into(), "100".into()),
            ("NACHFOLGE__CLOCK__OFFSET_SECS".into(), self.offset_secs.to_string()),
            ("RUST_LOG".into(), "info".into()),
        ]
    }

    pub async fn start(&mut self) {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&self.log).expect("log file");
        let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_nachfolge"))
            .arg("run")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .envs(self.env())
            .stdout(std::process::Stdio::null())
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .expect("spawn worker");
        self.proc = Some(child);
    }

    pub async fn kill(&mut self) {
        if let Some(mut p) = self.proc.take() {
            p.start_kill().expect("SIGKILL");
            let _ = p.wait().await;
        }
    }
}
