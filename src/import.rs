//! `nachfolge import DIR`: read one council election's published result files from a folder, import them
//! with [`nachfolge_import`] (pure: bytes in, snapshot and report out), print the snapshot and the report,
//! and optionally publish it as `election.registered` (docs/import.md).

use std::io::Read;
use std::path::Path;

use anyhow::Context;
use chrono::Utc;
use nachfolge_import::csv::MAX_FILE_BYTES;
use nachfolge_import::{ImportError, InputFile, Point, Report, Severity};

use crate::config::Config;

/// At most this many files are read from the folder (an export has a handful; a folder of thousands is the
/// wrong folder).
pub const MAX_FILES: usize = 200;

/// Read the regular files directly in `dir` (no subfolders, no symbolic links, no hidden files), each at
/// most [`MAX_FILE_BYTES`], sorted by name. Returns the files and a point for each entry left out.
pub fn read_dir(dir: &Path) -> Result<(Vec<InputFile>, Vec<Point>), ImportError> {
    let shown = dir.display().to_string();
    let entries = std::fs::read_dir(dir).map_err(|e| {
        ImportError::in_file(
            &shown,
            format!("cannot read the folder: {e}"),
            format!("Der Ordner kann nicht gelesen werden: {e}"),
        )
    })?;
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| {
            ImportError::in_file(
                &shown,
                format!("cannot read the folder: {e}"),
                format!("Der Ordner kann nicht gelesen werden: {e}"),
            )
        })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let meta = entry.metadata().map_err(|e| {
            ImportError::in_file(&name, e.to_string(), format!("Die Datei kann nicht gelesen werden: {e}"))
        })?;
        if name.starts_with('.') || !meta.file_type().is_file() {
            skipped.push(Point {
                severity: Severity::Info,
                file: Some(name),
                line: None,
                message: "not a regular file (a folder, a link or a hidden file); not read".into(),
                message_de:
                    "Keine gewöhnliche Datei (ein Ordner, eine Verknüpfung oder eine versteckte Datei); nicht gelesen."
                        .into(),
            });
            continue;
        }
        if files.len() >= MAX_FILES {
            return Err(ImportError::in_file(
                &shown,
                format!("more than {MAX_FILES} files: not an election export"),
                format!("Mehr als {MAX_FILES} Dateien: kein Export eines Wahlergebnisses."),
            ));
        }
        files.push(read_file(&entry.path(), &name, meta.len())?);
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((files, skipped))
}

/// Read one file of at most [`MAX_FILE_BYTES`] (checked before reading and while reading).
pub fn read_file(path: &Path, name: &str, len: u64) -> Result<InputFile, ImportError> {
    let too_big = || {
        ImportError::in_file(
            name,
            format!("file is larger than the {} MB an election export can have", MAX_FILE_BYTES >> 20),
            format!(
                "Die Datei ist größer als die {} MB, die ein Export eines Wahlergebnisses haben kann.",
                MAX_FILE_BYTES >> 20
            ),
        )
    };
    if len > MAX_FILE_BYTES as u64 {
        return Err(too_big());
    }
    let file = std::fs::File::open(path).map_err(|e| {
        ImportError::in_file(name, format!("cannot read: {e}"), format!("Die Datei kann nicht gelesen werden: {e}"))
    })?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(|e| {
        ImportError::in_file(name, format!("cannot read: {e}"), format!("Die Datei kann nicht gelesen werden: {e}"))
    })?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_big());
    }
    Ok(InputFile { name: name.to_owned(), bytes })
}

/// Read the contacts CSV at `path` (a regular file, bounded as the exports).
pub fn read_contacts(path: &Path) -> Result<InputFile, ImportError> {
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let meta = std::fs::metadata(path).map_err(|e| {
        ImportError::in_file(&name, format!("cannot read: {e}"), format!("Die Datei kann nicht gelesen werden: {e}"))
    })?;
    if !meta.is_file() {
        return Err(ImportError::in_file(&name, "not a regular file", "Keine gewöhnliche Datei."));
    }
    read_file(path, &name, meta.len())
}

/// The report as the official reads it on the terminal: what was read, then every point by weight.
pub fn render_report(report: &Report) -> String {
    let mut out = String::from("read:\n");
    for line in &report.read {
        out.push_str(&format!("  {}\n", line.en));
    }
    for (severity, title) in [
        (Severity::ToConfirm, "to confirm or add"),
        (Severity::DataFault, "data faults in the files"),
        (Severity::Info, "notes"),
    ] {
        let points: Vec<&Point> = report.points.iter().filter(|p| p.severity == severity).collect();
        if points.is_empty() {
            continue;
        }
        out.push_str(&format!("{title} ({}):\n", points.len()));
        for p in points {
            let at = match (&p.file, p.line) {
                (Some(f), Some(l)) => format!("{f}:{l}: "),
                (Some(f), None) => format!("{f}: "),
                _ => String::new(),
            };
            out.push_str(&format!("  - {at}{}\n", p.message));
        }
    }
    out
}

/// Publish `snapshot` (its JSON) as `election.registered` the way `nachfolge publish` does; returns the
/// event id.
pub async fn publish(config: &Config, snapshot_json: &[u8]) -> anyhow::Result<String> {
    let event = crate::ops::build_event(snapshot_json, Some("election.registered"), None, Utc::now())
        .context("building the election.registered event")?;
    crate::ops::publish(&config.amqp, &event).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_lists_points_by_weight_with_their_place() {
        let mut r = Report::default();
        r.read("lists: 2", "Wahlvorschläge: 2");
        r.point(Severity::Info, Some("a.pdf"), None, "ignored", "nicht berücksichtigt");
        r.point(Severity::ToConfirm, Some("x.csv"), Some(3), "check", "bitte prüfen");
        let text = render_report(&r);
        assert_eq!(
            text,
            "read:\n  lists: 2\nto confirm or add (1):\n  - x.csv:3: check\nnotes (1):\n  - a.pdf: ignored\n"
        );
    }
}
