//! The layers: the known keys (derived from the defaults), the TOML file, the environment, each value
//! checked against its key and remembered with its origin for the error message.

use super::*;

/// The known sections and keys with their defaults, derived from [`Config::default`].
/// The known sections and keys with their defaults, derived from [`Config::default`].
pub(super) fn schema() -> Schema {
    let mut schema = Schema::new();
    // Serializing plain strings, numbers and booleans cannot fail; an empty schema would only make
    // every key "unknown", which the tests catch.
    if let Ok(serde_json::Value::Object(sections)) = serde_json::to_value(Config::default()) {
        for (section, keys) in sections {
            if let serde_json::Value::Object(keys) = keys {
                schema.insert(section, keys.into_iter().collect());
            }
        }
    }
    // Optional keys are skipped when `None`; they are known all the same.
    for (section, key) in [
        ("templates", "dir"),
        ("amqp", "ca_file"),
        ("database", "ca_file"),
        ("smtp", "ca_file"),
        ("telemetry", "otlp_endpoint"),
        ("telemetry", "ca_file"),
    ] {
        schema.entry(section.to_owned()).or_default().entry(key.to_owned()).or_insert(serde_json::Value::Null);
    }
    if let Some(serde_json::Value::Object(oidc)) = schema.get_mut("console").and_then(|keys| keys.get_mut("oidc")) {
        oidc.entry("ca_file").or_insert(serde_json::Value::Null);
    }
    schema
}

/// The default of `key` in `section` — `key` is `name` or, for a key of a sub-table, `table.name` — or
/// `None` when there is no such key.
pub(super) fn schema_default<'a>(schema: &'a Schema, section: &str, key: &str) -> Option<&'a serde_json::Value> {
    let keys = schema.get(section)?;
    match key.split_once('.') {
        None => keys.get(key),
        Some((table, name)) => match keys.get(table)? {
            serde_json::Value::Object(inner) => inner.get(name),
            _ => None,
        },
    }
}

/// Whether `key` of `section` is a sub-table (`console.oidc`).
fn is_table(schema: &Schema, section: &str, key: &str) -> bool {
    matches!(schema_default(schema, section, key), Some(serde_json::Value::Object(_)))
}

/// The error for a key only the environment may set.
fn env_only(section: &str, key: &str, origin: &Origin) -> ConfigError {
    let var = format!("{ENV_PREFIX}{section}__{}", key.replace('.', "__")).to_ascii_uppercase();
    ConfigError::InvalidValue {
        key: format!("{section}.{key}"),
        origin: origin.to_string(),
        message: format!("is a secret and is read only from the environment ({var} or {var}_FILE), not from a file"),
    }
}

/// Checks that one value deserializes for its key; returns the deserializer's message otherwise.
/// (`key` may be `table.name`, a key of a sub-table.)
pub(super) fn check_value(section: &str, key: &str, value: &toml::Value) -> Result<(), String> {
    let mut outer = toml::Table::new();
    set_value(&mut outer, section, key, value.clone());
    toml::Value::Table(outer).try_into::<Config>().map(|_| ()).map_err(|e| e.message().to_owned())
}

/// The table of `path` in `table`, made where missing.
fn table_at<'a>(table: &'a mut toml::Table, path: &[&str]) -> Option<&'a mut toml::Table> {
    let mut at = table;
    for name in path {
        let entry = at.entry((*name).to_owned()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        at = entry.as_table_mut()?;
    }
    Some(at)
}

/// Sets `section.key` (`key` may be `table.name`).
pub(super) fn set_value(table: &mut toml::Table, section: &str, key: &str, value: toml::Value) {
    let (path, name) = match key.split_once('.') {
        Some((sub, name)) => (vec![section, sub], name),
        None => (vec![section], key),
    };
    if let Some(inner) = table_at(table, &path) {
        inner.insert(name.to_owned(), value);
    }
}

