//! The import report (what was read, every point for the official) and the error that stops an import.

use serde::{Deserialize, Serialize};

/// How much a point weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Something the official must add or decide before the snapshot is complete (e.g. an ambiguous join).
    ToConfirm,
    /// A data fault in the files that the import worked around (e.g. an AGS that differs between files).
    DataFault,
    /// Information: what was read.
    Info,
}

/// One point of the report, with where it comes from where known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What the point is, in English (the CLI `nachfolge import` prints it for the operator).
    pub message: String,
    /// The same point in formal German with the statute's terms (the console „Wahlergebnis übernehmen“
    /// shows it to the officials); file names, line numbers and values as in `message`.
    pub message_de: String,
}

/// One line of what was read, in English (CLI) and German (console).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub en: String,
    pub de: String,
}

/// What was read and what needs the official.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// One line each: files, lists, candidates, areas summed, seats found.
    pub read: Vec<Line>,
    pub points: Vec<Point>,
}

impl Report {
    /// Adds a line of what was read, in English and in German.
    pub fn read(&mut self, en: impl Into<String>, de: impl Into<String>) {
        self.read.push(Line { en: en.into(), de: de.into() });
    }
    /// Adds a point, in English (`message`) and in German (`message_de`).
    pub fn point(
        &mut self,
        severity: Severity,
        file: Option<&str>,
        line: Option<usize>,
        message: impl Into<String>,
        message_de: impl Into<String>,
    ) {
        self.points.push(Point {
            severity,
            file: file.map(str::to_owned),
            line,
            message: message.into(),
            message_de: message_de.into(),
        });
    }
}

/// An import that could not build a valid snapshot: names the file, line and column where known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", location(.file, .line, .column))]
pub struct ImportError {
    pub file: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// Why, in English (the CLI prints it).
    pub message: String,
    /// Why, in formal German (the console shows it to the officials).
    pub message_de: String,
}

fn location(file: &Option<String>, line: &Option<usize>, column: &Option<usize>) -> String {
    match (file, line, column) {
        (Some(f), Some(l), Some(c)) => format!("{f}:{l}:{c}: "),
        (Some(f), Some(l), None) => format!("{f}:{l}: "),
        (Some(f), None, _) => format!("{f}: "),
        _ => String::new(),
    }
}

impl ImportError {
    pub fn general(message: impl Into<String>, message_de: impl Into<String>) -> ImportError {
        ImportError { file: None, line: None, column: None, message: message.into(), message_de: message_de.into() }
    }
    pub fn in_file(file: &str, message: impl Into<String>, message_de: impl Into<String>) -> ImportError {
        ImportError {
            file: Some(file.to_owned()),
            line: None,
            column: None,
            message: message.into(),
            message_de: message_de.into(),
        }
    }
    pub fn at(
        file: &str,
        line: usize,
        column: Option<usize>,
        message: impl Into<String>,
        message_de: impl Into<String>,
    ) -> ImportError {
        ImportError {
            file: Some(file.to_owned()),
            line: Some(line),
            column,
            message: message.into(),
            message_de: message_de.into(),
        }
    }

    /// Where and why in German: „Datei x.csv, Zeile 3, Spalte 2: …“ (the console's refusal).
    pub fn to_german(&self) -> String {
        let at = match (&self.file, self.line, self.column) {
            (Some(f), Some(l), Some(c)) => format!("Datei {f}, Zeile {l}, Spalte {c}: "),
            (Some(f), Some(l), None) => format!("Datei {f}, Zeile {l}: "),
            (Some(f), None, _) => format!("Datei {f}: "),
            _ => String::new(),
        };
        format!("{at}{}", self.message_de)
    }
}
