//! Parsing JSON into the contract types; a failure names the path of the field and the problem.

use super::*;

/// Parse a snapshot from JSON, naming the field on a type error.
pub fn parse_snapshot(json: &[u8]) -> Result<Snapshot, ValidationError> {
    parse_json(json)
}

/// Parse any JSON document into `T`; a failure names the path and the problem.
pub fn parse_json<T: serde::de::DeserializeOwned>(json: &[u8]) -> Result<T, ValidationError> {
    let de = &mut serde_json::Deserializer::from_slice(json);
    let value: T = serde_path_to_error::deserialize(de).map_err(|e| path_error("", e))?;
    Ok(value)
}

/// Convert a value into `T`; a failure names the path below `prefix`.
pub fn from_value<T: serde::de::DeserializeOwned>(
    prefix: &str,
    value: serde_json::Value,
) -> Result<T, ValidationError> {
    serde_path_to_error::deserialize(value).map_err(|e| path_error(prefix, e))
}

fn path_error<E: std::fmt::Display>(prefix: &str, e: serde_path_to_error::Error<E>) -> ValidationError {
    let path = e.path().to_string();
    let problem = e.into_inner().to_string();
    let mut parts: Vec<&str> = Vec::new();
    if !prefix.is_empty() {
        parts.push(prefix);
    }
    if path != "." {
        parts.push(&path);
    }
    // serde reports a missing field at the object that lacks it; name the field itself (docs/contract.md, "Validation":
    // "refused with a message naming the field").
    if let Some(missing) = problem.strip_prefix("missing field `").and_then(|rest| rest.split('`').next()) {
        parts.push(missing);
    }
    let field = if parts.is_empty() { "$".to_owned() } else { parts.join(".") };
    ValidationError::new(field, problem)
}