/// Removes `section.key` (`key` may be `table.name`).
pub(super) fn remove_value(table: &mut toml::Table, section: &str, key: &str) {
    let Some(toml::Value::Table(inner)) = table.get_mut(section) else { return };
    match key.split_once('.') {
        None => {
            inner.remove(key);
        }
        Some((sub, name)) => {
            if let Some(toml::Value::Table(sub)) = inner.get_mut(sub) {
                sub.remove(name);
            }
        }
    }
}

pub(super) fn merge_file(schema: &Schema, table: &mut toml::Table, path: &Path) -> Result<(), ConfigError> {
    let text =
        std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_path_buf(), source })?;
    let parsed: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        // Report position and message only: the offending line may hold a secret.
        let (line, column) = e.span().map(|span| line_column(&text, span.start)).unwrap_or((0, 0));
        ConfigError::Parse { path: path.to_path_buf(), line, column, message: e.message().to_owned() }
    })?;
    let origin = Origin::File(path.to_path_buf());
    for (section, value) in parsed {
        let Some(keys) = schema.get(&section) else {
            // a section whose keys were all removed may stay, empty; a removed key is named with why
            if let toml::Value::Table(inner) = &value {
                if let Some((key, why)) = inner.keys().find_map(|k| removed_key(&section, k).map(|why| (k, why))) {
                    return Err(removed(&section, key, why, &origin));
                }
                if inner.is_empty() && REMOVED_KEYS.iter().any(|(s, _, _)| *s == section) {
                    continue;
                }
            }
            return Err(ConfigError::UnknownKey { key: section, origin: origin.to_string() });
        };
        let toml::Value::Table(inner) = value else {
            return Err(ConfigError::InvalidValue {
                key: section,
                origin: origin.to_string(),
                message: "expected a table".to_owned(),
            });
        };
        for (key, value) in inner {
            if let Some(why) = removed_key(&section, &key) {
                return Err(removed(&section, &key, why, &origin));
            }
            if !keys.contains_key(&key) {
                return Err(ConfigError::UnknownKey { key: format!("{section}.{key}"), origin: origin.to_string() });
            }
            // a sub-table (`[console.oidc]`): each of its keys on its own, so the environment can set others
            let entries: Vec<(String, toml::Value)> = match value {
                toml::Value::Table(sub) if is_table(schema, &section, &key) => {
                    sub.into_iter().map(|(name, v)| (format!("{key}.{name}"), v)).collect()
                }
                value => vec![(key, value)],
            };
            for (key, value) in entries {
                if schema_default(schema, &section, &key).is_none() {
                    return Err(ConfigError::UnknownKey {
                        key: format!("{section}.{key}"),
                        origin: origin.to_string(),
                    });
                }
                if ENV_ONLY.contains(&(section.as_str(), key.as_str())) {
                    return Err(env_only(&section, &key, &origin));
                }
                check_value(&section, &key, &value).map_err(|message| ConfigError::InvalidValue {
                    key: format!("{section}.{key}"),
                    origin: origin.to_string(),
                    message,
                })?;
                set_value(table, &section, &key, value);
            }
        }
    }
    Ok(())
}

/// The error for a removed key.
fn removed(section: &str, key: &str, why: &str, origin: &Origin) -> ConfigError {
    ConfigError::RemovedKey { key: format!("{section}.{key}"), origin: origin.to_string(), why: why.to_owned() }
}

pub(super) fn has_env_prefix(name: &str) -> bool {
    name.get(..ENV_PREFIX.len()).is_some_and(|p| p.eq_ignore_ascii_case(ENV_PREFIX))
}

/// One environment override, before its value is typed.
struct EnvOverride {
    var: String,
    raw: String,
}

pub(super) fn merge_env(
    schema: &Schema,
    table: &mut toml::Table,
    env: impl IntoIterator<Item = (String, String)>,
) -> Result<(), ConfigError> {
    let mut overrides: BTreeMap<(String, String), EnvOverride> = BTreeMap::new();
    for (var, value) in env {
        if !has_env_prefix(&var) {
            continue;
        }
        let rest = &var[ENV_PREFIX.len()..];
        // SECTION__KEY, or SECTION__TABLE__KEY for a key of a sub-table (`console.oidc`)
        let parts: Vec<&str> = rest.split("__").collect();
        if !(2..=3).contains(&parts.len()) || parts.iter().any(|p| p.is_empty()) {
            return Err(ConfigError::MalformedEnv { var });
        }
        let section = parts[0].to_ascii_lowercase();
        let key = parts[1..].join(".").to_ascii_lowercase();
        if parts.len() == 3 && !is_table(schema, &section, &parts[1].to_ascii_lowercase()) {
            return Err(ConfigError::MalformedEnv { var });
        }
        if let Some(why) = removed_key(&section, &key) {
            return Err(removed(&section, &key, why, &Origin::Env(var)));
        }
        if !schema.contains_key(&section) {
            return Err(ConfigError::UnknownKey { key: section, origin: Origin::Env(var).to_string() });
        }
        let known = |key: &str| schema_default(schema, &section, key).is_some_and(|d| !d.is_object());
        let (key, raw) = if known(&key) {
            (key, value)
        } else if let Some(base) = key.strip_suffix(FILE_SUFFIX).filter(|&base| known(base)) {
            let path = PathBuf::from(&value);
            let content = std::fs::read_to_string(&path).map_err(|source| ConfigError::SecretFile {
                var: var.clone(),
                path,
                source,
            })?;
            (base.to_owned(), content.trim().to_owned())
        } else {
            return Err(ConfigError::UnknownKey {
                key: format!("{section}.{key}"),
                origin: Origin::Env(var).to_string(),
            });
        };
        if let Some(previous) = overrides.get(&(section.clone(), key.clone())) {
            return Err(ConfigError::ConflictingEnv {
                key: format!("{section}.{key}"),
                first: previous.var.clone(),
                second: var,
            });
        }
        overrides.insert((section, key), EnvOverride { var, raw });
    }

    for ((section, key), EnvOverride { var, raw }) in overrides {
        // an empty variable means "not set" — except where the empty string is a value of its own
        if raw.is_empty() && !EMPTY_IS_A_VALUE.contains(&(section.as_str(), key.as_str())) {
            remove_value(table, &section, &key);
            continue;
        }
        let default = schema_default(schema, &section, &key).unwrap_or(&serde_json::Value::Null);
        let candidates = typed_candidates(default, &raw);
        // Report the error of the most specific reading (e.g. "out of range" for a number).
        let mut first_error: Option<String> = None;
        let mut accepted = None;
        for candidate in candidates {
            match check_value(&section, &key, &candidate) {
                Ok(()) => {
                    accepted = Some(candidate);
                    break;
                }
                Err(message) => {
                    first_error.get_or_insert(message);
                }
            }
        }
        let Some(value) = accepted else {
            return Err(ConfigError::InvalidValue {
                key: format!("{section}.{key}"),
                origin: Origin::Env(var).to_string(),
                message: first_error.unwrap_or_default(),
            });
        };
        set_value(table, &section, &key, value);
    }
    Ok(())
}

/// The TOML values an environment string may stand for, most specific first, typed by the key's
/// default value.
pub(super) fn typed_candidates(default: &serde_json::Value, raw: &str) -> Vec<toml::Value> {
    let trimmed = raw.trim();
    let integer = trimmed.parse::<i64>().ok().map(toml::Value::Integer);
    let boolean = if trimmed.eq_ignore_ascii_case("true") {
        Some(toml::Value::Boolean(true))
    } else if trimmed.eq_ignore_ascii_case("false") {
        Some(toml::Value::Boolean(false))
    } else {
        None
    };
    let string = toml::Value::String(raw.to_owned());
    match default {
        serde_json::Value::String(_) => vec![string],
        serde_json::Value::Number(_) => integer.into_iter().chain([string]).collect(),
        serde_json::Value::Bool(_) => boolean.into_iter().chain([string]).collect(),
        _ => integer.into_iter().chain(boolean).chain([string]).collect(),
    }
}

/// 1-based line and column of a byte offset.
pub(super) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
